package io.heliograph.core.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;

class ArpTest {

    @Test
    void requestFields() {
        Arp arp = Ethernet.wrap(Frames.arpRequest()).arp();

        assertTrue(arp.isValid());
        assertEquals(Arp.REQUEST, arp.opcode());
        assertEquals(Frames.MAC_A, arp.senderHardwareAddress());
        assertEquals(MacAddress.of(Frames.MAC_A), arp.senderMac());
        assertEquals(IPv4Address.of("10.0.0.1"), arp.senderIp());
        assertEquals(0, arp.targetHardwareAddress());
        assertEquals(Frames.IP_B, arp.targetProtocolAddress());
        assertEquals(IPv4Address.of("10.0.0.2"), arp.targetIp());
        assertEquals(28, arp.headerLength());
        assertEquals(0, arp.payloadLength(), "the rest of the frame is padding");
    }

    @Test
    void notParseable() {
        byte[] frame = Frames.arpRequest();
        assertProblem(Arrays.copyOf(frame, 14 + 7), "ARP: 7 bytes, the fixed part needs 8");
        assertProblem(Arrays.copyOf(frame, 14 + 27), "ARP: 27 bytes, an Ethernet/IPv4 ARP packet needs 28");
        byte[] ipv6 = frame.clone();
        ipv6[14 + 2] = (byte) 0x86;
        ipv6[14 + 3] = (byte) 0xdd;
        ipv6[14 + 5] = 16;
        assertProblem(ipv6, "ARP: only Ethernet/IPv4 is parsed, this is hardware type 1 (length 6), "
                + "protocol 0x86dd (length 16)");
    }

    private static void assertProblem(byte[] frame, String problem) {
        Arp arp = Ethernet.wrap(frame).arp();
        assertFalse(arp.isValid());
        assertEquals(problem, arp.problem());
        assertEquals(0, arp.opcode());
        assertEquals(0, arp.senderProtocolAddress());
    }
}
