package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.embedded.EmbeddedChannel;

class TurnBoundedReadsTest {

    private final AtomicLong now = new AtomicLong(1);
    private final TurnBoundedReads.TurnHandle handle =
            (TurnBoundedReads.TurnHandle) new TurnBoundedReads(Duration.ofMillis(100), now::get).newHandle();
    private final ChannelConfig config = new EmbeddedChannel().config();

    @Test
    void aFloodingSwitchReads64KiBWhileTurnsAreShortAndLessInProportionWhenTheyAreLong() {
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            sizes.add(readAfter(1, Integer.MAX_VALUE));
        }
        assertEquals(TurnBoundedReads.MOST, sizes.get(sizes.size() - 1), "grown to 64 KiB: " + sizes);

        assertEquals(TurnBoundedReads.MOST / 10, readAfter(1000, Integer.MAX_VALUE), "a turn of 10 times the bound");
        assertEquals(TurnBoundedReads.MOST / 10 * 2 / 3, readAfter(150, Integer.MAX_VALUE), "1.5 times the bound");
        assertEquals(TurnBoundedReads.LEAST, readAfter(5000, Integer.MAX_VALUE), "never less than 2 KiB");
        assertEquals(TurnBoundedReads.LEAST, readAfter(80, Integer.MAX_VALUE), "within the bound: unchanged");
    }

    @Test
    void shortTurnsGrowTheReadsBackDoublingUpTo64KiB() {
        readAfter(1, Integer.MAX_VALUE);
        readAfter(5000, Integer.MAX_VALUE);
        readAfter(5000, Integer.MAX_VALUE);
        assertEquals(TurnBoundedReads.LEAST, handle.most());
        List<Integer> mosts = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            readAfter(10, Integer.MAX_VALUE);
            mosts.add(handle.most());
        }
        assertEquals(List.of(4096, 8192, 16384, 32768, 65536, 65536, 65536), mosts);
    }

    @Test
    void aSwitchWithNothingMoreToSayIsNotBoundedByTheTimeBetweenItsReads() {
        for (int i = 0; i < 10; i++) {
            readAfter(5000, 100);
        }
        assertEquals(TurnBoundedReads.MOST, handle.most(), "a quiet switch's long gaps are not turns");
        assertTrue(handle.guess() <= 2048, "its reads stay small: " + handle.guess());

        readAfter(5000, Integer.MAX_VALUE); // now it floods: this read fills its buffer
        int before = handle.most();
        readAfter(1000, Integer.MAX_VALUE); // and waited a whole (long) turn for the next
        assertTrue(handle.most() < before, "the first full read's turn bounds the next: " + handle.most());
    }

    /** One read of a switch with {@code available} bytes waiting, {@code ms} after the one before; the bytes it took. */
    private int readAfter(long ms, int available) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
        handle.reset(config);
        ByteBuf buffer = handle.allocate(UnpooledByteBufAllocator.DEFAULT);
        try {
            handle.attemptedBytesRead(buffer.writableBytes());
            int read = Math.min(available, buffer.writableBytes());
            handle.lastBytesRead(read);
            handle.incMessagesRead(1);
            handle.readComplete();
            return read;
        } finally {
            buffer.release();
        }
    }
}
