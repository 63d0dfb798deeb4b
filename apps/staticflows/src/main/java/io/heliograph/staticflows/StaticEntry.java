package io.heliograph.staticflows;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * An operator-defined entry for one switch: a flow entry, a group or a meter. Entries are named;
 * the name is unique per switch across all three kinds.
 */
public sealed interface StaticEntry permits FlowEntry, GroupEntry, MeterEntry {

    DatapathId dpid();

    String name();

    /** "flow", "group" or "meter": Floodlight's {@code entry_type} values, plus meters. */
    String kind();
}
