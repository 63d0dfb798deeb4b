package io.heliograph.openflow;

import java.time.Duration;
import java.util.function.LongSupplier;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * One read per switch per turn of its I/O thread, sized so that a turn stays short however many
 * switches flood. Switches sharing a loop take turns, one read each; with reads of up to 64 KiB a
 * turn through 1,000 flooding switches was 64 MiB of packet-ins, seconds of work for the full profile,
 * so most switches went unanswered for seconds. A switch whose last read filled its buffer had data
 * waiting all the time since, so the time between its two reads is one turn: when that is longer than
 * {@code turn} its next reads shrink in proportion (down to 2 KiB); when it is shorter than half, they
 * grow back, doubling (up to 64 KiB). Few switches, or a light profile, keep 64 KiB reads; a read that
 * did not fill its buffer (a switch with nothing more to say) changes nothing. Below that bound the
 * sizes follow Netty's adaptive allocator, so a quiet switch's reads stay small.
 */
final class TurnBoundedReads implements RecvByteBufAllocator {

    static final int MOST = 64 * 1024;
    static final int LEAST = 2 * 1024;

    private final RecvByteBufAllocator sizes = new AdaptiveRecvByteBufAllocator(64, LEAST, MOST).maxMessagesPerRead(1);
    private final long turnNanos;
    private final LongSupplier nanoClock;

    TurnBoundedReads(Duration turn, LongSupplier nanoClock) {
        this.turnNanos = turn.toNanos();
        this.nanoClock = nanoClock;
    }

    @Override
    public Handle newHandle() {
        return new TurnHandle((ExtendedHandle) sizes.newHandle());
    }

    /** One channel's: on its I/O thread. */
    final class TurnHandle implements ExtendedHandle {
        private final ExtendedHandle sizes;
        private int most = MOST;
        private long lastReadAt;
        private boolean lastFilled;

        private TurnHandle(ExtendedHandle sizes) {
            this.sizes = sizes;
        }

        /** The most the next read takes. */
        int most() {
            return most;
        }

        @Override
        public void reset(ChannelConfig config) {
            long now = nanoClock.getAsLong();
            if (lastFilled) {
                long turn = now - lastReadAt;
                if (turn > turnNanos) {
                    most = (int) Math.max(LEAST, most * turnNanos / turn);
                } else if (turn < turnNanos / 2) {
                    most = Math.min(MOST, most * 2);
                }
            }
            lastReadAt = now;
            sizes.reset(config);
        }

        @Override
        public int guess() {
            return Math.min(sizes.guess(), most);
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            return alloc.ioBuffer(guess());
        }

        @Override
        public void lastBytesRead(int bytes) {
            lastFilled = bytes > 0 && bytes == sizes.attemptedBytesRead();
            sizes.lastBytesRead(bytes);
        }

        @Override
        public int lastBytesRead() {
            return sizes.lastBytesRead();
        }

        @Override
        public void attemptedBytesRead(int bytes) {
            sizes.attemptedBytesRead(bytes);
        }

        @Override
        public int attemptedBytesRead() {
            return sizes.attemptedBytesRead();
        }

        @Override
        public void incMessagesRead(int numMessages) {
            sizes.incMessagesRead(numMessages);
        }

        @Override
        public boolean continueReading() {
            return sizes.continueReading();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return sizes.continueReading(maybeMoreDataSupplier);
        }

        @Override
        public void readComplete() {
            sizes.readComplete();
        }
    }
}
