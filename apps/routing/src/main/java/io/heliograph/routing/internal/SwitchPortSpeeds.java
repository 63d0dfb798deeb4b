package io.heliograph.routing.internal;

import org.projectfloodlight.openflow.protocol.OFPortDesc;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.SwitchService;

/** Port speeds from the port tables of the connected switches. */
final class SwitchPortSpeeds implements PortSpeeds {

    private final SwitchService switches;

    SwitchPortSpeeds(SwitchService switches) {
        this.switches = switches;
    }

    @Override
    public long bitsPerSecond(SwitchPort port) {
        OFSwitch sw = switches.getSwitch(port.dpid());
        OFPortDesc desc = sw == null ? null : sw.getPort(port.port());
        return desc == null ? 0 : PortSpeedReader.bitsPerSecond(desc);
    }
}
