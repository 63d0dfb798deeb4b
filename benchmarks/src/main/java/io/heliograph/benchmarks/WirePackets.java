package io.heliograph.benchmarks;

import java.nio.ByteBuffer;

import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.testing.TableMiss;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Packet-ins as the controller receives them: built by core's {@link TableMiss} (what a switch with a
 * table-miss flow sends), written to wire bytes, and decoded back, so the benchmarks work on the
 * same objects the decoder hands the pipeline.
 */
public final class WirePackets {

    /** The length of the frames: a minimal Ethernet frame, as cbench's packet-ins carry. */
    public static final int FRAME_LENGTH = 60;

    private WirePackets() {
    }

    /** A unicast or group address {@code n} made locally administered: 02:00:xx:xx:xx:xx. */
    public static long host(int n) {
        return 0x0200_0000_0000L | (n & 0xffff_ffffL);
    }

    /** A 60-byte IPv4 Ethernet frame from {@code src} to {@code dst}. */
    public static byte[] frame(long dst, long src) {
        ByteBuffer b = ByteBuffer.allocate(FRAME_LENGTH);
        b.putShort((short) (dst >>> 32)).putInt((int) dst);
        b.putShort((short) (src >>> 32)).putInt((int) src);
        b.putShort((short) 0x0800).put((byte) 0x45);
        return b.array();
    }

    /** The wire bytes of the table-miss packet-in of a frame from {@code src} to {@code dst} arriving at {@code inPort}. */
    public static byte[] packetInBytes(OFVersion version, int inPort, long dst, long src, OFBufferId buffer) {
        return bytes(TableMiss.packetIn(version, OFPort.of(inPort), frame(dst, src), buffer));
    }

    /** That packet-in as the decoder produces it. */
    public static OFPacketIn packetIn(OFVersion version, int inPort, long dst, long src, OFBufferId buffer) {
        return (OFPacketIn) decode(packetInBytes(version, inPort, dst, src, buffer));
    }

    public static byte[] bytes(OFMessage message) {
        ByteBuf buf = Unpooled.buffer();
        message.writeTo(buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    public static OFMessage decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            OFMessage message = OFFactories.getGenericReader().readFrom(buf);
            if (message == null || buf.isReadable()) {
                throw new IllegalArgumentException("not exactly one OpenFlow message: " + bytes.length + " bytes");
            }
            return message;
        } catch (OFParseError e) {
            throw new IllegalArgumentException("not an OpenFlow message: " + e.getMessage(), e);
        }
    }
}
