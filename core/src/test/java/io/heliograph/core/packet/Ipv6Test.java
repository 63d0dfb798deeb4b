package io.heliograph.core.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.IPv6Address;

class Ipv6Test {

    @Test
    void fixedHeaderFields() {
        Ipv6 ip = Ethernet.wrap(Frames.neighborSolicitation()).ipv6();

        assertTrue(ip.isValid());
        assertEquals(0x2a, ip.trafficClass());
        assertEquals(0x12345, ip.flowLabel());
        assertEquals(24, ip.payloadLengthField());
        assertEquals(Ipv6.PROTOCOL_ICMPV6, ip.nextHeader());
        assertEquals(Ipv6.PROTOCOL_ICMPV6, ip.protocol());
        assertEquals(255, ip.hopLimit());
        assertEquals(0, ip.extensionHeaderCount());
        assertEquals(40, ip.headerLength());
        assertEquals(IPv6Address.of("fe80::ff:fe00:a"), ip.sourceAddress());
        assertEquals(IPv6Address.of("2001:db8::2"), ip.destinationAddress());
        assertFalse(ip.isFragment());
        assertNull(ip.tcp());
        Icmpv6 icmp = ip.icmpv6();
        assertEquals(Icmpv6.NEIGHBOR_SOLICITATION, icmp.type());
        assertEquals(0, icmp.code());
        assertEquals(0x4242, icmp.checksum());
        assertEquals(20, icmp.payloadLength());
    }

    @Test
    void extensionHeadersAreSkippedToTheUpperLayer() {
        Ipv6 ip = Ethernet.wrap(Frames.ipv6ExtensionsUdp()).ipv6();

        assertTrue(ip.isValid(), ip.problem());
        assertEquals(Ipv6.HOP_BY_HOP, ip.nextHeader());
        assertEquals(4, ip.extensionHeaderCount());
        assertEquals(Ipv6.PROTOCOL_UDP, ip.protocol());
        assertEquals(40 + 8 + 16 + 8 + 8, ip.headerLength());
        assertTrue(ip.isFragment());
        assertTrue(ip.moreFragments());
        assertEquals(0, ip.fragmentOffset());
        assertEquals(0xcafe, ip.fragmentIdentification());
        Udp udp = ip.udp();
        assertEquals(546, udp.sourcePort());
        assertEquals(547, udp.destinationPort());
        assertEquals(14 + 80, udp.offset());
        assertEquals(4, udp.payloadLength());
    }

    @Test
    void aLaterFragmentHasNoTransportHeader() {
        byte[] frame = Frames.ipv6Header(Frames.ethernet(1, 2, Ethernet.TYPE_IPV6), Ipv6.FRAGMENT, 8 + 16)
                .u8(Ipv6.PROTOCOL_TCP, 0).u16(1448).u32(7).zeros(16).build();

        Ipv6 ip = Ethernet.wrap(frame).ipv6();

        assertTrue(ip.isFragment());
        assertEquals(1448, ip.fragmentOffset());
        assertFalse(ip.moreFragments());
        assertEquals(Ipv6.PROTOCOL_TCP, ip.protocol());
        assertNull(ip.tcp());
    }

    @Test
    void noNextHeaderAndEspStopTheWalk() {
        byte[] none = Frames.ipv6Header(Frames.ethernet(1, 2, Ethernet.TYPE_IPV6), Ipv6.NO_NEXT_HEADER, 0).build();
        byte[] esp = Frames.ipv6Header(Frames.ethernet(1, 2, Ethernet.TYPE_IPV6), Ipv6.DESTINATION_OPTIONS, 16)
                .u8(Ipv6.ESP, 0).zeros(6).u32(0x100).u32(1).build();

        assertEquals(Ipv6.NO_NEXT_HEADER, Ethernet.wrap(none).ipv6().protocol());
        Ipv6 ip = Ethernet.wrap(esp).ipv6();
        assertEquals(Ipv6.ESP, ip.protocol());
        assertEquals(48, ip.headerLength());
        assertEquals(8, ip.payloadLength());
    }

    @Test
    void aPayloadCutShortBySwitchIsValidAndTruncated() {
        byte[] frame = Arrays.copyOf(Frames.ipv6ExtensionsUdp(), 14 + 80 + 8 + 1);

        Ipv6 ip = Ethernet.wrap(frame).ipv6();

        assertTrue(ip.isValid());
        assertTrue(ip.isTruncated());
        assertTrue(ip.udp().isTruncated());
        assertEquals(1, ip.udp().payloadLength());
    }

    @Test
    void notParseable() {
        byte[] full = Frames.ipv6ExtensionsUdp();
        assertProblem(Arrays.copyOf(full, 14 + 39), "IPv6: 39 bytes, the header needs 40");
        byte[] v4 = full.clone();
        v4[14] = 0x40;
        assertProblem(v4, "IPv6: version field is 4");
        assertProblem(Arrays.copyOf(full, 14 + 40 + 8 + 5),
                "IPv6: routing header 2 at byte 48 is cut off (5 bytes left)");
        assertProblem(Arrays.copyOf(full, 14 + 40 + 8 + 12),
                "IPv6: routing header 2 at byte 48 claims 16 bytes, 12 left");
        byte[] shortDeclared = full.clone();
        shortDeclared[14 + 5] = 20; // the payload length says the chain ends inside the routing header
        assertProblem(shortDeclared, "IPv6: routing header 2 at byte 48 claims 16 bytes, 12 left");
    }

    private static void assertProblem(byte[] frame, String problem) {
        Ipv6 ip = Ethernet.wrap(frame).ipv6();
        assertFalse(ip.isValid());
        assertEquals(problem, ip.problem());
        assertEquals(0, ip.protocol());
        assertEquals(0, ip.sourceHigh());
        assertNull(ip.udp());
        assertFalse(ip.isFragment());
    }
}
