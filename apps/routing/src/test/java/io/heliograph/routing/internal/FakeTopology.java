package io.heliograph.routing.internal;

import java.util.Set;
import java.util.stream.Collectors;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;

/** A topology snapshot for tests. Islands and broadcast trees are not routing's business and are refused. */
record FakeTopology(long version, Set<DatapathId> switches, Set<Link> links) implements Topology {

    @Override
    public Set<Link> linksFrom(DatapathId dpid) {
        return links.stream().filter(l -> l.src().dpid().equals(dpid)).collect(Collectors.toSet());
    }

    @Override
    public boolean isInterSwitchPort(SwitchPort port) {
        return links.stream().anyMatch(l -> l.src().equals(port) || l.dst().equals(port));
    }

    @Override
    public Set<Link> unidirectionalLinks() {
        return links.stream().filter(l -> !links.contains(l.reverse())).collect(Collectors.toSet());
    }

    @Override
    public Set<Set<DatapathId>> islands() {
        throw new UnsupportedOperationException("routing must not need islands");
    }

    @Override
    public Set<DatapathId> islandOf(DatapathId dpid) {
        throw new UnsupportedOperationException("routing must not need islands");
    }

    @Override
    public Set<OFPort> broadcastTreePorts(DatapathId dpid) {
        throw new UnsupportedOperationException("routing must not need broadcast trees");
    }

    @Override
    public boolean isBroadcastAllowed(SwitchPort port) {
        throw new UnsupportedOperationException("routing must not need broadcast trees");
    }
}
