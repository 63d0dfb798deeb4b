package io.heliograph.forwarding.internal;

import java.util.Arrays;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.OFVlanVidMatch;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.packet.Ethernet;
import io.heliograph.core.packet.Ipv4;
import io.heliograph.core.packet.Ipv6;
import io.heliograph.core.packet.Tcp;
import io.heliograph.core.packet.Udp;

/**
 * The header fields a forwarding flow matches besides in_port, independent of OpenFlow version:
 * a field left null is wildcarded. Every field set has its prerequisites set too (eth_type before IP
 * addresses, ip_proto before ports), so a switch never refuses the flow for a missing prerequisite.
 *
 * @param vlan   the VLAN id of a tagged frame, null when untagged (untagged flows do not match the VLAN)
 * @param ethType null at MAC granularity
 * @param ipv4Source   with ipv4Destination, set for IPv4 at IP granularity and finer
 * @param ipv6Source   with ipv6Destination, set for IPv6 at IP granularity and finer (dropped on OpenFlow 1.0)
 * @param ipProtocol   with the ports, set at TRANSPORT granularity for a packet that carries that header
 */
record FlowHeaders(MacAddress ethSource, MacAddress ethDestination, VlanVid vlan, EthType ethType,
        IPv4Address ipv4Source, IPv4Address ipv4Destination, IPv6Address ipv6Source, IPv6Address ipv6Destination,
        IpProtocol ipProtocol, TransportPort sourcePort, TransportPort destinationPort) {

    /** The fields of this frame that {@code granularity} matches. The frame must be valid. */
    static FlowHeaders of(Ethernet frame, MatchGranularity granularity) {
        MacAddress src = frame.sourceMac();
        MacAddress dst = frame.destinationMac();
        VlanVid vlan = frame.vlanId() == Ethernet.NO_VLAN ? null : VlanVid.ofVlan(frame.vlanId());
        if (granularity == MatchGranularity.MAC) {
            return new FlowHeaders(src, dst, vlan, null, null, null, null, null, null, null, null);
        }
        EthType type = EthType.of(frame.etherType());
        boolean transport = granularity == MatchGranularity.TRANSPORT;
        Ipv4 ip4 = frame.ipv4();
        if (ip4 != null && ip4.isValid()) {
            // A fragment other than the first has no ports; match every fragment by addresses alone so
            // the fragments of one datagram share one flow.
            if (!transport || ip4.isFragment()) {
                return new FlowHeaders(src, dst, vlan, type, ip4.sourceAddress(), ip4.destinationAddress(), null,
                        null, null, null, null);
            }
            IpProtocol protocol = IpProtocol.of((short) ip4.protocol());
            return withPorts(src, dst, vlan, type, ip4.sourceAddress(), ip4.destinationAddress(), null, null,
                    protocol, ip4.tcp(), ip4.udp());
        }
        Ipv6 ip6 = frame.ipv6();
        if (ip6 != null && ip6.isValid()) {
            if (!transport || ip6.isFragment()) {
                return new FlowHeaders(src, dst, vlan, type, null, null, ip6.sourceAddress(), ip6.destinationAddress(),
                        null, null, null);
            }
            IpProtocol protocol = IpProtocol.of((short) ip6.protocol());
            return withPorts(src, dst, vlan, type, null, null, ip6.sourceAddress(), ip6.destinationAddress(),
                    protocol, ip6.tcp(), ip6.udp());
        }
        return new FlowHeaders(src, dst, vlan, type, null, null, null, null, null, null, null);
    }

    private static FlowHeaders withPorts(MacAddress src, MacAddress dst, VlanVid vlan, EthType type, IPv4Address s4,
            IPv4Address d4, IPv6Address s6, IPv6Address d6, IpProtocol protocol, Tcp tcp, Udp udp) {
        TransportPort sp = null;
        TransportPort dp = null;
        if (tcp != null && tcp.isValid()) {
            sp = TransportPort.of(tcp.sourcePort());
            dp = TransportPort.of(tcp.destinationPort());
        } else if (udp != null && udp.isValid()) {
            sp = TransportPort.of(udp.sourcePort());
            dp = TransportPort.of(udp.destinationPort());
        }
        return new FlowHeaders(src, dst, vlan, type, s4, d4, s6, d6, protocol, sp, dp);
    }

    /** The same flow seen from the other end: sources and destinations swapped. */
    FlowHeaders reversed() {
        return new FlowHeaders(ethDestination, ethSource, vlan, ethType, ipv4Destination, ipv4Source, ipv6Destination,
                ipv6Source, ipProtocol, destinationPort, sourcePort);
    }

    /**
     * What a switch of this version can match of these headers: OpenFlow 1.0 has no IPv6 fields, so
     * its flow for an IPv6 packet stops at eth_type (coarser, still correct: it carries the same
     * host pair's IPv6 traffic the same way).
     */
    FlowHeaders supportedBy(OFVersion version) {
        if (version == OFVersion.OF_10 && ipv6Source != null) {
            return new FlowHeaders(ethSource, ethDestination, vlan, ethType, null, null, null, null, null, null, null);
        }
        return this;
    }

    /** The OpenFlow match: in_port plus these headers, in prerequisite order. */
    Match toMatch(OFFactory factory, OFPort inPort) {
        FlowHeaders h = supportedBy(factory.getVersion());
        Match.Builder m = factory.buildMatch()
                .setExact(MatchField.IN_PORT, inPort)
                .setExact(MatchField.ETH_SRC, h.ethSource)
                .setExact(MatchField.ETH_DST, h.ethDestination);
        if (h.vlan != null) {
            m.setExact(MatchField.VLAN_VID, OFVlanVidMatch.ofVlanVid(h.vlan));
        }
        if (h.ethType != null) {
            m.setExact(MatchField.ETH_TYPE, h.ethType);
        }
        if (h.ipv4Source != null) {
            m.setExact(MatchField.IPV4_SRC, h.ipv4Source).setExact(MatchField.IPV4_DST, h.ipv4Destination);
        }
        if (h.ipv6Source != null) {
            m.setExact(MatchField.IPV6_SRC, h.ipv6Source).setExact(MatchField.IPV6_DST, h.ipv6Destination);
        }
        if (h.ipProtocol != null) {
            m.setExact(MatchField.IP_PROTO, h.ipProtocol);
            if (h.sourcePort != null) {
                boolean tcp = h.ipProtocol.equals(IpProtocol.TCP);
                m.setExact(tcp ? MatchField.TCP_SRC : MatchField.UDP_SRC, h.sourcePort)
                        .setExact(tcp ? MatchField.TCP_DST : MatchField.UDP_DST, h.destinationPort);
            }
        }
        return m.build();
    }

    /**
     * A hash of the flow that is the same in every run and for both directions, so a connection's
     * packets (and its replies, should they miss) pick the same route among equal-cost ones.
     */
    long flowHash() {
        long a = mix(ethSource.getLong()) + mix(ethDestination.getLong());
        if (ipv4Source != null) {
            a += mix(ipv4Source.getInt()) + mix(ipv4Destination.getInt());
        }
        if (ipv6Source != null) {
            a += mix(Arrays.hashCode(ipv6Source.getBytes())) + mix(Arrays.hashCode(ipv6Destination.getBytes()));
        }
        if (sourcePort != null) {
            a += mix(sourcePort.getPort()) + mix(destinationPort.getPort());
        }
        long b = (ethType == null ? 0 : ethType.getValue()) * 31L + (ipProtocol == null ? 0 : ipProtocol.getIpProtocolNumber());
        return mix(a ^ mix(b));
    }

    /** SplitMix64's finaliser: every input bit moves about half the output bits. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d0_49bb_1331_11ebL;
        return z ^ (z >>> 31);
    }
}
