package io.heliograph.core.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.IPv4Address;

class Ipv4Test {

    @Test
    void headerFields() {
        Ipv4 ip = Ethernet.wrap(Frames.vlanTcp()).ipv4();

        assertTrue(ip.isValid());
        assertEquals(18, ip.offset());
        assertEquals(20, ip.headerLength());
        assertEquals(0, ip.optionsLength());
        assertEquals(0xb8 >>> 2, ip.dscp());
        assertEquals(0, ip.ecn());
        assertEquals(20 + 24 + 6, ip.totalLength());
        assertEquals(0x1234, ip.identification());
        assertTrue(ip.dontFragment());
        assertFalse(ip.moreFragments());
        assertFalse(ip.isFragment());
        assertEquals(64, ip.ttl());
        assertEquals(Ipv4.PROTOCOL_TCP, ip.protocol());
        assertTrue(ip.isChecksumValid());
        assertEquals(Frames.IP_A, ip.source());
        assertEquals(Frames.IP_B, ip.destination());
        assertEquals(IPv4Address.of("10.0.0.1"), ip.sourceAddress());
        assertEquals(IPv4Address.of("10.0.0.2"), ip.destinationAddress());
        assertEquals(30, ip.payloadLength());
        assertFalse(ip.isTruncated());
        assertNull(ip.udp());
        assertNull(ip.icmp());
    }

    @Test
    void optionsAreSkipped() {
        byte[] options = {(byte) 0x94, 4, 0, 0}; // router alert
        byte[] udp = Frames.udpHeader(1, 2, 0);
        byte[] frame = Frames.ethernet(1, 2, Ethernet.TYPE_IPV4)
                .bytes(Frames.ipv4Header(Ipv4.PROTOCOL_UDP, udp.length, 0, options)).bytes(udp).build();

        Ipv4 ip = Ethernet.wrap(frame).ipv4();

        assertEquals(24, ip.headerLength());
        assertEquals(4, ip.optionsLength());
        assertEquals(14 + 20, ip.optionsOffset());
        assertEquals((byte) 0x94, frame[ip.optionsOffset()]);
        assertTrue(ip.isChecksumValid());
        assertEquals(2, ip.udp().destinationPort());
        assertEquals(14 + 24, ip.udp().offset());
    }

    @Test
    void aCorruptedChecksumIsDetected() {
        byte[] frame = Frames.udp();
        frame[14 + 8]--; // ttl

        Ipv4 ip = Ethernet.wrap(frame).ipv4();

        assertTrue(ip.isValid(), "a bad checksum is reported, not a parse failure");
        assertFalse(ip.isChecksumValid());
    }

    @Test
    void firstFragmentCarriesTheTransportHeaderLaterOnesDoNot() {
        byte[] udp = Frames.udpHeader(1000, 2000, 100);
        byte[] first = Frames.ethernet(1, 2, Ethernet.TYPE_IPV4)
                .bytes(Frames.ipv4Header(Ipv4.PROTOCOL_UDP, 8 + 16, 0x2000, new byte[0])).bytes(udp).zeros(16).build();
        byte[] later = Frames.ethernet(1, 2, Ethernet.TYPE_IPV4)
                .bytes(Frames.ipv4Header(Ipv4.PROTOCOL_UDP, 24, 3, new byte[0])).zeros(24).build();

        Ipv4 firstIp = Ethernet.wrap(first).ipv4();
        Ipv4 laterIp = Ethernet.wrap(later).ipv4();

        assertTrue(firstIp.isFragment());
        assertTrue(firstIp.moreFragments());
        assertEquals(0, firstIp.fragmentOffset());
        assertEquals(2000, firstIp.udp().destinationPort());
        assertTrue(firstIp.udp().isTruncated(), "the UDP length covers all fragments");

        assertTrue(laterIp.isFragment());
        assertFalse(laterIp.moreFragments());
        assertEquals(24, laterIp.fragmentOffset());
        assertNull(laterIp.udp());
    }

    @Test
    void ethernetPaddingIsNotPayload() {
        byte[] frame = new Bytes().bytes(Frames.ping()).zeros(10).build();

        Ipv4 ip = Ethernet.wrap(frame).ipv4();

        assertEquals(16, ip.payloadLength());
        assertEquals(8, ip.icmp().payloadLength());
    }

    @Test
    void aPacketInCutShortBySwitchIsValidAndTruncated() {
        byte[] frame = Arrays.copyOf(Frames.vlanTcp(), 18 + 20 + 24 + 2);

        Ipv4 ip = Ethernet.wrap(frame).ipv4();

        assertTrue(ip.isValid());
        assertTrue(ip.isTruncated());
        assertEquals(26, ip.payloadLength());
        assertEquals(80, ip.tcp().destinationPort());
        assertEquals(2, ip.tcp().payloadLength());
    }

    @Test
    void notParseable() {
        assertProblem(header(0x45, 30).zeros(9).build(), "IPv4: 13 bytes, the header needs at least 20");
        assertProblem(header(0x65, 40).zeros(16).build(), "IPv4: version field is 6");
        assertProblem(header(0x44, 40).zeros(16).build(), "IPv4: header length 16 is below the minimum 20");
        assertProblem(header(0x4f, 80).zeros(16).build(), "IPv4: header length 60 exceeds the 20 bytes present");
        assertProblem(header(0x45, 19).zeros(16).build(), "IPv4: total length 19 is less than the header length 20");
    }

    private static Bytes header(int versionAndLength, int totalLength) {
        return Frames.ethernet(1, 2, Ethernet.TYPE_IPV4).u8(versionAndLength, 0).u16(totalLength);
    }

    private static void assertProblem(byte[] frame, String problem) {
        Ipv4 ip = Ethernet.wrap(frame).ipv4();
        assertNotNull(ip);
        assertFalse(ip.isValid());
        assertEquals(problem, ip.problem());
        assertEquals(0, ip.protocol());
        assertEquals(0, ip.source());
        assertNull(ip.tcp());
        assertNull(ip.udp());
    }
}
