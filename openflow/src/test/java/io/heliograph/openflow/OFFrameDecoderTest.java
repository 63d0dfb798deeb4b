package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.TableId;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

class OFFrameDecoderTest {

    private static ByteBuf bytes(OFMessage... messages) {
        ByteBuf buf = Unpooled.buffer();
        for (OFMessage m : messages) {
            m.writeTo(buf);
        }
        return buf;
    }

    private static OFPacketIn packetIn(OFFactory f, long xid) {
        OFPacketIn.Builder b = f.buildPacketIn().setXid(xid).setBufferId(OFBufferId.NO_BUFFER)
                .setReason(OFPacketInReason.NO_MATCH).setData(new byte[] {1, 2, 3});
        if (f.getVersion() == OFVersion.OF_10) {
            b.setInPort(org.projectfloodlight.openflow.types.OFPort.of(1));
        } else {
            b.setTableId(TableId.of(0)).setMatch(f.buildMatch().build());
        }
        return b.build();
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13", "OF_15"})
    void keepsTheFirstPacketInsBeforeTheHandshakeIsDoneSkipsTheRestAndDecodesEverythingElse(OFVersion version) {
        OFFactory f = OFFactories.getFactory(version);
        OFFrameDecoder frames = new OFFrameDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(frames);

        // in one read: the packet-ins kept for after the handshake, an echo request, two more packet-ins
        java.util.List<OFMessage> early = new java.util.ArrayList<>();
        for (int i = 0; i < OFFrameDecoder.EARLY_PACKET_INS; i++) {
            early.add(packetIn(f, 100 + i));
        }
        early.add(f.buildEchoRequest().setXid(2).setData(new byte[0]).build());
        early.add(packetIn(f, 1));
        early.add(packetIn(f, 3));
        ch.writeInbound(bytes(early.toArray(OFMessage[]::new)));
        for (int i = 0; i < OFFrameDecoder.EARLY_PACKET_INS; i++) {
            assertEquals(100 + i, assertInstanceOf(OFPacketIn.class, ch.readInbound()).getXid());
        }
        OFEchoRequest echo = assertInstanceOf(OFEchoRequest.class, ch.readInbound());
        assertEquals(2, echo.getXid());
        assertNull(ch.readInbound(), "packet-ins beyond those kept before the handshake are not passed on");

        assertEquals(2, frames.acceptPacketIns());
        ch.writeInbound(bytes(packetIn(f, 4)));
        OFPacketIn in = assertInstanceOf(OFPacketIn.class, ch.readInbound());
        assertEquals(4, in.getXid());
        ch.finishAndReleaseAll();
    }
}
