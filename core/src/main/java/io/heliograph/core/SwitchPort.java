package io.heliograph.core;

import java.util.Objects;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

/** A port on a switch: one end of a link, or where a host is attached. */
public record SwitchPort(DatapathId dpid, OFPort port) {

    public SwitchPort {
        Objects.requireNonNull(dpid, "dpid");
        Objects.requireNonNull(port, "port");
    }

    public static SwitchPort of(DatapathId dpid, OFPort port) {
        return new SwitchPort(dpid, port);
    }

    @Override
    public String toString() {
        return dpid + "/" + port.getPortNumber();
    }
}
