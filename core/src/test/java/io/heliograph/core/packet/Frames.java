package io.heliograph.core.packet;

/** Hand-built frames of every kind the views parse, shared by the tests. */
final class Frames {

    static final long MAC_A = 0x0200_0000_000aL;
    static final long MAC_B = 0x0200_0000_000bL;
    static final int IP_A = 0x0a00_0001; // 10.0.0.1
    static final int IP_B = 0x0a00_0002; // 10.0.0.2

    private Frames() {
    }

    static Bytes ethernet(long dst, long src, int type) {
        return new Bytes().u48(dst).u48(src).u16(type);
    }

    /** An IPv4 header (20 bytes + options) with a correct checksum, for a payload of {@code payload} bytes. */
    static byte[] ipv4Header(int protocol, int payload, int flagsAndFragment, byte[] options) {
        int headerLength = 20 + options.length;
        byte[] h = new Bytes().u8(0x40 | headerLength / 4, 0xb8).u16(headerLength + payload).u16(0x1234)
                .u16(flagsAndFragment).u8(64, protocol).u16(0).u32(IP_A).u32(IP_B).bytes(options).build();
        Bytes.checksum(h, 0, h.length, 10);
        return h;
    }

    static byte[] tcpHeader(int srcPort, int dstPort, int flags, byte[] options) {
        int words = (20 + options.length) / 4;
        return new Bytes().u16(srcPort).u16(dstPort).u32(0xfffffff0L).u32(0x80000001L).u8(words << 4, flags)
                .u16(65535).u16(0xabcd).u16(7).bytes(options).build();
    }

    static byte[] udpHeader(int srcPort, int dstPort, int payload) {
        return new Bytes().u16(srcPort).u16(dstPort).u16(8 + payload).u16(0x5555).build();
    }

    /** Ethernet + 802.1Q (vlan 10, pcp 5) + IPv4 + TCP (with MSS option) + 6 payload bytes. */
    static byte[] vlanTcp() {
        byte[] payload = {1, 2, 3, 4, 5, 6};
        byte[] tcp = tcpHeader(40000, 80, Tcp.SYN | Tcp.ACK, new byte[] {2, 4, 0x05, (byte) 0xb4});
        byte[] ip = ipv4Header(Ipv4.PROTOCOL_TCP, tcp.length + payload.length, 0x4000, new byte[0]);
        return new Bytes().u48(MAC_B).u48(MAC_A).u16(Ethernet.TYPE_VLAN).u16(5 << 13 | 10).u16(Ethernet.TYPE_IPV4)
                .bytes(ip).bytes(tcp).bytes(payload).build();
    }

    /** Ethernet + IPv4 + UDP (DNS-like) with 4 payload bytes. */
    static byte[] udp() {
        byte[] udp = udpHeader(5353, 53, 4);
        byte[] ip = ipv4Header(Ipv4.PROTOCOL_UDP, 12, 0, new byte[0]);
        return ethernet(MAC_B, MAC_A, Ethernet.TYPE_IPV4).bytes(ip).bytes(udp).u32(0xdeadbeefL).build();
    }

    /** Ethernet + IPv4 + ICMP echo request id 0x77 seq 3, 8 payload bytes. */
    static byte[] ping() {
        byte[] icmp = new Bytes().u8(Icmp.ECHO_REQUEST, 0).u16(0x1111).u16(0x77).u16(3).zeros(8).build();
        byte[] ip = ipv4Header(Ipv4.PROTOCOL_ICMP, icmp.length, 0x4000, new byte[0]);
        return ethernet(MAC_B, MAC_A, Ethernet.TYPE_IPV4).bytes(ip).bytes(icmp).build();
    }

    static byte[] arpRequest() {
        return ethernet(Ethernet.BROADCAST, MAC_A, Ethernet.TYPE_ARP).u16(1).u16(0x0800).u8(6, 4).u16(Arp.REQUEST)
                .u48(MAC_A).u32(IP_A).u48(0).u32(IP_B).zeros(18).build(); // padded to 60 bytes
    }

    /** IPv6 fixed header for {@code payload} bytes after it (extension headers included). */
    static Bytes ipv6Header(Bytes b, int nextHeader, int payload) {
        return b.u32(0x6000_0000L | 0x2a << 20 | 0x12345).u16(payload).u8(nextHeader, 255)
                .u64(0xfe80_0000_0000_0000L).u64(0x0000_00ff_fe00_000aL)
                .u64(0x2001_0db8_0000_0000L).u64(0x0000_0000_0000_0002L);
    }

    /** Ethernet + IPv6 + hop-by-hop + routing + destination options + fragment (first) + UDP with 4 payload bytes. */
    static byte[] ipv6ExtensionsUdp() {
        byte[] udp = udpHeader(546, 547, 4);
        Bytes ext = new Bytes()
                .u8(Ipv6.ROUTING, 0).zeros(6)                  // hop-by-hop, 8 bytes (padding option)
                .u8(Ipv6.DESTINATION_OPTIONS, 1).zeros(14)     // routing, 16 bytes
                .u8(Ipv6.FRAGMENT, 0).zeros(6)                 // destination options, 8 bytes
                .u8(Ipv6.PROTOCOL_UDP, 0).u16(0x0001).u32(0xcafe); // fragment: offset 0, M=1
        int payload = ext.size() + udp.length + 4;
        return ipv6Header(ethernet(MAC_B, MAC_A, Ethernet.TYPE_IPV6), Ipv6.HOP_BY_HOP, payload)
                .bytes(ext.build()).bytes(udp).u32(0x01020304L).build();
    }

    /** Ethernet + IPv6 + ICMPv6 neighbour solicitation. */
    static byte[] neighborSolicitation() {
        byte[] icmp = new Bytes().u8(Icmpv6.NEIGHBOR_SOLICITATION, 0).u16(0x4242).u32(0)
                .u64(0x2001_0db8_0000_0000L).u64(2).build();
        return ipv6Header(ethernet(0x3333_ff00_0002L, MAC_A, Ethernet.TYPE_IPV6), Ipv6.PROTOCOL_ICMPV6, icmp.length)
                .bytes(icmp).build();
    }

    static Bytes tlv(Bytes b, int type, byte[] value) {
        return b.u16(type << 9 | value.length).bytes(value);
    }

    /** A Beacon-style discovery LLDP frame: chassis MAC, port 3, TTL 120, OUI 00:26:e1 TLV with the DPID, End. */
    static byte[] lldp() {
        Bytes b = ethernet(0x0180_c200_000eL, MAC_A, Ethernet.TYPE_LLDP);
        tlv(b, Lldp.TLV_CHASSIS_ID, new Bytes().u8(Lldp.CHASSIS_MAC_ADDRESS).u48(MAC_A).build());
        tlv(b, Lldp.TLV_PORT_ID, new Bytes().u8(2).u16(3).build());
        tlv(b, Lldp.TLV_TTL, new Bytes().u16(120).build());
        tlv(b, Lldp.TLV_SYSTEM_NAME, "sw1".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        tlv(b, Lldp.TLV_ORGANIZATION_SPECIFIC, new Bytes().u8(0x00, 0x26, 0xe1, 0).u64(0x0000_0000_0000_002aL).build());
        return b.u16(0).zeros(4).build(); // End TLV, then padding
    }

    static byte[][] all() {
        return new byte[][] {vlanTcp(), udp(), ping(), arpRequest(), ipv6ExtensionsUdp(), neighborSolicitation(), lldp()};
    }
}
