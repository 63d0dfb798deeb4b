package io.heliograph.topology.internal;

import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.types.OFPort;

/** Facts about ports that differ between OpenFlow versions, asked the same way. */
final class SwitchPorts {

    private SwitchPorts() {
    }

    /** A numbered port of the switch (not LOCAL, CONTROLLER or another reserved port). */
    static boolean isPhysical(OFPort port) {
        int number = port.getPortNumber();
        return number > 0 && Integer.compareUnsigned(number, OFPort.MAX.getPortNumber()) <= 0;
    }

    /** Up: the link is up and the port is not administratively down. */
    static boolean isUp(OFPortDesc port) {
        return port != null && !port.getState().contains(OFPortState.LINK_DOWN)
                && !port.getConfig().contains(OFPortConfig.PORT_DOWN);
    }

    /** A port probes may leave by and arrive at. */
    static boolean isProbeable(OFPortDesc port) {
        return port != null && isPhysical(port.getPortNo()) && isUp(port);
    }
}
