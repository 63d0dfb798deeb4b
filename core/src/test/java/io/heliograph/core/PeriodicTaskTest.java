package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PeriodicTaskTest {

    private final ScheduledExecutorService thread = WorkerThreads.single("heliograph-test");

    @AfterEach
    void stop() {
        WorkerThreads.stop(thread, "heliograph-test", Duration.ofSeconds(2));
    }

    /** Waits until what was handed to the thread so far has run. */
    private void drain() throws Exception {
        thread.submit(() -> { }).get(5, TimeUnit.SECONDS);
    }

    @Test
    void aFailingRoundIsLoggedAndTheRoundsGoOnOnTheAppsThread() throws InterruptedException {
        AtomicInteger rounds = new AtomicInteger();
        List<String> threads = new CopyOnWriteArrayList<>();
        CountDownLatch three = new CountDownLatch(3);
        PeriodicTask task = new PeriodicTask(thread, "test round", () -> {
            threads.add(Thread.currentThread().getName());
            three.countDown();
            if (rounds.incrementAndGet() == 1) {
                throw new IllegalStateException("the first round fails");
            }
        });
        task.every(1, 0);
        assertTrue(three.await(5, TimeUnit.SECONDS), "rounds after the failing one");
        assertEquals(List.of("heliograph-test"), threads.stream().distinct().toList());
        task.cancel();
    }

    @Test
    void aNewIntervalReplacesTheScheduleAndCancelEndsIt() throws Exception {
        AtomicInteger rounds = new AtomicInteger();
        CountDownLatch two = new CountDownLatch(2);
        PeriodicTask task = new PeriodicTask(thread, "test round", () -> {
            rounds.incrementAndGet();
            two.countDown();
        });
        task.every(3_600_000, 3_600_000);
        drain();
        assertEquals(0, rounds.get(), "the first round an hour away");
        task.every(1, 0); // the live change: the hour-long schedule is gone
        assertTrue(two.await(5, TimeUnit.SECONDS), "rounds at the new interval");
        task.cancel();
        drain();
        int after = rounds.get();
        CountDownLatch later = new CountDownLatch(1);
        thread.schedule(later::countDown, 20, TimeUnit.MILLISECONDS);
        assertTrue(later.await(5, TimeUnit.SECONDS));
        assertEquals(after, rounds.get(), "no round after cancel");
    }

    @Test
    void schedulingOnAStoppedThreadDoesNothing() {
        WorkerThreads.stop(thread, "heliograph-test", Duration.ofSeconds(2));
        new PeriodicTask(thread, "test round", () -> { }).every(1, 0);
    }
}
