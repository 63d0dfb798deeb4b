package io.heliograph.openflow;

import org.projectfloodlight.openflow.protocol.OFMessage;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/** Writes Loxi messages straight into a pooled (direct) buffer; stateless, so one instance serves all channels. */
@Sharable
final class OFMessageEncoder extends MessageToByteEncoder<OFMessage> {

    static final OFMessageEncoder INSTANCE = new OFMessageEncoder();

    private OFMessageEncoder() {
        super(OFMessage.class, true);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, OFMessage msg, ByteBuf out) {
        msg.writeTo(out);
    }
}
