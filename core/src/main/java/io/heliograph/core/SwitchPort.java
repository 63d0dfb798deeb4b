package io.heliograph.core;

import java.util.Objects;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

/**
 * A port on a switch: one end of a link, or where a host is attached. A key the apps look up on
 * every packet-in, so equality and hash are written out on the primitive values rather than left to
 * the record's generated methods, which the profile showed running through method handles.
 */
public record SwitchPort(DatapathId dpid, OFPort port) {

    public SwitchPort {
        Objects.requireNonNull(dpid, "dpid");
        Objects.requireNonNull(port, "port");
    }

    public static SwitchPort of(DatapathId dpid, OFPort port) {
        return new SwitchPort(dpid, port);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SwitchPort that && dpid.getLong() == that.dpid.getLong()
                && port.getPortNumber() == that.port.getPortNumber();
    }

    @Override
    public int hashCode() {
        return Long.hashCode((dpid.getLong() * 31 + port.getPortNumber()) * 0x9e37_79b9_7f4a_7c15L);
    }

    @Override
    public String toString() {
        return dpid + "/" + port.getPortNumber();
    }
}
