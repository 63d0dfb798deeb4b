package io.heliograph.learningswitch;

import java.nio.ByteBuffer;
import java.util.HexFormat;

import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import io.heliograph.core.testing.TableMiss;

/** Packet-ins as switches send them: built per version, then written to wire bytes and decoded back. */
final class PacketIns {

    static final long H1 = 0x0200_0000_0001L;
    static final long H2 = 0x0200_0000_0002L;
    static final long H3 = 0x0200_0000_0003L;

    /**
     * Wire bytes of an OpenFlow 1.0 packet-in, assembled by hand from the spec's layout (not by Loxi,
     * so the decoder is checked too): a buffered ARP request from 02:00:00:00:00:01 (10.0.0.1) for
     * 10.0.0.2, 42 bytes as a namespaced host sends it, on port 1, in buffer 0x100.
     */
    static final String OVS_OF10_ARP_REQUEST = "010a003c00000000" + "00000100" + "002a" + "0001" + "00" + "00"
            + "ffffffffffff" + "020000000001" + "0806"
            + "0001080006040001" + "020000000001" + "0a000001" + "000000000000" + "0a000002";

    /**
     * The same ARP request as an OpenFlow 1.3 packet-in, by hand as well: unbuffered (what Open vSwitch
     * sends from 1.3 on), reason table-miss, in_port as an OXM in the match, padded to 8 bytes.
     */
    static final String OVS_OF13_ARP_REQUEST = "040a005400000000" + "ffffffff" + "002a" + "00" + "00"
            + "0000000000000000" + "0001000c" + "8000000400000001" + "00000000" + "0000"
            + "ffffffffffff" + "020000000001" + "0806"
            + "0001080006040001" + "020000000001" + "0a000001" + "000000000000" + "0a000002";

    private PacketIns() {
    }

    /** An Ethernet frame from {@code src} to {@code dst} carrying 46 bytes of IPv4-ish payload. */
    static byte[] frame(long dst, long src) {
        ByteBuffer b = ByteBuffer.allocate(60);
        b.putShort((short) (dst >>> 32)).putInt((int) dst);
        b.putShort((short) (src >>> 32)).putInt((int) src);
        b.putShort((short) 0x0800).put((byte) 0x45);
        return b.array();
    }

    static OFPacketIn packetIn(OFVersion version, int inPort, byte[] frame, OFBufferId buffer) {
        return (OFPacketIn) throughTheWire(TableMiss.packetIn(version, OFPort.of(inPort), frame, buffer));
    }

    static OFPacketIn packetIn(OFVersion version, int inPort, long dst, long src) {
        return packetIn(version, inPort, frame(dst, src), OFBufferId.NO_BUFFER);
    }

    static OFMessage throughTheWire(OFMessage message) {
        ByteBuf buf = Unpooled.buffer();
        message.writeTo(buf);
        return decode(buf);
    }

    static OFMessage decode(String hex) {
        return decode(Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex)));
    }

    private static OFMessage decode(ByteBuf buf) {
        try {
            OFMessage decoded = OFFactories.getGenericReader().readFrom(buf);
            if (decoded == null || buf.isReadable()) {
                throw new AssertionError("the bytes are not exactly one message");
            }
            return decoded;
        } catch (OFParseError e) {
            throw new AssertionError("not decodable: " + e.getMessage(), e);
        }
    }
}
