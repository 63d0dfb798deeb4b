package io.heliograph.openflow;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Cuts the byte stream into OpenFlow messages by the header's length field and decodes each in
 * place ({@link OFMessageDecoder#decode}): one pipeline step per message, no retained slice (Loxi
 * copies what it keeps). The largest message
 * is 65535 bytes because the length field has 16 bits, so a too-long message cannot be expressed:
 * the only stream that cannot be framed is one whose header claims fewer than the 8 header bytes.
 * Then nothing after it can be trusted, so the connection is closed (after telling the switch
 * handler, which logs it with the switch's name).
 *
 * <p>PACKET_INs are the one message a switch sends at any rate it likes, so they are rationed here,
 * before any decoding: each takes a token of the switch's {@link PacketInBudget}, and one that finds
 * none is skipped (dropped and counted). One flooding switch then costs the others on its I/O thread
 * little more than the reading of its bytes.
 */
final class OFFrameDecoder extends ByteToMessageDecoder {

    static final int HEADER_LENGTH = 8;
    /** OFPT_PACKET_IN's type number in every version from 1.0 to 1.5. */
    static final int PACKET_IN = 10;

    private final PacketInBudget budget;
    /** Packet-ins dropped by every switch's budget, for the controller's totals. */
    private final LongAdder droppedTotal;
    private boolean broken;
    /**
     * The PACKET_INs kept while the switch's handshake is not done yet, for the apps once it is: a
     * switch sends them as soon as it has answered FEATURES (a host's first packet, a load generator's
     * first probe), and losing them would leave that host or probe unanswered.
     */
    static final int EARLY_PACKET_INS = 64;

    /**
     * Until the switch's handshake is done nobody reads a PACKET_IN: the first {@link #EARLY_PACKET_INS}
     * are decoded and kept by the connection, the rest skipped without decoding, so a switch flooding
     * from the start delays its own handshake little.
     */
    private boolean packetInsWanted;
    private int earlyPacketIns;
    private long packetInsSkipped;

    /** With no limit on packet-ins (tests, benchmarks). */
    OFFrameDecoder() {
        this(new PacketInBudget(0, 0, System::nanoTime), new LongAdder());
    }

    OFFrameDecoder(PacketInBudget budget, LongAdder droppedTotal) {
        this.budget = budget;
        this.droppedTotal = droppedTotal;
    }

    /** One refill of the packet-in budget per read from the socket: one clock read for all its messages. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (packetInsWanted) {
            budget.refill();
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (broken) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < HEADER_LENGTH) {
            return;
        }
        int length = in.getUnsignedShort(in.readerIndex() + 2);
        if (length < HEADER_LENGTH) {
            broken = true;
            String header = ByteBufUtil.hexDump(in, in.readerIndex(), HEADER_LENGTH);
            in.skipBytes(in.readableBytes());
            ctx.fireUserEventTriggered(new UnframeableInput(length, header));
            ctx.close();
            return;
        }
        if (in.readableBytes() < length) {
            return;
        }
        int start = in.readerIndex();
        if (in.getUnsignedByte(start + 1) == PACKET_IN) {
            if (!packetInsWanted && earlyPacketIns++ >= EARLY_PACKET_INS) {
                in.skipBytes(length);
                packetInsSkipped++;
                return;
            }
            if (!budget.take()) {
                in.skipBytes(length);
                droppedTotal.increment();
                return;
            }
        }
        Object message = OFMessageDecoder.decode(in.slice(start, length));
        in.readerIndex(start + length);
        out.add(message);
    }

    /**
     * From now on every PACKET_IN is decoded (the handshake is done); answers how many were skipped
     * before, beyond the {@link #EARLY_PACKET_INS} kept.
     */
    long acceptPacketIns() {
        packetInsWanted = true;
        return packetInsSkipped;
    }

    /** The stream could not be framed: a header declared a length below 8. */
    record UnframeableInput(int declaredLength, String headerHex) {
    }
}
