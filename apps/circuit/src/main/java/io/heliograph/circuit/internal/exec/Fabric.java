package io.heliograph.circuit.internal.exec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * Where a schedule runs: the circuit switch, and for each rack (rack r is circuit port r of the
 * schedule) its ToR switch, the circuit switch's port that reaches that ToR, and the ToR's two uplinks,
 * to the packet switch and to the circuit switch.
 *
 * <p>As text, {@code ;}-separated {@code key=value} parts, spaces ignored:
 * <pre>
 * circuit=00:00:00:00:00:00:00:09; rack0=00:00:00:00:00:00:00:01/1/2/3; rack1=00:00:00:00:00:00:00:02/2/2/3
 * </pre>
 * {@code rackN=TOR/CIRCUIT_PORT/PACKET_UPLINK/CIRCUIT_UPLINK}: the ToR's datapath id, the circuit
 * switch's port for rack N, and the ToR's packet and circuit uplink ports. A datapath id is written as
 * the controller prints it (8 colon-separated hex bytes) or as a decimal number. The racks are 0 to N-1
 * with none missing, in any order; every rack has its own ToR and its own circuit port.
 */
public record Fabric(DatapathId circuitSwitch, List<Fabric.Rack> racks) {

    /** One rack: its ToR, the circuit switch's port to it, and its packet and circuit uplinks (ToR ports). */
    public record Rack(DatapathId tor, int circuitSwitchPort, int torPacketUplink, int torCircuitUplink) {
        public Rack {
            Objects.requireNonNull(tor, "tor");
            requirePort(circuitSwitchPort, "circuitSwitchPort");
            requirePort(torPacketUplink, "torPacketUplink");
            requirePort(torCircuitUplink, "torCircuitUplink");
            if (torPacketUplink == torCircuitUplink) {
                throw new IllegalArgumentException("the packet and circuit uplinks are both port " + torPacketUplink);
            }
        }

        @Override
        public String toString() {
            return tor + "/" + circuitSwitchPort + "/" + torPacketUplink + "/" + torCircuitUplink;
        }
    }

    public Fabric {
        Objects.requireNonNull(circuitSwitch, "circuitSwitch");
        racks = List.copyOf(racks);
        if (racks.size() < 2) {
            throw new IllegalArgumentException("a fabric has at least 2 racks, not " + racks.size());
        }
        Set<Integer> ports = new HashSet<>();
        Set<DatapathId> tors = new HashSet<>();
        for (int r = 0; r < racks.size(); r++) {
            Rack rack = racks.get(r);
            if (!ports.add(rack.circuitSwitchPort())) {
                throw new IllegalArgumentException("rack" + r + ": circuit port " + rack.circuitSwitchPort()
                        + " is another rack's too");
            }
            if (!tors.add(rack.tor())) {
                throw new IllegalArgumentException("rack" + r + ": ToR " + rack.tor() + " is another rack's too");
            }
            if (rack.tor().equals(circuitSwitch)) {
                throw new IllegalArgumentException("rack" + r + ": its ToR is the circuit switch " + circuitSwitch);
            }
        }
    }

    private static void requirePort(int port, String name) {
        if (port < 1) {
            throw new IllegalArgumentException(name + " must be a physical port number (1 or more), not " + port);
        }
    }

    /** How many racks: the schedule's ports. */
    public int size() {
        return racks.size();
    }

    public Rack rack(int r) {
        return racks.get(r);
    }

    /**
     * Reads the text form (see the class). Every problem is an {@link IllegalArgumentException} naming
     * the part at fault, e.g. {@code rack1: "00:..:02/1/2" is not TOR/CIRCUIT_PORT/PACKET_UPLINK/CIRCUIT_UPLINK}.
     */
    public static Fabric parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("an empty fabric: expected circuit=DPID; rack0=TOR/CIRCUIT_PORT/"
                    + "PACKET_UPLINK/CIRCUIT_UPLINK; rack1=...");
        }
        DatapathId circuit = null;
        TreeMap<Integer, Rack> racks = new TreeMap<>();
        for (String raw : text.split(";")) {
            String part = raw.strip();
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("\"" + part + "\": expected key=value (circuit=... or rackN=...)");
            }
            String key = part.substring(0, eq).strip();
            String value = part.substring(eq + 1).strip();
            if (key.equals("circuit")) {
                if (circuit != null) {
                    throw new IllegalArgumentException("circuit: given twice");
                }
                circuit = datapathId(value, "circuit");
            } else if (key.matches("rack\\d{1,6}")) {
                int r = Integer.parseInt(key.substring(4));
                if (racks.containsKey(r)) {
                    throw new IllegalArgumentException(key + ": given twice");
                }
                racks.put(r, rack(key, value));
            } else {
                throw new IllegalArgumentException("\"" + key + "\": unknown part (known: circuit, rack0, rack1, ...)");
            }
        }
        if (circuit == null) {
            throw new IllegalArgumentException("circuit: missing (circuit=DPID of the circuit switch)");
        }
        List<Rack> ordered = new ArrayList<>();
        for (int r = 0; r < racks.size(); r++) {
            Rack rack = racks.get(r);
            if (rack == null) {
                throw new IllegalArgumentException("rack" + r + ": missing (the racks are 0 to N-1; rack"
                        + racks.lastKey() + " is given)");
            }
            ordered.add(rack);
        }
        return new Fabric(circuit, ordered);
    }

    private static Rack rack(String key, String value) {
        String[] fields = value.split("/", -1);
        if (fields.length != 4) {
            throw new IllegalArgumentException(key + ": \"" + value + "\" is not TOR/CIRCUIT_PORT/PACKET_UPLINK/CIRCUIT_UPLINK");
        }
        DatapathId tor = datapathId(fields[0].strip(), key + " ToR");
        int circuitPort = port(fields[1], key + " circuit port");
        int packetUplink = port(fields[2], key + " packet uplink");
        int circuitUplink = port(fields[3], key + " circuit uplink");
        try {
            return new Rack(tor, circuitPort, packetUplink, circuitUplink);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }

    private static int port(String text, String what) {
        try {
            int port = Integer.parseInt(text.strip());
            if (port >= 1) {
                return port;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(what + ": \"" + text.strip() + "\" is not a port number (1 or more)");
    }

    private static DatapathId datapathId(String text, String what) {
        try {
            if (text.matches("\\d{1,19}")) {
                return DatapathId.of(Long.parseLong(text));
            }
            if (text.matches("([0-9A-Fa-f]{2}:){7}[0-9A-Fa-f]{2}")) {
                return DatapathId.of(text);
            }
        } catch (RuntimeException e) {
            // said below
        }
        throw new IllegalArgumentException(what + ": \"" + text + "\" is not a datapath id (00:00:00:00:00:00:00:09"
                + " or a decimal number)");
    }

    /** The text form {@link #parse} reads. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("circuit=").append(circuitSwitch);
        for (int r = 0; r < racks.size(); r++) {
            s.append("; rack").append(r).append('=').append(racks.get(r));
        }
        return s.toString();
    }
}
