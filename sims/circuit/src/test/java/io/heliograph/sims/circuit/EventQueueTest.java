package io.heliograph.sims.circuit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {

    @Test
    void eventsComeOutByTimeAndInSchedulingOrderAtOneTime() {
        EventQueue queue = new EventQueue(4); // grows many times
        SplittableRandom random = new SplittableRandom(7);
        List<long[]> expected = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            long at = random.nextLong(1_000); // many ties
            queue.add(at, i % 15, i);
            expected.add(new long[] {at, i});
        }
        expected.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        for (long[] e : expected) {
            queue.poll();
            assertEquals(e[0], queue.time());
            assertEquals(e[1], queue.arg());
            assertEquals(e[1] % 15, queue.kind());
        }
        assertTrue(queue.isEmpty());
    }

    @Test
    void interleavedAddsAndPollsKeepTheOrder() {
        EventQueue queue = new EventQueue(16);
        SplittableRandom random = new SplittableRandom(3);
        long now = 0;
        queue.add(0, 0, 0);
        int polled = 0;
        while (!queue.isEmpty() && polled < 200_000) {
            queue.poll();
            polled++;
            assertTrue(queue.time() >= now, "time went back");
            now = queue.time();
            int children = queue.size() < 1_000 ? 2 : 1;
            for (int c = 0; c < children && polled < 150_000; c++) {
                queue.add(now + random.nextLong(10_000), 1, polled);
            }
        }
        assertTrue(polled > 100_000);
    }
}
