package io.heliograph.topology.internal;

import static io.heliograph.topology.internal.Graphs.agg;
import static io.heliograph.topology.internal.Graphs.core;
import static io.heliograph.topology.internal.Graphs.dpid;
import static io.heliograph.topology.internal.Graphs.edge;
import static io.heliograph.topology.internal.Graphs.port;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;

class TopologyGraphTest {

    @Test
    void theFatTreeHasTwentySwitchesAndSixtyFourDirectedLinksInOneIsland() {
        TopologyGraph graph = Graphs.fatTree().build();
        assertEquals(20, graph.switches().size());
        assertEquals(64, graph.links().size());
        assertEquals(Set.of(), graph.unidirectionalLinks());
        assertEquals(1, graph.islands().size());
        assertEquals(graph.switches(), graph.islandOf(dpid(core(0))));
    }

    @Test
    void theFatTreesBroadcastTreeIsASpanningTree() {
        TopologyGraph graph = Graphs.fatTree().build();
        Set<Link> tree = graph.broadcastTreeLinks();
        assertEquals(38, tree.size(), "19 cables, both directions");
        for (Link link : tree) {
            assertTrue(tree.contains(link.reverse()), link + " without its reverse");
            assertTrue(graph.links().contains(link), link + " is not a link");
        }
        assertSpanningTree(graph.switches(), tree);
        // Rooted at the lowest dpid: the first core switch; breadth first gives every switch the fewest hops.
        assertEquals(4, depth(tree, dpid(core(0))), "core -> agg -> edge -> agg -> core is the deepest");
    }

    @Test
    void aFloodOnTheFatTreeReachesEverySwitchExactlyOnce() {
        TopologyGraph graph = Graphs.fatTree().build();
        for (DatapathId start : graph.switches()) {
            Map<DatapathId, Integer> received = flood(graph, start);
            assertEquals(graph.switches(), received.keySet(), "from " + start);
            received.forEach((dpid, times) -> assertEquals(1, times, dpid + " received the flood from " + start
                    + " " + times + " times"));
        }
    }

    @Test
    void edgePortsMayAlwaysFloodAndTreePortsOnlyAmongInterSwitchPorts() {
        TopologyGraph graph = Graphs.fatTree().build();
        assertTrue(graph.isBroadcastAllowed(port(edge(0, 0), 3)), "host port");
        assertTrue(graph.isBroadcastAllowed(port(0x999, 1)), "a switch the topology does not know");
        assertFalse(graph.isInterSwitchPort(port(edge(0, 0), 3)));
        int allowed = 0;
        for (Link link : graph.links()) {
            assertTrue(graph.isInterSwitchPort(link.src()));
            boolean onTree = graph.broadcastTreePorts(link.src().dpid()).contains(link.src().port());
            assertEquals(onTree, graph.isBroadcastAllowed(link.src()));
            if (onTree) {
                allowed++;
            }
        }
        assertEquals(38, allowed);
    }

    @Test
    void theTreeDoesNotDependOnTheOrderLinksWereFound() {
        Graphs fatTree = Graphs.fatTree();
        Set<Link> first = fatTree.build().broadcastTreeLinks();
        List<Link> shuffled = new ArrayList<>(fatTree.links);
        for (long seed = 1; seed <= 5; seed++) {
            Collections.shuffle(shuffled, new Random(seed));
            TopologyGraph again = new TopologyGraph(2, fatTree.switches, new LinkedHashSet<>(shuffled));
            assertEquals(first, again.broadcastTreeLinks(), "seed " + seed);
        }
    }

    @Test
    void aRingLeavesExactlyOneCableOffTheTree() {
        TopologyGraph graph = Graphs.ring(6).build();
        assertEquals(10, graph.broadcastTreeLinks().size());
        assertSpanningTree(graph.switches(), graph.broadcastTreeLinks());
        List<Link> blocked = graph.links().stream().filter(l -> !graph.isBroadcastAllowed(l.src())).toList();
        assertEquals(2, blocked.size(), "both ends of one cable: " + blocked);
        assertEquals(blocked.get(0), blocked.get(1).reverse());
        // Breadth first from switch 1 reaches 4 last, from both sides: the cable cut is at 4.
        assertTrue(blocked.get(0).src().dpid().equals(dpid(4)) || blocked.get(0).dst().dpid().equals(dpid(4)), blocked
                .toString());
        for (DatapathId start : graph.switches()) {
            flood(graph, start).forEach((dpid, times) -> assertEquals(1, times));
        }
    }

    @Test
    void parallelCablesPutOneOnTheTree() {
        TopologyGraph graph = new Graphs().cable(1, 1, 2, 1).cable(1, 2, 2, 2).build();
        assertEquals(Set.of(OFPort.of(1)), graph.broadcastTreePorts(dpid(1)));
        assertEquals(Set.of(OFPort.of(1)), graph.broadcastTreePorts(dpid(2)));
        assertFalse(graph.isBroadcastAllowed(port(1, 2)));
    }

    @Test
    void islandsAreComponentsOverBidirectionalLinks() {
        TopologyGraph graph = new Graphs()
                .cable(1, 1, 2, 1).cable(2, 2, 3, 1)       // island {1,2,3}
                .cable(10, 1, 11, 1)                      // island {10,11}
                .oneWay(3, 2, 10, 2)                      // one way: joins nothing
                .switches(20)                             // alone
                .build();
        assertEquals(Set.of(Set.of(dpid(1), dpid(2), dpid(3)), Set.of(dpid(10), dpid(11)), Set.of(dpid(20))),
                graph.islands());
        assertEquals(Set.of(dpid(10), dpid(11)), graph.islandOf(dpid(11)));
        assertEquals(Set.of(dpid(20)), graph.islandOf(dpid(20)));
        assertEquals(Set.of(), graph.islandOf(dpid(99)));
        assertEquals(Set.of(new Link(port(3, 2), port(10, 2))), graph.unidirectionalLinks());
        assertTrue(graph.isInterSwitchPort(port(10, 2)), "a one-way link still faces a switch");
        assertFalse(graph.isBroadcastAllowed(port(3, 2)), "nor is it flooded into");
        assertEquals(Set.of(), graph.broadcastTreePorts(dpid(20)));
        // Each island has its own tree.
        assertEquals(Set.of(OFPort.of(1)), graph.broadcastTreePorts(dpid(10)));
        assertEquals(Set.of(OFPort.of(1), OFPort.of(2)), graph.broadcastTreePorts(dpid(2)));
    }

    @Test
    void linksFromListsOutgoingLinksOnly() {
        TopologyGraph graph = new Graphs().cable(1, 1, 2, 1).oneWay(3, 1, 1, 2).build();
        assertEquals(Set.of(new Link(port(1, 1), port(2, 1))), graph.linksFrom(dpid(1)));
        assertEquals(Set.of(), graph.linksFrom(dpid(99)));
        assertTrue(graph.isBidirectional(new Link(port(2, 1), port(1, 1))));
        assertFalse(graph.isBidirectional(new Link(port(3, 1), port(1, 2))));
    }

    @Test
    void aLinkToAnUnknownSwitchIsRefused() {
        Set<Link> links = Set.of(new Link(port(1, 1), port(2, 1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TopologyGraph(1, Set.of(dpid(1)), links));
        assertTrue(e.getMessage().contains("not a switch"), e.getMessage());
    }

    @Test
    void theSnapshotCannotBeChanged() {
        TopologyGraph graph = Graphs.ring(3).build();
        assertThrows(UnsupportedOperationException.class, () -> graph.links().clear());
        assertThrows(UnsupportedOperationException.class, () -> graph.islands().iterator().next().clear());
        assertThrows(UnsupportedOperationException.class, () -> graph.broadcastTreePorts(dpid(1)).clear());
    }

    /** Every switch reached from any one over tree edges, and edges = switches - 1: a tree, no cycle. */
    private static void assertSpanningTree(Set<DatapathId> switches, Set<Link> tree) {
        Set<Set<SwitchPort>> cables = new HashSet<>();
        for (Link link : tree) {
            cables.add(Set.of(link.src(), link.dst()));
        }
        assertEquals(switches.size() - 1, cables.size(), "edges of a tree over " + switches.size() + " switches");
        // Union-find: no edge may join two switches already connected.
        Map<DatapathId, DatapathId> parent = new HashMap<>();
        switches.forEach(s -> parent.put(s, s));
        for (Set<SwitchPort> cable : cables) {
            List<SwitchPort> ends = List.copyOf(cable);
            DatapathId a = find(parent, ends.get(0).dpid());
            DatapathId b = find(parent, ends.get(1).dpid());
            assertFalse(a.equals(b), "cycle through " + cable);
            parent.put(a, b);
        }
        Set<DatapathId> roots = new HashSet<>();
        switches.forEach(s -> roots.add(find(parent, s)));
        assertEquals(1, roots.size(), "all switches reached");
    }

    private static DatapathId find(Map<DatapathId, DatapathId> parent, DatapathId x) {
        while (!parent.get(x).equals(x)) {
            x = parent.get(x);
        }
        return x;
    }

    private static int depth(Set<Link> tree, DatapathId root) {
        Map<DatapathId, Integer> depth = new HashMap<>(Map.of(root, 0));
        Deque<DatapathId> queue = new ArrayDeque<>(List.of(root));
        int max = 0;
        while (!queue.isEmpty()) {
            DatapathId at = queue.poll();
            for (Link link : tree) {
                if (link.src().dpid().equals(at) && !depth.containsKey(link.dst().dpid())) {
                    depth.put(link.dst().dpid(), depth.get(at) + 1);
                    max = Math.max(max, depth.get(at) + 1);
                    queue.add(link.dst().dpid());
                }
            }
        }
        return max;
    }

    /**
     * What a switch-by-switch flood does when each switch sends the frame out of every port the
     * topology allows except the one it came in on: how many copies each switch receives. Stops at
     * 1000 copies, which only a loop can reach.
     */
    private static Map<DatapathId, Integer> flood(TopologyGraph graph, DatapathId start) {
        Map<DatapathId, Integer> received = new HashMap<>(Map.of(start, 1));
        Deque<SwitchPort> arrivals = new ArrayDeque<>();
        sendOn(graph, start, null, arrivals);
        int copies = 0;
        while (!arrivals.isEmpty() && copies++ < 1000) {
            SwitchPort at = arrivals.poll();
            received.merge(at.dpid(), 1, Integer::sum);
            sendOn(graph, at.dpid(), at.port(), arrivals);
        }
        assertTrue(copies < 1000, "the flood loops");
        return received;
    }

    private static void sendOn(TopologyGraph graph, DatapathId sw, OFPort inPort, Deque<SwitchPort> arrivals) {
        for (Link link : graph.linksFrom(sw)) {
            if (!link.src().port().equals(inPort) && graph.isBroadcastAllowed(link.src())) {
                arrivals.add(link.dst());
            }
        }
    }
}
