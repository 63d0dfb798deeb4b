package io.heliograph.routing.internal;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;

/**
 * A hand-built switch graph for tests: cables (links in both directions) and one-way links, with an
 * optional cost per cable for weighted searches. Switches are named by small numbers (dpid = n).
 */
final class TestNetwork {

    private final Set<DatapathId> switches = new LinkedHashSet<>();
    private final Set<Link> links = new LinkedHashSet<>();
    private final Map<Link, Double> costs = new HashMap<>();

    static DatapathId dpid(long n) {
        return DatapathId.of(n);
    }

    static SwitchPort port(long dpid, int port) {
        return SwitchPort.of(dpid(dpid), OFPort.of(port));
    }

    static Link link(long a, int aPort, long b, int bPort) {
        return new Link(port(a, aPort), port(b, bPort));
    }

    TestNetwork addSwitch(long n) {
        switches.add(dpid(n));
        return this;
    }

    /** A cable between a:aPort and b:bPort, seen in both directions. */
    TestNetwork cable(long a, int aPort, long b, int bPort) {
        return cable(a, aPort, b, bPort, 1.0);
    }

    /** A cable with a cost, for searches over {@link #cost()}. */
    TestNetwork cable(long a, int aPort, long b, int bPort, double cost) {
        addSwitch(a).addSwitch(b);
        Link forward = link(a, aPort, b, bPort);
        links.add(forward);
        links.add(forward.reverse());
        costs.put(forward, cost);
        costs.put(forward.reverse(), cost);
        return this;
    }

    /** A cable on the next free ports of both switches. */
    TestNetwork cable(long a, long b) {
        return cable(a, nextPort(a), b, nextPort(b));
    }

    /** A cable with a cost on the next free ports of both switches. */
    TestNetwork cable(long a, long b, double cost) {
        return cable(a, nextPort(a), b, nextPort(b), cost);
    }

    /** A link seen in one direction only. */
    TestNetwork oneWay(long a, int aPort, long b, int bPort) {
        addSwitch(a).addSwitch(b);
        links.add(link(a, aPort, b, bPort));
        return this;
    }

    TestNetwork remove(Link link) {
        links.remove(link);
        return this;
    }

    private int nextPort(long n) {
        int used = 0;
        for (Link link : links) {
            if (link.src().dpid().equals(dpid(n))) {
                used = Math.max(used, link.src().port().getPortNumber());
            }
        }
        return used + 1;
    }

    Set<DatapathId> switches() {
        return Set.copyOf(switches);
    }

    Set<Link> links() {
        return Set.copyOf(links);
    }

    LinkGraph graph() {
        return LinkGraph.of(switches, links);
    }

    LinkCost cost() {
        return link -> costs.getOrDefault(link, 1.0);
    }

    FakeTopology topology(long version) {
        return new FakeTopology(version, switches(), links());
    }

    static List<Long> nodes(Path path, LinkGraph graph) {
        Long[] nodes = new Long[path.length() + 1];
        for (int i = 0; i <= path.length(); i++) {
            nodes[i] = graph.dpid(path.node(graph, i)).getLong();
        }
        return List.of(nodes);
    }
}
