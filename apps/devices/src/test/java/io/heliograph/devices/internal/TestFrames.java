package io.heliograph.devices.internal;

import java.io.ByteArrayOutputStream;

import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.testing.TableMiss;

/** Frames built by hand, byte by byte from the RFC layouts, and the packet-ins that carry them. */
final class TestFrames {

    static final long BROADCAST = 0xffff_ffff_ffffL;
    static final long MAC_A = 0x0200_0000_000aL;
    static final long MAC_B = 0x0200_0000_000bL;
    static final long MAC_SERVER = 0x0200_0000_00feL;
    static final int IP_A = 0x0a00_0001; // 10.0.0.1
    static final int IP_B = 0x0a00_0002; // 10.0.0.2
    static final int IP_SERVER = 0x0a00_00fe;

    private TestFrames() {
    }

    /** A big-endian byte writer. */
    static final class Bytes {

        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes u8(int... values) {
            for (int v : values) {
                out.write(v);
            }
            return this;
        }

        Bytes u16(int v) {
            return u8(v >>> 8 & 0xff, v & 0xff);
        }

        Bytes u32(long v) {
            return u16((int) (v >>> 16) & 0xffff).u16((int) v & 0xffff);
        }

        Bytes u48(long v) {
            return u16((int) (v >>> 32) & 0xffff).u32(v & 0xffff_ffffL);
        }

        Bytes ipv6(IPv6Address a) {
            return bytes(a.getBytes());
        }

        Bytes bytes(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        Bytes zeros(int n) {
            return bytes(new byte[n]);
        }

        byte[] build() {
            return out.toByteArray();
        }
    }

    static Bytes ethernet(long dst, long src, int type) {
        return new Bytes().u48(dst).u48(src).u16(type);
    }

    /** An ARP packet for IPv4 over Ethernet. */
    static byte[] arp(long src, int opcode, long senderMac, int senderIp, long targetMac, int targetIp) {
        return ethernet(opcode == 1 ? BROADCAST : targetMac, src, 0x0806).u16(1).u16(0x0800).u8(6, 4).u16(opcode)
                .u48(senderMac).u32(senderIp & 0xffff_ffffL).u48(targetMac).u32(targetIp & 0xffff_ffffL).zeros(18)
                .build();
    }

    static byte[] arpRequest(long src, int senderIp, int targetIp) {
        return arp(src, 1, src, senderIp, 0, targetIp);
    }

    static byte[] withVlan(byte[] frame, int vlan) {
        Bytes b = new Bytes();
        b.bytes(java.util.Arrays.copyOfRange(frame, 0, 12)).u16(0x8100).u16(vlan);
        return b.bytes(java.util.Arrays.copyOfRange(frame, 12, frame.length)).build();
    }

    static byte[] ipv4Header(int protocol, int payloadLength, int srcIp, int dstIp) {
        return new Bytes().u8(0x45, 0).u16(20 + payloadLength).u16(1).u16(0x4000).u8(64, protocol).u16(0)
                .u32(srcIp & 0xffff_ffffL).u32(dstIp & 0xffff_ffffL).build();
    }

    /** An IPv4 UDP datagram in a frame. */
    static byte[] udp4(long dstMac, long srcMac, int srcIp, int dstIp, int srcPort, int dstPort, byte[] payload) {
        return ethernet(dstMac, srcMac, 0x0800).bytes(ipv4Header(17, 8 + payload.length, srcIp, dstIp))
                .u16(srcPort).u16(dstPort).u16(8 + payload.length).u16(0).bytes(payload).build();
    }

    /** An IPv4 ICMP echo request. */
    static byte[] ping4(long dstMac, long srcMac, int srcIp, int dstIp) {
        byte[] icmp = new Bytes().u8(8, 0).u16(0).u16(1).u16(1).zeros(8).build();
        return ethernet(dstMac, srcMac, 0x0800).bytes(ipv4Header(1, icmp.length, srcIp, dstIp)).bytes(icmp).build();
    }

    /**
     * A DHCP message (RFC 2131): BOOTP fixed part, magic cookie, message type option, optionally a
     * requested address option, end.
     */
    static byte[] dhcp(int op, long clientMac, int ciaddr, int yiaddr, int messageType, int requested) {
        Bytes b = new Bytes().u8(op, 1, 6, 0).u32(0x1234_5678).u16(0).u16(0x8000).u32(ciaddr & 0xffff_ffffL)
                .u32(yiaddr & 0xffff_ffffL).u32(0).u32(0).u48(clientMac).zeros(10).zeros(64).zeros(128)
                .u32(0x6382_5363L).u8(53, 1, messageType);
        if (requested != 0) {
            b.u8(50, 4).u32(requested & 0xffff_ffffL);
        }
        return b.u8(255).build();
    }

    static byte[] dhcpRequest(long clientMac, int requested) {
        return udp4(BROADCAST, clientMac, 0, -1, 68, 67, dhcp(1, clientMac, 0, 0, 3, requested));
    }

    static byte[] dhcpAck(long serverMac, int serverIp, long clientMac, int given) {
        return udp4(BROADCAST, serverMac, serverIp, -1, 67, 68, dhcp(2, clientMac, 0, given, 5, 0));
    }

    static Bytes ipv6Header(long dstMac, long srcMac, int nextHeader, int payloadLength, int hopLimit,
            IPv6Address src, IPv6Address dst) {
        return ethernet(dstMac, srcMac, 0x86dd).u32(0x6000_0000L).u16(payloadLength).u8(nextHeader, hopLimit)
                .ipv6(src).ipv6(dst);
    }

    /** A neighbour solicitation (type 135) or advertisement (136) for {@code target}, hop limit as given. */
    static byte[] ndp(int type, long srcMac, IPv6Address src, IPv6Address dst, IPv6Address target, int hopLimit) {
        byte[] icmp = new Bytes().u8(type, 0).u16(0).u32(type == 136 ? 0x6000_0000L : 0).ipv6(target)
                .u8(type == 135 ? 1 : 2, 1).u48(srcMac).build();
        return ipv6Header(0x3333_ff00_0001L, srcMac, 58, icmp.length, hopLimit, src, dst).bytes(icmp).build();
    }

    /** An IPv6 UDP datagram. */
    static byte[] udp6(long dstMac, long srcMac, IPv6Address src, IPv6Address dst) {
        byte[] udp = new Bytes().u16(5000).u16(5001).u16(12).u16(0).u32(0xdead_beefL).build();
        return ipv6Header(dstMac, srcMac, 17, udp.length, 64, src, dst).bytes(udp).build();
    }

    /** An LLDP frame as a switch sends it, from a (unicast) port MAC. */
    static byte[] lldp(long portMac) {
        return ethernet(0x0180_c200_000eL, portMac, 0x88cc).u16(1 << 9 | 7).u8(4).u48(portMac)
                .u16(2 << 9 | 3).u8(2).u16(1).u16(3 << 9 | 2).u16(120).u16(0).build();
    }

    static OFPacketIn packetIn(OFVersion version, int inPort, byte[] frame) {
        return packetIn(version, OFPort.of(inPort), frame);
    }

    static OFPacketIn packetIn(OFVersion version, OFPort inPort, byte[] frame) {
        return TableMiss.packetIn(version, inPort, frame);
    }
}
