package io.heliograph.topology.internal;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;

/** What one of our LLDP frames says: it left {@code dpid}/{@code port} at {@code sentAtMs} (our clock). */
public record LldpProbe(DatapathId dpid, OFPort port, long sentAtMs) {

    public SwitchPort source() {
        return SwitchPort.of(dpid, port);
    }
}
