package io.heliograph.forwarding.internal;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.SwitchService;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;
import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.routing.RoutingService;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyService;
import io.heliograph.topology.internal.TopologyGraph;

/**
 * A test network: fake switches joined by cables, the real topology snapshot (islands and broadcast
 * trees, from the topology bundle), hosts at edge ports, and a small breadth-first routing service
 * that lists every shortest path, in (neighbour dpid, port) order, as the routing bundle does.
 */
final class Fabric implements SwitchService, TopologyService, DeviceService, RoutingService {

    final List<PortedSwitch.Write> journal = new ArrayList<>();
    private final Map<DatapathId, PortedSwitch> switches = new LinkedHashMap<>();
    private final Set<Link> links = new HashSet<>();
    private final Map<MacAddress, Host> hosts = new LinkedHashMap<>();
    private volatile Topology topology = TopologyGraph.EMPTY;
    private long version;

    PortedSwitch addSwitch(long dpid, OFVersion ofVersion, int ports) {
        PortedSwitch sw = new PortedSwitch(dpid, ofVersion, ports, journal);
        switches.put(sw.getId(), sw);
        publish();
        return sw;
    }

    /**
     * A clock for forwarding that moves on past the release grace at every reading: each packet-in
     * of a test then stands for one that comes long after the previous path was released.
     */
    static java.util.function.LongSupplier longAfterEachRelease() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        return () -> now.addAndGet(2 * ReactiveForwarding.RELEASE_GRACE_NANOS);
    }

    PortedSwitch sw(long dpid) {
        return switches.get(DatapathId.of(dpid));
    }

    Collection<PortedSwitch> all() {
        return switches.values();
    }

    /** A cable: links in both directions. */
    void cable(long a, int portA, long b, int portB) {
        Link link = link(a, portA, b, portB);
        links.add(link);
        links.add(link.reverse());
        publish();
    }

    /** Pulls a cable out; answers the events the topology service would publish. */
    List<TopologyEvent> cut(long a, int portA, long b, int portB) {
        Link link = link(a, portA, b, portB);
        links.remove(link);
        links.remove(link.reverse());
        publish();
        return List.of(new TopologyEvent(TopologyEvent.Type.LINK_REMOVED, link, null, topology),
                new TopologyEvent(TopologyEvent.Type.LINK_REMOVED, link.reverse(), null, topology));
    }

    static Link link(long a, int portA, long b, int portB) {
        return new Link(port(a, portA), port(b, portB));
    }

    static SwitchPort port(long dpid, int port) {
        return SwitchPort.of(DatapathId.of(dpid), OFPort.of(port));
    }

    private void publish() {
        topology = new TopologyGraph(++version, switches.keySet(), links);
    }

    /** A host with this MAC and IPv4 address at an edge port (untagged). */
    Host host(long mac, String ip, long dpid, int port) {
        Instant now = Instant.now();
        Host host = new Host(MacAddress.of(mac), VlanVid.ZERO, Set.of(IPv4Address.of(ip)), Set.of(),
                List.of(new AttachmentPoint(port(dpid, port), now, now)), now, now);
        hosts.put(host.mac(), host);
        return host;
    }

    Host move(Host host, long dpid, int port) {
        Instant now = Instant.now();
        Host moved = new Host(host.mac(), host.vlan(), host.ipv4Addresses(), host.ipv6Addresses(),
                List.of(new AttachmentPoint(port(dpid, port), now, now)), host.firstSeen(), now);
        hosts.put(moved.mac(), moved);
        return moved;
    }

    // SwitchService

    @Override
    public Map<DatapathId, OFSwitch> getSwitches() {
        return Map.copyOf(switches);
    }

    @Override
    public OFSwitch getSwitch(DatapathId id) {
        return switches.get(id);
    }

    // TopologyService

    @Override
    public Topology getTopology() {
        return topology;
    }

    // DeviceService

    @Override
    public Collection<Host> getHosts() {
        return List.copyOf(hosts.values());
    }

    @Override
    public Host getHost(MacAddress mac, VlanVid vlan) {
        Host host = hosts.get(mac);
        return host != null && host.vlan().equals(vlan) ? host : null;
    }

    @Override
    public Collection<Host> getHostsByMac(MacAddress mac) {
        Host host = hosts.get(mac);
        return host == null ? List.of() : List.of(host);
    }

    @Override
    public Collection<Host> getHostsByIpv4(IPv4Address address) {
        return hosts.values().stream().filter(h -> h.ipv4Addresses().contains(address)).toList();
    }

    @Override
    public Collection<Host> getHostsByIpv6(IPv6Address address) {
        return List.of();
    }

    @Override
    public Collection<Host> getHostsAt(SwitchPort port) {
        return hosts.values().stream().filter(h -> h.attachmentPoints().stream().anyMatch(a -> a.port().equals(port)))
                .toList();
    }

    // RoutingService: every shortest path by hops, over links seen both ways.

    @Override
    public Route getRoute(DatapathId src, DatapathId dst, Metric metric) {
        List<Route> routes = getEqualCostRoutes(src, dst, metric);
        return routes.isEmpty() ? null : routes.get(0);
    }

    @Override
    public List<Route> getEqualCostRoutes(DatapathId src, DatapathId dst, Metric metric) {
        if (src.equals(dst)) {
            return List.of(new Route(src, dst, List.of(), 0));
        }
        Map<DatapathId, List<Link>> out = new HashMap<>();
        for (Link l : links) {
            if (links.contains(l.reverse())) {
                out.computeIfAbsent(l.src().dpid(), k -> new ArrayList<>()).add(l);
            }
        }
        Comparator<Link> order = Comparator.comparing((Link l) -> l.dst().dpid())
                .thenComparingInt(l -> l.src().port().getPortNumber());
        out.values().forEach(list -> list.sort(order));
        Map<DatapathId, Integer> distanceToDst = new HashMap<>();
        distanceToDst.put(dst, 0);
        Deque<DatapathId> queue = new ArrayDeque<>(List.of(dst));
        while (!queue.isEmpty()) {
            DatapathId at = queue.poll();
            for (Link l : out.getOrDefault(at, List.of())) {
                if (distanceToDst.putIfAbsent(l.dst().dpid(), distanceToDst.get(at) + 1) == null) {
                    queue.add(l.dst().dpid());
                }
            }
        }
        if (!distanceToDst.containsKey(src)) {
            return List.of();
        }
        List<Route> routes = new ArrayList<>();
        walk(src, dst, new ArrayList<>(), out, distanceToDst, routes);
        return routes;
    }

    private static void walk(DatapathId at, DatapathId dst, List<Link> sofar, Map<DatapathId, List<Link>> out,
            Map<DatapathId, Integer> distance, List<Route> routes) {
        if (at.equals(dst)) {
            routes.add(new Route(sofar.get(0).src().dpid(), dst, sofar, sofar.size()));
            return;
        }
        for (Link l : out.getOrDefault(at, List.of())) {
            Integer d = distance.get(l.dst().dpid());
            if (d != null && d == distance.get(at) - 1) {
                sofar.add(l);
                walk(l.dst().dpid(), dst, sofar, out, distance, routes);
                sofar.remove(sofar.size() - 1);
            }
        }
    }

    @Override
    public List<Route> getKShortestRoutes(DatapathId src, DatapathId dst, int k, Metric metric) {
        throw new UnsupportedOperationException("forwarding does not ask for k shortest paths");
    }

    /** The k=4 fat tree: core 0x101-0x104, aggregation 0x2pj, edge 0x3pj (pod p, j 0/1), hosts on edge ports 1-2. */
    static Fabric fatTree(OFVersion version) {
        Fabric f = new Fabric();
        for (int c = 0; c < 4; c++) {
            f.addSwitch(core(c), version, 4);
        }
        for (int p = 0; p < 4; p++) {
            for (int j = 0; j < 2; j++) {
                f.addSwitch(agg(p, j), version, 4);
                f.addSwitch(edge(p, j), version, 4);
            }
        }
        for (int p = 0; p < 4; p++) {
            for (int j = 0; j < 2; j++) {
                for (int a = 0; a < 2; a++) {
                    f.cable(edge(p, j), 3 + a, agg(p, a), 1 + j); // edge uplinks 3,4; agg downlinks 1,2
                }
                for (int u = 0; u < 2; u++) {
                    f.cable(agg(p, j), 3 + u, core(2 * j + u), 1 + p); // agg uplinks 3,4; core port = pod + 1
                }
            }
        }
        return f;
    }

    static long core(int c) {
        return 0x101 + c;
    }

    static long agg(int pod, int j) {
        return 0x200 + pod * 16 + j;
    }

    static long edge(int pod, int j) {
        return 0x300 + pod * 16 + j;
    }

    /** MAC of the host on edge(pod, j) port (1 or 2). */
    static long hostMac(int pod, int j, int port) {
        return 0x0200_0000_0000L | pod << 8 | j << 4 | port;
    }

    static String hostIp(int pod, int j, int port) {
        return "10." + pod + "." + j + "." + (port + 1);
    }
}
