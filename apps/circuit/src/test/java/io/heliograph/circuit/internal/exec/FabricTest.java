package io.heliograph.circuit.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;

class FabricTest {

    private static final String TEXT = "circuit=00:00:00:00:00:00:00:09; rack0=00:00:00:00:00:00:00:01/1/2/3;"
            + " rack1=00:00:00:00:00:00:00:02/2/2/3;rack3 = 4/4/1/2; rack2=00:00:00:00:00:00:00:03/3/2/3;";

    @Test
    void readsTheTextFormAndWritesItBack() {
        Fabric f = Fabric.parse(TEXT);
        assertEquals(DatapathId.of(9), f.circuitSwitch());
        assertEquals(4, f.size());
        assertEquals(new Fabric.Rack(DatapathId.of(1), 1, 2, 3), f.rack(0));
        assertEquals(new Fabric.Rack(DatapathId.of(4), 4, 1, 2), f.rack(3), "racks in any order, decimal dpids");
        assertEquals(f, Fabric.parse(f.toString()));
        assertTrue(f.toString().startsWith("circuit=00:00:00:00:00:00:00:09; rack0=00:00:00:00:00:00:00:01/1/2/3"));
    }

    @Test
    void eachProblemIsRefusedNamingItsPart() {
        refused("", "an empty fabric");
        refused("rack0=1/1/2/3; rack1=2/2/2/3", "circuit: missing");
        refused("circuit=9; circuit=8; rack0=1/1/2/3; rack1=2/2/2/3", "circuit: given twice");
        refused("circuit=00:09; rack0=1/1/2/3; rack1=2/2/2/3", "circuit: \"00:09\" is not a datapath id");
        refused("circuit=9; rack0=1/1/2/3; rack1=2/2/2", "rack1: \"2/2/2\" is not TOR/CIRCUIT_PORT/PACKET_UPLINK/CIRCUIT_UPLINK");
        refused("circuit=9; rack0=1/1/2/3; rack1=x/2/2/3", "rack1 ToR: \"x\" is not a datapath id");
        refused("circuit=9; rack0=1/1/2/3; rack1=2/0/2/3", "rack1 circuit port: \"0\" is not a port number");
        refused("circuit=9; rack0=1/1/2/3; rack1=2/2/b/3", "rack1 packet uplink: \"b\" is not a port number");
        refused("circuit=9; rack0=1/1/2/3; rack1=2/2/2/-3", "rack1 circuit uplink: \"-3\" is not a port number");
        refused("circuit=9; rack0=1/1/2/2; rack1=2/2/2/3", "rack0: the packet and circuit uplinks are both port 2");
        refused("circuit=9; rack0=1/1/2/3; rack2=2/2/2/3", "rack1: missing");
        refused("circuit=9; rack0=1/1/2/3; rack0=2/2/2/3", "rack0: given twice");
        refused("circuit=9; rack0=1/1/2/3; rack1=2/1/2/3", "rack1: circuit port 1 is another rack's too");
        refused("circuit=9; rack0=1/1/2/3; rack1=1/2/2/3", "rack1: ToR 00:00:00:00:00:00:00:01 is another rack's too");
        refused("circuit=9; rack0=9/1/2/3; rack1=2/2/2/3", "rack0: its ToR is the circuit switch");
        refused("circuit=9; rack0=1/1/2/3", "at least 2 racks");
        refused("circuit=9; rack0=1/1/2/3; racks=2/2/2/3", "\"racks\": unknown part");
        refused("circuit=9; rack0 1/1/2/3", "\"rack0 1/1/2/3\": expected key=value");
    }

    private static void refused(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Fabric.parse(text));
        assertTrue(e.getMessage().contains(expected), "\"" + e.getMessage() + "\" should contain \"" + expected + "\"");
    }
}
