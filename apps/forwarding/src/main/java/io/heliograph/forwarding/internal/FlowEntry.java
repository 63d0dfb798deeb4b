package io.heliograph.forwarding.internal;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/**
 * One flow entry of an installed path, as we wrote it: enough to delete exactly it later.
 *
 * @param headers the headers as this switch's version matches them (see {@link FlowHeaders#supportedBy})
 * @param out     the port the entry sends its packets out of
 */
record FlowEntry(DatapathId dpid, OFPort inPort, FlowHeaders headers, int priority, U64 cookie, OFPort out) {

    /** What identifies the entry in the switch's table: a later add with the same key replaces it. */
    TableKey tableKey() {
        return new TableKey(dpid, inPort, headers, priority);
    }

    /** Whether {@code other} is this entry but for its cookie: the same place, sending to the same port. */
    boolean sameFlowAs(FlowEntry other) {
        return dpid.equals(other.dpid) && inPort.equals(other.inPort) && headers.equals(other.headers)
                && priority == other.priority && out.equals(other.out);
    }

    record TableKey(DatapathId dpid, OFPort inPort, FlowHeaders headers, int priority) {
    }
}
