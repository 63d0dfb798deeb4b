package io.heliograph.bench;

import java.nio.ByteBuffer;

/**
 * One emulated switch's packet-in, encoded once: a 64-byte IPv4/UDP frame from port 1, buffered,
 * as a table miss. Sending one copies the template and patches the three fields that vary (xid,
 * buffer id and the source MAC's 32-bit index), so the hot path neither allocates nor encodes.
 *
 * <p>Addresses, as in cbench: the destination is {@code 80:00:00:00:00:ss} and the source
 * {@code 02:ii:ii:ii:ii:ss}, where {@code ss} is the low byte of the datapath id and {@code ii...}
 * the index of the source MAC (0 to -M minus 1). The gratuitous ARP of {@code -L} comes from the
 * destination address on port 2, so a learning switch answers every later packet-in with a flow.
 */
final class PacketIn {

    static final int FRAME_LENGTH = 64;
    static final int NO_BUFFER = 0xffffffff;
    static final int PROBE_PORT = 1;
    static final int LEARN_PORT = 2;

    private static final int XID_OFFSET = 4;
    private static final int ETH_TYPE_IPV4 = 0x0800;
    private static final int ETH_TYPE_ARP = 0x0806;
    private static final int IP_SOURCE = 0xc0a8_0028;          // 192.168.0.40
    private static final int IP_DESTINATION = 0xc0a8_0128;     // 192.168.1.40

    private final ByteBuffer template;
    private final int length;
    private final int macIndexOffset;

    private PacketIn(ByteBuffer template, int frameOffset) {
        this.template = template;
        this.length = template.limit();
        this.macIndexOffset = frameOffset + 6 + 1;
    }

    /** The packet-in a switch sends in a test. */
    static PacketIn probe(OpenFlowVersion v, long dpid) {
        byte[] frame = ipv4Frame(destination(dpid), source(dpid, 0));
        ByteBuffer b = ByteBuffer.allocateDirect(headerLength(v) + frame.length);
        int frameOffset = header(b, v, 0, 0, PROBE_PORT, frame.length);
        b.put(frame).flip();
        return new PacketIn(b, frameOffset);
    }

    /** Bytes of one packet-in. */
    int length() {
        return length;
    }

    /** Writes the packet-in at the buffer's position, which must have {@link #length()} bytes left. */
    void writeTo(ByteBuffer out, int xid, int bufferId, int macIndex) {
        int at = out.position();
        out.put(at, template, 0, length);
        out.putInt(at + XID_OFFSET, xid);
        out.putInt(at + OpenFlowVersion.PACKET_IN_BUFFER_ID, bufferId);
        out.putInt(at + macIndexOffset, macIndex);
        out.position(at + length);
    }

    /**
     * A gratuitous ARP reply from the destination MAC of {@link #probe} on port 2, unbuffered, so
     * that a learning switch knows where that address lives before the test.
     */
    static void writeGratuitousArp(ByteBuffer out, OpenFlowVersion v, long dpid, int xid) {
        long mac = destination(dpid);
        ByteBuffer frame = ByteBuffer.allocate(60);
        putMac(frame, 0xffff_ffff_ffffL);
        putMac(frame, mac);
        frame.putShort((short) ETH_TYPE_ARP);
        frame.putShort((short) 1).putShort((short) ETH_TYPE_IPV4).put((byte) 6).put((byte) 4);
        frame.putShort((short) 2);                              // reply
        putMac(frame, mac);
        frame.putInt(IP_DESTINATION);
        putMac(frame, mac);
        frame.putInt(IP_DESTINATION);
        header(out, v, xid, NO_BUFFER, LEARN_PORT, frame.capacity());
        out.put(frame.array());
    }

    /**
     * A packet-in of {@code length} bytes of {@code frame} from {@code at}, unbuffered, arrived at
     * {@code inPort}: how a switch of the emulated fabric hands the controller an LLDP frame that came
     * over a cable.
     */
    static void writeUnbuffered(ByteBuffer out, OpenFlowVersion v, int xid, int inPort, ByteBuffer frame, int at,
                                int length) {
        header(out, v, xid, NO_BUFFER, inPort, length);
        out.put(out.position(), frame, at, length);
        out.position(out.position() + length);
    }

    /** Length of the packet-in's fields before the frame. */
    static int headerLength(OpenFlowVersion v) {
        return v == OpenFlowVersion.OF_10 ? 18 : 42;
    }

    /** Writes the packet-in's header and fields; returns the frame's offset in the message. */
    private static int header(ByteBuffer out, OpenFlowVersion v, int xid, int bufferId, int inPort, int frameLength) {
        int start = out.position();
        Header.put(out, v, OpenFlowVersion.PACKET_IN, headerLength(v) + frameLength, xid);
        out.putInt(bufferId).putShort((short) frameLength);
        if (v == OpenFlowVersion.OF_10) {
            out.putShort((short) inPort).put((byte) 0).put((byte) 0);    // reason NO_MATCH, pad
        } else {
            out.put((byte) 0).put((byte) 0);                             // reason TABLE_MISS, table 0
            out.putLong(0);                                               // cookie
            out.putShort((short) 1).putShort((short) 12);                // OXM match, 4 + one 8-byte OXM
            out.putInt(0x8000_0004).putInt(inPort);                      // OFB IN_PORT, 4 bytes
            out.putInt(0);                                                // pad the match to 16
            out.putShort((short) 0);                                      // pad before the frame
        }
        return out.position() - start;
    }

    private static byte[] ipv4Frame(long destination, long source) {
        ByteBuffer f = ByteBuffer.allocate(FRAME_LENGTH);
        putMac(f, destination);
        putMac(f, source);
        f.putShort((short) ETH_TYPE_IPV4);
        int ipStart = f.position();
        int ipLength = FRAME_LENGTH - 14;
        f.put((byte) 0x45).put((byte) 0).putShort((short) ipLength).putInt(0);
        f.put((byte) 64).put((byte) 17).putShort((short) 0).putInt(IP_SOURCE).putInt(IP_DESTINATION);
        f.putShort(ipStart + 10, (short) ipChecksum(f, ipStart));
        f.putShort((short) 49152).putShort((short) 9).putShort((short) (ipLength - 20)).putShort((short) 0);
        return f.array();
    }

    private static int ipChecksum(ByteBuffer f, int start) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += f.getShort(start + i) & 0xffff;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return ~sum & 0xffff;
    }

    static long destination(long dpid) {
        return 0x8000_0000_0000L | (dpid & 0xff);
    }

    static long source(long dpid, int macIndex) {
        return 0x0200_0000_0000L | (macIndex & 0xffff_ffffL) << 8 | (dpid & 0xff);
    }

    private static void putMac(ByteBuffer b, long mac) {
        b.putShort((short) (mac >>> 32)).putInt((int) mac);
    }
}
