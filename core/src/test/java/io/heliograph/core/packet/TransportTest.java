package io.heliograph.core.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** TCP, UDP and ICMP. */
class TransportTest {

    @Test
    void tcpFields() {
        Tcp tcp = Ethernet.wrap(Frames.vlanTcp()).ipv4().tcp();

        assertTrue(tcp.isValid());
        assertEquals(40000, tcp.sourcePort());
        assertEquals(80, tcp.destinationPort());
        assertEquals(0xfffffff0L, tcp.sequenceNumber());
        assertEquals(0x80000001L, tcp.acknowledgmentNumber());
        assertEquals(Tcp.SYN | Tcp.ACK, tcp.flags());
        assertTrue(tcp.isSyn());
        assertTrue(tcp.isAck());
        assertFalse(tcp.isFin());
        assertFalse(tcp.isRst());
        assertEquals(65535, tcp.window());
        assertEquals(0xabcd, tcp.checksum());
        assertEquals(7, tcp.urgentPointer());
        assertEquals(24, tcp.headerLength());
        assertEquals(4, tcp.optionsLength());
        assertEquals(2, Frames.vlanTcp()[tcp.optionsOffset()]);
        assertEquals(6, tcp.payloadLength());
        assertEquals(1, tcp.payload()[0]);
    }

    @Test
    void tcpNotParseable() {
        byte[] frame = Frames.vlanTcp();
        int tcpAt = 18 + 20;
        assertTcpProblem(Arrays.copyOf(frame, tcpAt + 19), "TCP: 19 bytes, the header needs at least 20");
        byte[] small = frame.clone();
        small[tcpAt + 12] = 0x40;
        assertTcpProblem(small, "TCP: data offset 16 is below the minimum 20");
        byte[] large = frame.clone();
        large[tcpAt + 12] = (byte) 0xf0;
        assertTcpProblem(large, "TCP: header length 60 exceeds the 30 bytes present");
    }

    private static void assertTcpProblem(byte[] frame, String problem) {
        Tcp tcp = Ethernet.wrap(frame).ipv4().tcp();
        assertFalse(tcp.isValid());
        assertEquals(problem, tcp.problem());
        assertEquals(0, tcp.destinationPort());
        assertFalse(tcp.isSyn());
    }

    @Test
    void udpFields() {
        Udp udp = Ethernet.wrap(Frames.udp()).ipv4().udp();

        assertEquals(5353, udp.sourcePort());
        assertEquals(53, udp.destinationPort());
        assertEquals(12, udp.length());
        assertEquals(0x5555, udp.checksum());
        assertEquals(4, udp.payloadLength());
        assertFalse(udp.isTruncated());
    }

    @Test
    void udpNotParseable() {
        byte[] frame = Frames.udp();
        Udp cut = Ethernet.wrap(Arrays.copyOf(frame, 14 + 20 + 7)).ipv4().udp();
        assertEquals("UDP: 7 bytes, the header needs 8", cut.problem());
        byte[] badLength = frame.clone();
        badLength[14 + 20 + 5] = 7;
        Udp bad = Ethernet.wrap(badLength).ipv4().udp();
        assertEquals("UDP: length field 7 is below the header size 8", bad.problem());
        assertEquals(0, bad.length());
    }

    @Test
    void icmpEcho() {
        Icmp icmp = Ethernet.wrap(Frames.ping()).ipv4().icmp();

        assertEquals(Icmp.ECHO_REQUEST, icmp.type());
        assertEquals(0, icmp.code());
        assertEquals(0x1111, icmp.checksum());
        assertEquals(0x77, icmp.identifier());
        assertEquals(3, icmp.sequenceNumber());
        assertEquals(0x0077_0003, icmp.restOfHeader());
        assertEquals(8, icmp.payloadLength());
        assertNull(Ethernet.wrap(Frames.ping()).ipv4().tcp());
    }

    @Test
    void icmpNotParseable() {
        Icmp icmp = Ethernet.wrap(Arrays.copyOf(Frames.ping(), 14 + 20 + 5)).ipv4().icmp();

        assertEquals("ICMP: 5 bytes, the header needs 8", icmp.problem());
        assertEquals(0, icmp.type());
    }

    @Test
    void icmpv6NotParseable() {
        Icmpv6 icmp = Ethernet.wrap(Arrays.copyOf(Frames.neighborSolicitation(), 14 + 40 + 3)).ipv6().icmpv6();

        assertEquals("ICMPv6: 3 bytes, the header needs 4", icmp.problem());
    }
}
