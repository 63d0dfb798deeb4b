package io.heliograph.routing.internal;

import java.util.function.Supplier;

import org.projectfloodlight.openflow.protocol.OFPortDesc;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.SwitchService;

/** Port speeds from the port tables of the connected switches. */
final class SwitchPortSpeeds implements PortSpeeds {

    private final Supplier<SwitchService> switches;

    /** The supplier gives null while no switch service is bound: every speed is then unknown. */
    SwitchPortSpeeds(Supplier<SwitchService> switches) {
        this.switches = switches;
    }

    @Override
    public long bitsPerSecond(SwitchPort port) {
        SwitchService service = switches.get();
        OFSwitch sw = service == null ? null : service.getSwitch(port.dpid());
        OFPortDesc desc = sw == null ? null : sw.getPort(port.port());
        return desc == null ? 0 : PortSpeedReader.bitsPerSecond(desc);
    }
}
