package io.heliograph.testbed;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A k-ary fat tree built by {@link Testbed#fatTree}: its switches by layer and pod, its hosts and the
 * cables between switches.
 */
public record FatTree(int k, List<Bridge> cores, List<List<Bridge>> aggregation, List<List<Bridge>> edge,
                      List<Host> hosts, List<Cable> cables) {

    /** Every switch: cores, then pod by pod aggregation and edge. */
    public List<Bridge> switches() {
        List<Bridge> all = new ArrayList<>(cores);
        for (int pod = 0; pod < k; pod++) {
            all.addAll(aggregation.get(pod));
            all.addAll(edge.get(pod));
        }
        return all;
    }

    public int hostsPerEdge() {
        return k / 2;
    }

    /** The pod (0-based) the host is in. */
    public int podOf(Host host) {
        return requireHost(host) / (hostsPerEdge() * hostsPerEdge());
    }

    /** The edge switch the host is plugged into. */
    public Bridge edgeOf(Host host) {
        int index = requireHost(host);
        int perPod = hostsPerEdge() * hostsPerEdge();
        return edge.get(index / perPod).get(index % perPod / hostsPerEdge());
    }

    /** The edge switch's port the host is plugged into (hosts take an edge switch's first ports). */
    public int portOf(Host host) {
        return requireHost(host) % hostsPerEdge() + 1;
    }

    /** Every directed link between switches the controller should report, as "dpid/port -> dpid/port". */
    public Set<String> directedLinks() {
        Set<String> links = new HashSet<>();
        cables.forEach(c -> links.addAll(c.directedLinks()));
        return links;
    }

    /** The cable plugged into {@code port} of {@code bridge}, or null for a host port. */
    public Cable cableAt(Bridge bridge, int port) {
        return cables.stream().filter(c -> c.connects(bridge, port)).findFirst().orElse(null);
    }

    private int requireHost(Host host) {
        int index = hosts.indexOf(host);
        if (index < 0) {
            throw new IllegalArgumentException(host + " is not a host of this fat tree");
        }
        return index;
    }
}
