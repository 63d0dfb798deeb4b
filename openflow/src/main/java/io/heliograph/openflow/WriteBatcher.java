package io.heliograph.openflow;

import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.projectfloodlight.openflow.protocol.OFMessage;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.internal.PlatformDependent;

/**
 * Beacon's write batching (Algorithms 2-3) on Netty: no system call per message.
 * <ul>
 * <li>On the switch's loop, during a read batch: write without flush; {@link #readBatchEnded()}
 * flushes once when Netty reports the batch is done (channelReadComplete).</li>
 * <li>On the loop outside a read batch (timers, futures completing): write and schedule one flush
 * task, so every write of the current task goes out together.</li>
 * <li>From other threads: enqueue on a lock-free multi-producer queue; at most one drain task per
 * switch is scheduled at a time, which writes everything queued and flushes once. Each thread's
 * writes keep their order.</li>
 * </ul>
 * Messages written on the loop are encoded straight into one pooled buffer per batch, handed to
 * the channel as a whole (or every {@value #HAND_OFF_BYTES} bytes): one outbound entry per batch,
 * not one buffer and one pipeline pass per message. Each buffer is sized from the last one handed
 * off, so a steady stream of batches is encoded without growing (copying) its buffer.
 * Netty's own outbound buffer handles the slow-reader case Beacon solved with needSelect, within a
 * bound: past the channel's high water mark writes are flushed at once, and a switch that leaves
 * more than {@link PendingWriteLimit its limit} unread is dropped rather than buffered without end.
 */
final class WriteBatcher {

    private final ChannelHandlerContext ctx;
    private final PendingWriteLimit limit;
    private final Queue<OFMessage> foreign = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drain = this::drain;
    private final Runnable flush = this::flushNow;

    /** Encoded messages of the current batch not yet handed to the channel; null when there are none. */
    private ByteBuf batch;
    private boolean inReadBatch;
    private boolean dirty;
    private boolean flushScheduled;
    /** The capacity the next batch's buffer starts with: the last batch's size and a quarter more. */
    private int expectedBytes = FIRST_BUFFER_BYTES;

    /** A batch this big goes to the channel before the batch ends, so the write bound sees it. */
    static final int HAND_OFF_BYTES = 64 * 1024;
    /** While the channel is unwritable, a batch this big goes out at once. */
    static final int EARLY_HAND_OFF_BYTES = 4 * 1024;
    private static final int FIRST_BUFFER_BYTES = 1024;

    /** What to do with a message Loxi cannot encode (an app's mistake); called on the loop. */
    @FunctionalInterface
    interface Unencodable {
        void failed(OFMessage message, RuntimeException cause);
    }

    private final Unencodable unencodable;
    private final SentMessages.Connection sent;

    /** A message that cannot be encoded is reported like any pipeline error (tests). */
    WriteBatcher(ChannelHandlerContext ctx, PendingWriteLimit limit) {
        this(ctx, limit, (message, cause) -> ctx.fireExceptionCaught(cause), new SentMessages().open());
    }

    /** @param sent where every message encoded is counted by type (this connection's share of the totals) */
    WriteBatcher(ChannelHandlerContext ctx, PendingWriteLimit limit, Unencodable unencodable,
            SentMessages.Connection sent) {
        this.ctx = ctx;
        this.limit = limit;
        this.unencodable = unencodable;
        this.sent = sent;
    }

    void write(OFMessage message) {
        if (ctx.executor().inEventLoop()) {
            writeOnLoop(message);
        } else {
            foreign.offer(message);
            if (drainScheduled.compareAndSet(false, true)) {
                try {
                    ctx.executor().execute(drain);
                } catch (RejectedExecutionException e) {
                    foreign.clear(); // the loop is shutting down with the controller: nothing will be written
                }
            }
        }
    }

    void readBatchStarted() {
        inReadBatch = true;
    }

    void readBatchEnded() {
        inReadBatch = false;
        flushNow();
    }

    private void writeOnLoop(OFMessage message) {
        if (limit.exceeded()) {
            return; // the switch is being dropped for not reading: nothing more goes out
        }
        append(message);
        if (flushedEarly()) {
            return;
        }
        if (!inReadBatch && !flushScheduled) {
            flushScheduled = true;
            ctx.executor().execute(flush);
        }
    }

    private void drain() {
        // Clear the flag first: a write racing with this drain then schedules another drain
        // rather than being stranded in the queue.
        drainScheduled.set(false);
        OFMessage message;
        while ((message = foreign.poll()) != null) {
            if (limit.exceeded()) {
                foreign.clear();
                return;
            }
            append(message);
            flushedEarly();
        }
        if (!inReadBatch) {
            flushNow();
        }
    }

    /**
     * Encodes {@code message} into the batch. A message Loxi cannot encode leaves the batch as it was
     * and is reported to the owner (the connection stays up).
     */
    private void append(OFMessage message) {
        if (batch == null) {
            batch = ctx.alloc().directBuffer(expectedBytes);
        }
        int start = batch.writerIndex();
        try {
            message.writeTo(batch);
        } catch (RuntimeException e) {
            batch.writerIndex(start);
            unencodable.failed(message, e);
            return;
        }
        sent.count(message.getType());
        dirty = true;
        if (batch.readableBytes() >= HAND_OFF_BYTES) {
            handOff();
        }
    }

    private void handOff() {
        if (batch != null) {
            ByteBuf out = batch;
            batch = null;
            expectedBytes = expectedBytes(out.readableBytes());
            ctx.write(out, ctx.voidPromise());
        }
    }

    /** Room for a batch like the last one ({@code lastBytes}), within 1 KiB and a hand-off's worth and a quarter. */
    static int expectedBytes(int lastBytes) {
        int room = lastBytes + lastBytes / 4;
        return Math.max(FIRST_BUFFER_BYTES, Math.min(room, HAND_OFF_BYTES + HAND_OFF_BYTES / 4));
    }

    /**
     * Past the channel's high water mark the batch goes out now instead of at its end (every
     * {@value #EARLY_HAND_OFF_BYTES} bytes, not every message: the channel counts an overhead per
     * buffer), so what piles up is only what the switch leaves unread, and the bound is checked on it.
     */
    private boolean flushedEarly() {
        if (ctx.channel().isWritable() || batch == null || batch.readableBytes() < EARLY_HAND_OFF_BYTES) {
            return false;
        }
        flushNow();
        return true;
    }

    /** Hands the batch to the channel and flushes it (on the loop). */
    void flushNow() {
        flushScheduled = false;
        if (dirty) {
            dirty = false;
            handOff();
            ctx.flush();
            limit.exceeded();
        }
    }

    /** The connection is gone: what was encoded and not handed over is dropped (on the loop). */
    void discard() {
        if (batch != null) {
            batch.release();
            batch = null;
        }
        dirty = false;
    }
}
