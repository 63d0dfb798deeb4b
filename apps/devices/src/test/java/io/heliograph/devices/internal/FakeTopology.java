package io.heliograph.devices.internal;

import java.util.HashSet;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyService;

/** A topology service whose links the test sets; only what device tracking asks is answered. */
final class FakeTopology implements TopologyService, Topology {

    private final Set<Link> links = new HashSet<>();

    void add(Link link) {
        links.add(link);
    }

    @Override
    public Topology getTopology() {
        return this;
    }

    @Override
    public long version() {
        return links.size();
    }

    @Override
    public Set<DatapathId> switches() {
        return Set.of();
    }

    @Override
    public Set<Link> links() {
        return Set.copyOf(links);
    }

    @Override
    public Set<Link> linksFrom(DatapathId dpid) {
        return Set.of();
    }

    @Override
    public boolean isInterSwitchPort(SwitchPort port) {
        return links.stream().anyMatch(link -> link.src().equals(port) || link.dst().equals(port));
    }

    @Override
    public Set<Link> unidirectionalLinks() {
        return Set.of();
    }

    @Override
    public Set<Set<DatapathId>> islands() {
        return Set.of();
    }

    @Override
    public Set<DatapathId> islandOf(DatapathId dpid) {
        return Set.of();
    }

    @Override
    public Set<OFPort> broadcastTreePorts(DatapathId dpid) {
        return Set.of();
    }

    @Override
    public boolean isBroadcastAllowed(SwitchPort port) {
        return true;
    }
}
