package io.heliograph.topology;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * One change to the topology. {@code link} is set for LINK_* events, {@code dpid} for SWITCH_*
 * events; {@code topology} is the snapshot after the change.
 */
public record TopologyEvent(Type type, Link link, DatapathId dpid, Topology topology) {

    public enum Type { LINK_ADDED, LINK_UPDATED, LINK_REMOVED, SWITCH_ADDED, SWITCH_REMOVED }
}
