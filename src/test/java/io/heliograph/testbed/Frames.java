package io.heliograph.testbed;

import java.nio.ByteBuffer;

/** Ethernet frames a host might send, as the payload of fuzzed PACKET_INs. */
final class Frames {

    private static final byte[] SRC = {2, 0, 0, 0, 0, 0x11};
    private static final byte[] DST = {2, 0, 0, 0, 0, 0x22};
    private static final byte[] BROADCAST = {-1, -1, -1, -1, -1, -1};

    private Frames() {
    }

    static byte[] arpRequest() {
        ByteBuffer b = ethernet(BROADCAST, 0x0806, 28);
        b.putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4).putShort((short) 1);
        b.put(SRC).put(new byte[] {10, 0, 0, 17}).put(new byte[6]).put(new byte[] {10, 0, 0, 34});
        return b.array();
    }

    /** IPv4 with a transport header of {@code transportLength} bytes (TCP 20, UDP 8, ICMP 8). */
    static byte[] ipv4(int protocol, int transportLength) {
        ByteBuffer b = ethernet(DST, 0x0800, 20 + transportLength);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + transportLength)).putInt(0)
                .put((byte) 64).put((byte) protocol).putShort((short) 0)
                .put(new byte[] {10, 0, 0, 17}).put(new byte[] {10, 0, 0, 34});
        b.putShort((short) 40000).putShort((short) 80);
        b.put(new byte[transportLength - 4]);
        return b.array();
    }

    static byte[] ipv6(int nextHeader, int payloadLength) {
        ByteBuffer b = ethernet(DST, 0x86dd, 40 + payloadLength);
        b.putInt(0x60000000).putShort((short) payloadLength).put((byte) nextHeader).put((byte) 255);
        b.put(new byte[] {(byte) 0xfe, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11});
        b.put(new byte[] {(byte) 0xff, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, (byte) 0xff, 0, 0, 0x22});
        b.put((byte) 135).put(new byte[payloadLength - 1]);
        return b.array();
    }

    /** {@code frame} with an 802.1Q tag (VLAN 5) after its addresses. */
    static byte[] vlan(byte[] frame) {
        ByteBuffer b = ByteBuffer.allocate(frame.length + 4);
        b.put(frame, 0, 12).putShort((short) 0x8100).putShort((short) 5).put(frame, 12, frame.length - 12);
        return b.array();
    }

    /** An LLDP frame: chassis id, port id, TTL, end. */
    static byte[] lldp() {
        ByteBuffer b = ethernet(new byte[] {1, (byte) 0x80, (byte) 0xc2, 0, 0, 0x0e}, 0x88cc, 9 + 5 + 4 + 2);
        b.putShort((short) ((1 << 9) | 7)).put((byte) 4).put(SRC);
        b.putShort((short) ((2 << 9) | 3)).put((byte) 2).putShort((short) 1);
        b.putShort((short) ((3 << 9) | 2)).putShort((short) 120);
        b.putShort((short) 0);
        return b.array();
    }

    static byte[] padded(byte[] frame, int length) {
        byte[] out = new byte[length];
        System.arraycopy(frame, 0, out, 0, frame.length);
        return out;
    }

    private static ByteBuffer ethernet(byte[] dst, int etherType, int payload) {
        ByteBuffer b = ByteBuffer.allocate(14 + payload);
        b.put(dst).put(SRC).putShort((short) etherType);
        return b;
    }
}
