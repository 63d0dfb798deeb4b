package io.heliograph.openflow;

import io.netty.channel.Channel;

/**
 * The bound on bytes a switch may leave waiting in its channel's outbound buffer (written, not yet
 * taken by the socket because the switch does not read). Checked on the switch's loop after a
 * flush or an early write; cheap while the channel is writable (one volatile read), since the
 * channel's high water mark never exceeds the bound. Trips once: the owner then drops the switch.
 */
final class PendingWriteLimit {

    /** What to do when the bound is passed; called once, on the switch's loop. */
    @FunctionalInterface
    interface Overflow {
        void exceeded(long pendingBytes, long maxPendingBytes);
    }

    private final Channel channel;
    private final long max;
    private final Overflow overflow;
    private boolean tripped;

    PendingWriteLimit(Channel channel, long max, Overflow overflow) {
        this.channel = channel;
        this.max = max;
        this.overflow = overflow;
    }

    /** True when the bound is (or was already) passed; the first time, tells the owner. */
    boolean exceeded() {
        if (tripped) {
            return true;
        }
        if (channel.isWritable() || !channel.isActive()) {
            return false;
        }
        long pending = pendingBytes();
        if (pending <= max) {
            return false;
        }
        tripped = true;
        overflow.exceeded(pending, max);
        return true;
    }

    /**
     * Bytes in the outbound buffer, flushed or not (including what a TLS handler holds). Netty
     * exposes them, while the channel is unwritable, as what must drain to reach the low mark.
     */
    private long pendingBytes() {
        return channel.bytesBeforeWritable() + channel.config().getWriteBufferLowWaterMark();
    }
}
