package io.heliograph.forwarding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.OFVlanVidMatch;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.packet.Ethernet;

/** What a flow matches, per granularity and OpenFlow version, with every prerequisite. */
class FlowHeadersTest {

    static final long A = 0x0200_0000_000aL;
    static final long B = 0x0200_0000_000bL;

    /** Ethernet (optionally 802.1Q-tagged), IPv4 with the given flags/offset word, UDP 5353 -> 53. */
    static byte[] udp4(int vlan, int flagsAndOffset) {
        ByteBuffer b = ByteBuffer.allocate(64);
        b.putShort((short) (B >>> 32)).putInt((int) B).putShort((short) (A >>> 32)).putInt((int) A);
        if (vlan >= 0) {
            b.putShort((short) 0x8100).putShort((short) vlan);
        }
        b.putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) 28).putShort((short) 7).putShort((short) flagsAndOffset)
                .put((byte) 64).put((byte) 17).putShort((short) 0)
                .putInt(IPv4Address.of("10.0.0.10").getInt()).putInt(IPv4Address.of("10.0.0.11").getInt());
        b.putShort((short) 5353).putShort((short) 53).putShort((short) 8).putShort((short) 0);
        return b.array();
    }

    /** Ethernet, IPv6, TCP 1000 -> 22. */
    static byte[] tcp6() {
        ByteBuffer b = ByteBuffer.allocate(14 + 40 + 20);
        b.putShort((short) (B >>> 32)).putInt((int) B).putShort((short) (A >>> 32)).putInt((int) A)
                .putShort((short) 0x86dd);
        b.putInt(0x6000_0000).putShort((short) 20).put((byte) 6).put((byte) 64);
        b.put(IPv6Address.of("fd00::a").getBytes()).put(IPv6Address.of("fd00::b").getBytes());
        b.putShort((short) 1000).putShort((short) 22).putInt(1).putInt(0).put((byte) 0x50).put((byte) 0x02)
                .putShort((short) 100).putInt(0);
        return b.array();
    }

    private static Match match(OFVersion version, FlowHeaders h) {
        return h.toMatch(OFFactories.getFactory(version), OFPort.of(4));
    }

    @Test
    void udpAtTransportGranularityOnEveryVersion() {
        FlowHeaders h = FlowHeaders.of(Ethernet.wrap(udp4(-1, 0)), MatchGranularity.TRANSPORT);
        for (OFVersion v : new OFVersion[] {OFVersion.OF_10, OFVersion.OF_13, OFVersion.OF_15}) {
            Match m = match(v, h);
            assertEquals(EthType.IPv4, m.get(MatchField.ETH_TYPE), v.toString());
            assertEquals(IpProtocol.UDP, m.get(MatchField.IP_PROTO));
            assertEquals(TransportPort.of(5353), m.get(MatchField.UDP_SRC));
            assertEquals(TransportPort.of(53), m.get(MatchField.UDP_DST));
        }
    }

    @Test
    void aTaggedFrameMatchesItsVlan() {
        FlowHeaders h = FlowHeaders.of(Ethernet.wrap(udp4(10, 0)), MatchGranularity.MAC);
        assertEquals(VlanVid.ofVlan(10), h.vlan());
        assertEquals(OFVlanVidMatch.ofVlan(10), match(OFVersion.OF_13, h).get(MatchField.VLAN_VID));
        assertEquals(OFVlanVidMatch.ofVlan(10), match(OFVersion.OF_10, h).get(MatchField.VLAN_VID));
    }

    @Test
    void fragmentsMatchByAddressesSoAllOfADatagramSharesAFlow() {
        FlowHeaders first = FlowHeaders.of(Ethernet.wrap(udp4(-1, 0x2000)), MatchGranularity.TRANSPORT);
        FlowHeaders later = FlowHeaders.of(Ethernet.wrap(udp4(-1, 0x0010)), MatchGranularity.TRANSPORT);
        assertEquals(first, later);
        assertNull(first.ipProtocol());
        assertEquals(IPv4Address.of("10.0.0.10"), first.ipv4Source());
    }

    @Test
    void ipv6IsMatchedFrom13OnAndByEtherTypeAloneOn10() {
        FlowHeaders h = FlowHeaders.of(Ethernet.wrap(tcp6()), MatchGranularity.TRANSPORT);
        Match m13 = match(OFVersion.OF_13, h);
        assertEquals(EthType.IPv6, m13.get(MatchField.ETH_TYPE));
        assertEquals(IPv6Address.of("fd00::a"), m13.get(MatchField.IPV6_SRC));
        assertEquals(IpProtocol.TCP, m13.get(MatchField.IP_PROTO));
        assertEquals(TransportPort.of(22), m13.get(MatchField.TCP_DST));
        Match m10 = match(OFVersion.OF_10, h);
        assertEquals(EthType.IPv6, m10.get(MatchField.ETH_TYPE));
        assertNull(m10.get(MatchField.IP_PROTO));
    }

    @Test
    void theReverseSwapsEveryEndAndHashesTheSame() {
        FlowHeaders h = FlowHeaders.of(Ethernet.wrap(tcp6()), MatchGranularity.TRANSPORT);
        FlowHeaders r = h.reversed();
        assertEquals(h.ethSource(), r.ethDestination());
        assertEquals(h.ipv6Source(), r.ipv6Destination());
        assertEquals(h.sourcePort(), r.destinationPort());
        assertEquals(h, r.reversed());
        assertEquals(h.flowHash(), r.flowHash());
        FlowHeaders other = FlowHeaders.of(Ethernet.wrap(udp4(-1, 0)), MatchGranularity.TRANSPORT);
        assertNotEquals(h.flowHash(), other.flowHash());
    }
}
