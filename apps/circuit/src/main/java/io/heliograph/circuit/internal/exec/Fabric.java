package io.heliograph.circuit.internal.exec;

import java.util.ArrayList;
import java.util.List;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.DatapathIds;

/**
 * STUB: replaced by the circuit-exec branch (its real Fabric). Only the contract the app codes against:
 * the circuit switch and, per rack r (circuit port r), its ToR and ports. This stub's text form, so the
 * app's configuration can be tested: {@code circuit=DPID; rack=TOR_DPID/CIRCUIT_PORT/PACKET_UPLINK/CIRCUIT_UPLINK; ...}.
 */
public record Fabric(DatapathId circuitSwitch, List<Fabric.Rack> racks) {

    public record Rack(DatapathId tor, int circuitSwitchPort, int torPacketUplink, int torCircuitUplink) {
    }

    public Fabric {
        racks = List.copyOf(racks);
    }

    /** STUB: a fabric from its text; IllegalArgumentException naming the bad part. */
    public static Fabric parse(String text) {
        DatapathId circuit = null;
        List<Rack> racks = new ArrayList<>();
        for (String part : text.split(";")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            try {
                if (p.startsWith("circuit=")) {
                    circuit = DatapathIds.parse(p.substring("circuit=".length()).strip());
                } else if (p.startsWith("rack=")) {
                    String[] f = p.substring("rack=".length()).strip().split("/");
                    if (f.length != 4) {
                        throw new IllegalArgumentException("a rack is TOR_DPID/CIRCUIT_PORT/PACKET_UPLINK/CIRCUIT_UPLINK");
                    }
                    racks.add(new Rack(DatapathIds.parse(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                            Integer.parseInt(f[3])));
                } else {
                    throw new IllegalArgumentException("expected circuit=DPID or rack=...");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("fabric: '" + p + "': " + e.getMessage(), e);
            }
        }
        if (circuit == null) {
            throw new IllegalArgumentException("fabric: no circuit=DPID");
        }
        if (racks.size() < 2) {
            throw new IllegalArgumentException("fabric: " + racks.size() + " racks, a circuit switch joins 2 or more");
        }
        return new Fabric(circuit, racks);
    }
}
