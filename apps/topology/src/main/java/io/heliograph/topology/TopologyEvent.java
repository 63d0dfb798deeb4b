package io.heliograph.topology;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * One change to the topology. {@code link} is set for LINK_* events, {@code dpid} for SWITCH_*
 * events; {@code topology} is the snapshot after the change (every event of one change carries the
 * same snapshot).
 *
 * <p>LINK_ADDED and LINK_REMOVED concern one direction of a cable. LINK_UPDATED says that a link's
 * reverse appeared or disappeared: the link became bidirectional, or stopped being so. A probe that
 * merely confirms a known link publishes nothing. A switch leaving gives LINK_REMOVED for each of
 * its links, then SWITCH_REMOVED, in one change.
 */
public record TopologyEvent(Type type, Link link, DatapathId dpid, Topology topology) {

    public enum Type { LINK_ADDED, LINK_UPDATED, LINK_REMOVED, SWITCH_ADDED, SWITCH_REMOVED }
}
