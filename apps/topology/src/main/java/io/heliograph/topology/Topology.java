package io.heliograph.topology;

import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;

/**
 * An immutable snapshot of the switch graph: switches, the links between them, the islands
 * (connected components, over links seen in both directions), and a loop-free broadcast tree per
 * island. A new snapshot is published on every change; readers never see a half-applied one.
 */
public interface Topology {

    /** A number that grows with every published change. */
    long version();

    Set<DatapathId> switches();

    /** Every discovered directed link, including unidirectional ones. */
    Set<Link> links();

    /** Links leaving this switch. */
    Set<Link> linksFrom(DatapathId dpid);

    /** True when a link starts or ends at this port: it faces another switch, not a host. */
    boolean isInterSwitchPort(SwitchPort port);

    /** Links seen in one direction only (a cable that carries frames one way, or a half-discovered link). */
    Set<Link> unidirectionalLinks();

    /** The connected components; each switch is in exactly one (a lone switch is an island of one). */
    Set<Set<DatapathId>> islands();

    /** The island containing this switch, or an empty set if the switch is unknown. */
    Set<DatapathId> islandOf(DatapathId dpid);

    /**
     * The inter-switch ports of this switch that are on its island's broadcast tree. A flood sent
     * out of these ports plus the switch's edge ports reaches every switch of the island once.
     */
    Set<OFPort> broadcastTreePorts(DatapathId dpid);

    /** True when a frame may be flooded out of (or accepted for flooding from) this port. */
    boolean isBroadcastAllowed(SwitchPort port);
}
