package io.heliograph.core.packet;

import static io.heliograph.core.packet.Frames.MAC_A;
import static io.heliograph.core.packet.Frames.MAC_B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.MacAddress;

class EthernetTest {

    @Test
    void untaggedFrame() {
        Ethernet eth = Ethernet.wrap(Frames.udp());

        assertTrue(eth.isValid());
        assertNull(eth.problem());
        assertEquals(MAC_B, eth.destination());
        assertEquals(MAC_A, eth.source());
        assertEquals(MacAddress.of("02:00:00:00:00:0a"), eth.sourceMac());
        assertEquals(MacAddress.of("02:00:00:00:00:0b"), eth.destinationMac());
        assertEquals(Ethernet.TYPE_IPV4, eth.etherType());
        assertEquals(0, eth.vlanTagCount());
        assertEquals(Ethernet.NO_VLAN, eth.vlanId());
        assertEquals(Ethernet.NO_VLAN, eth.innerVlanId());
        assertEquals(0, eth.vlanPcp());
        assertEquals(14, eth.headerLength());
        assertEquals(14, eth.payloadOffset());
        assertFalse(eth.isMulticastDestination());
        assertFalse(eth.isBroadcastDestination());
    }

    @Test
    void singleVlanTag() {
        Ethernet eth = Ethernet.wrap(Frames.vlanTcp());

        assertEquals(1, eth.vlanTagCount());
        assertEquals(10, eth.vlanId());
        assertEquals(5, eth.vlanPcp());
        assertFalse(eth.vlanDei(0));
        assertEquals(Ethernet.TYPE_VLAN, eth.vlanTagProtocol(0));
        assertEquals(Ethernet.NO_VLAN, eth.innerVlanId());
        assertEquals(Ethernet.TYPE_IPV4, eth.etherType());
        assertEquals(18, eth.payloadOffset());
        assertTrue(eth.ipv4().isValid());
    }

    @Test
    void qinqTagsAreSkippedOuterFirst() {
        byte[] frame = new Bytes().u48(MAC_B).u48(MAC_A)
                .u16(Ethernet.TYPE_QINQ).u16(3 << 13 | 0x10 << 8 | 100)  // S-tag: pcp 3, DEI, vlan 100
                .u16(Ethernet.TYPE_VLAN).u16(1 << 13 | 200)                // C-tag: pcp 1, vlan 200
                .u16(Ethernet.TYPE_ARP).bytes(java.util.Arrays.copyOfRange(Frames.arpRequest(), 14, 60)).build();

        Ethernet eth = Ethernet.wrap(frame);

        assertEquals(2, eth.vlanTagCount());
        assertEquals(100, eth.vlanId());
        assertEquals(3, eth.vlanPcp());
        assertTrue(eth.vlanDei(0));
        assertEquals(Ethernet.TYPE_QINQ, eth.vlanTagProtocol(0));
        assertEquals(200, eth.innerVlanId());
        assertEquals(1, eth.vlanPcp(1));
        assertEquals(Ethernet.TYPE_ARP, eth.etherType());
        assertEquals(22, eth.payloadOffset());
        assertEquals(Frames.IP_B, eth.arp().targetProtocolAddress());
    }

    @Test
    void groupAddresses() {
        Ethernet broadcast = Ethernet.wrap(Frames.arpRequest());
        Ethernet multicast = Ethernet.wrap(Frames.neighborSolicitation());

        assertTrue(broadcast.isBroadcastDestination());
        assertTrue(broadcast.isMulticastDestination());
        assertTrue(multicast.isMulticastDestination());
        assertFalse(multicast.isBroadcastDestination());
        assertTrue(Ethernet.isMulticast(0x0180_c200_000eL));
        assertFalse(Ethernet.isMulticast(0x0200_0000_0001L));
    }

    @Test
    void onlyTheMatchingUpperLayerIsOffered() {
        Ethernet eth = Ethernet.wrap(Frames.udp());

        assertNull(eth.ipv6());
        assertNull(eth.arp());
        assertNull(eth.lldp());
        assertSame(eth.ipv4(), eth.ipv4(), "the view is made once and cached");
    }

    @Test
    void an8023LengthFrameHasNoUpperLayer() {
        byte[] llc = new Bytes().u48(0x0180_c200_0000L).u48(MAC_A).u16(38).u8(0x42, 0x42, 0x03).zeros(35).build();

        Ethernet eth = Ethernet.wrap(llc);

        assertTrue(eth.isValid());
        assertEquals(38, eth.etherType());
        assertNull(eth.ipv4());
        assertNull(eth.lldp());
    }

    @Test
    void aFrameInsideALargerArray() {
        byte[] frame = Frames.ping();
        byte[] larger = new Bytes().zeros(7).bytes(frame).zeros(5).build();

        Ethernet eth = Ethernet.wrap(larger, 7, frame.length);

        assertEquals(MAC_A, eth.source());
        assertEquals(7, eth.offset());
        assertEquals(0x77, eth.ipv4().icmp().identifier());
        assertEquals(frame.length - 14, eth.payloadLength());
    }

    @Test
    void aRangeOutsideTheArrayIsTheCallersBug() {
        assertThrows(IndexOutOfBoundsException.class, () -> Ethernet.wrap(new byte[20], 10, 11));
        assertThrows(IndexOutOfBoundsException.class, () -> Ethernet.wrap(new byte[20], -1, 5));
    }

    @Test
    void noDataIsNotParseable() {
        Ethernet eth = Ethernet.wrap(null);

        assertFalse(eth.isValid());
        assertEquals("Ethernet: no packet data", eth.problem());
        assertEquals(0, eth.source());
        assertNull(eth.ipv4());
    }

    @Test
    void aShortFrameIsNotParseableAndReadsAsZero() {
        Ethernet eth = Ethernet.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x08});

        assertFalse(eth.isValid());
        assertEquals("Ethernet: 13 bytes, the header needs 14", eth.problem());
        assertEquals(0, eth.destination());
        assertEquals(0, eth.etherType());
        assertEquals(Ethernet.NO_VLAN, eth.vlanId());
        assertNull(eth.ipv4());
    }

    @Test
    void aCutOffVlanTagIsNotParseable() {
        byte[] frame = java.util.Arrays.copyOf(Frames.vlanTcp(), 17);

        Ethernet eth = Ethernet.wrap(frame);

        assertFalse(eth.isValid());
        assertEquals("Ethernet: VLAN tag 1 is cut off at byte 17", eth.problem());
    }

    @Test
    void tagsAllTheWayToTheEndAreNotParseable() {
        Bytes b = new Bytes().u48(MAC_B).u48(MAC_A);
        for (int i = 0; i < 20; i++) {
            b.u16(Ethernet.TYPE_VLAN).u16(i);
        }
        Ethernet eth = Ethernet.wrap(b.build());

        assertFalse(eth.isValid());
        assertTrue(eth.problem().startsWith("Ethernet: VLAN tag 20 is cut off"), eth.problem());
    }
}
