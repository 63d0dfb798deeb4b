package io.heliograph.topology.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;

/**
 * An immutable topology snapshot: everything is computed once, when it is built, so readers on any
 * thread only look things up.
 *
 * <p>Islands are the connected components over bidirectional links (a link seen one way only may be
 * half-discovered or a broken fibre, and a flood must not depend on it). Each island's broadcast tree
 * is a breadth-first tree from the island's lowest datapath id, exploring links in (neighbour dpid,
 * port) order, so the same graph always gives the same tree and the tree has the fewest hops from
 * the root. Of several parallel links between two switches only one is on the tree.
 */
public final class TopologyGraph implements Topology {

    private static final Comparator<Link> LINK_ORDER = Comparator
            .comparing((Link l) -> l.dst().dpid())
            .thenComparingInt(l -> l.src().port().getPortNumber())
            .thenComparingInt(l -> l.dst().port().getPortNumber());

    private final long version;
    private final Set<DatapathId> switches;
    private final Set<Link> links;
    private final Map<DatapathId, Set<Link>> linksFrom;
    private final Set<SwitchPort> interSwitchPorts;
    private final Set<Link> unidirectional;
    private final Set<Set<DatapathId>> islands;
    private final Map<DatapathId, Set<DatapathId>> islandOf;
    private final Set<Link> treeLinks;
    private final Map<DatapathId, Set<OFPort>> treePorts;

    /** The empty topology every controller starts with. */
    public static final TopologyGraph EMPTY = new TopologyGraph(0, Set.of(), Set.of());

    /**
     * @throws IllegalArgumentException when a link starts or ends at a switch not in {@code switches}
     */
    public TopologyGraph(long version, Set<DatapathId> switches, Set<Link> links) {
        this.version = version;
        this.switches = Set.copyOf(switches);
        this.links = Set.copyOf(links);
        Map<DatapathId, Set<Link>> from = new HashMap<>();
        Set<SwitchPort> ports = new HashSet<>();
        Set<Link> oneWay = new HashSet<>();
        Map<DatapathId, List<Link>> bidirectional = new HashMap<>();
        for (Link link : this.links) {
            for (SwitchPort end : List.of(link.src(), link.dst())) {
                if (!this.switches.contains(end.dpid())) {
                    throw new IllegalArgumentException("link " + link + " ends at " + end.dpid()
                            + ", which is not a switch of this topology");
                }
            }
            from.computeIfAbsent(link.src().dpid(), k -> new HashSet<>()).add(link);
            ports.add(link.src());
            ports.add(link.dst());
            if (this.links.contains(link.reverse())) {
                bidirectional.computeIfAbsent(link.src().dpid(), k -> new ArrayList<>()).add(link);
            } else {
                oneWay.add(link);
            }
        }
        Map<DatapathId, Set<Link>> frozen = new HashMap<>();
        from.forEach((dpid, set) -> frozen.put(dpid, Set.copyOf(set)));
        this.linksFrom = Map.copyOf(frozen);
        this.interSwitchPorts = Set.copyOf(ports);
        this.unidirectional = Set.copyOf(oneWay);
        bidirectional.values().forEach(list -> list.sort(LINK_ORDER));

        Set<Set<DatapathId>> components = new HashSet<>();
        Map<DatapathId, Set<DatapathId>> componentOf = new HashMap<>();
        Set<Link> tree = new HashSet<>();
        Map<DatapathId, Set<OFPort>> portsOnTree = new HashMap<>();
        // Visiting switches in ascending order makes each island's first switch its lowest dpid: the root.
        for (DatapathId root : new TreeSet<>(this.switches)) {
            if (componentOf.containsKey(root)) {
                continue;
            }
            Set<DatapathId> island = new LinkedHashSet<>();
            island.add(root);
            Deque<DatapathId> queue = new ArrayDeque<>();
            queue.add(root);
            while (!queue.isEmpty()) {
                DatapathId at = queue.poll();
                for (Link link : bidirectional.getOrDefault(at, List.of())) {
                    DatapathId next = link.dst().dpid();
                    if (island.add(next)) {
                        queue.add(next);
                        tree.add(link);
                        tree.add(link.reverse());
                        portsOnTree.computeIfAbsent(at, k -> new HashSet<>()).add(link.src().port());
                        portsOnTree.computeIfAbsent(next, k -> new HashSet<>()).add(link.dst().port());
                    }
                }
            }
            Set<DatapathId> frozenIsland = Collections.unmodifiableSet(island);
            components.add(frozenIsland);
            island.forEach(dpid -> componentOf.put(dpid, frozenIsland));
        }
        this.islands = Set.copyOf(components);
        this.islandOf = Map.copyOf(componentOf);
        this.treeLinks = Set.copyOf(tree);
        Map<DatapathId, Set<OFPort>> frozenPorts = new HashMap<>();
        portsOnTree.forEach((dpid, set) -> frozenPorts.put(dpid, Set.copyOf(set)));
        this.treePorts = Map.copyOf(frozenPorts);
    }

    @Override
    public long version() {
        return version;
    }

    @Override
    public Set<DatapathId> switches() {
        return switches;
    }

    @Override
    public Set<Link> links() {
        return links;
    }

    @Override
    public Set<Link> linksFrom(DatapathId dpid) {
        return linksFrom.getOrDefault(dpid, Set.of());
    }

    @Override
    public boolean isInterSwitchPort(SwitchPort port) {
        return interSwitchPorts.contains(port);
    }

    @Override
    public Set<Link> unidirectionalLinks() {
        return unidirectional;
    }

    /** Whether the link is seen in both directions. */
    public boolean isBidirectional(Link link) {
        return links.contains(link) && links.contains(link.reverse());
    }

    @Override
    public Set<Set<DatapathId>> islands() {
        return islands;
    }

    @Override
    public Set<DatapathId> islandOf(DatapathId dpid) {
        return islandOf.getOrDefault(dpid, Set.of());
    }

    /** The directed links on the broadcast trees, both directions of each tree edge. */
    public Set<Link> broadcastTreeLinks() {
        return treeLinks;
    }

    @Override
    public Set<OFPort> broadcastTreePorts(DatapathId dpid) {
        return treePorts.getOrDefault(dpid, Set.of());
    }

    /**
     * Edge ports (no link) may always flood; an inter-switch port only when it is on the tree, which
     * is what keeps a flood from going round a loop.
     */
    @Override
    public boolean isBroadcastAllowed(SwitchPort port) {
        return !interSwitchPorts.contains(port) || broadcastTreePorts(port.dpid()).contains(port.port());
    }

    @Override
    public String toString() {
        return "Topology[version=" + version + ", switches=" + switches.size() + ", links=" + links.size()
                + ", islands=" + islands.size() + "]";
    }
}
