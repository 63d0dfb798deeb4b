package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class WorkerThreadsTest {

    @Test
    void oneNamedDaemonThreadRunsTheTasksInOrder() throws InterruptedException {
        ScheduledExecutorService thread = WorkerThreads.single("heliograph-test");
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        for (int i = 0; i < 100; i++) {
            int n = i;
            thread.execute(() -> ran.add(n + " " + Thread.currentThread().getName() + " "
                    + Thread.currentThread().isDaemon()));
        }
        // Due after every task above was given (however slow the giving), so it runs after them.
        thread.schedule(() -> ran.add("later"), 20, TimeUnit.MILLISECONDS);
        thread.schedule(done::countDown, 40, TimeUnit.MILLISECONDS);
        assertTrue(done.await(5, TimeUnit.SECONDS));
        assertEquals(101, ran.size());
        for (int i = 0; i < 100; i++) {
            assertEquals(i + " heliograph-test true", ran.get(i));
        }
        assertEquals("later", ran.get(100));
        assertTrue(WorkerThreads.stop(thread, "heliograph-test", Duration.ofSeconds(2)));
    }

    @Test
    void stoppingInterruptsTheRunningTaskWaitsForItAndDropsTheQueue() throws InterruptedException {
        ScheduledExecutorService thread = WorkerThreads.single("heliograph-test");
        CountDownLatch running = new CountDownLatch(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        thread.execute(() -> {
            running.countDown();
            try {
                new CountDownLatch(1).await(); // a task blocked for good: only the interrupt ends it
            } catch (InterruptedException e) {
                ran.add("interrupted");
            }
        });
        thread.execute(() -> ran.add("queued"));
        assertTrue(running.await(5, TimeUnit.SECONDS));
        assertTrue(WorkerThreads.stop(thread, "heliograph-test", Duration.ofSeconds(5)));
        assertEquals(List.of("interrupted"), ran, "waited for the running task; the queued one dropped");
        assertTrue(thread.isTerminated());
    }

    @Test
    void aThreadThatDoesNotStopInTimeIsReported() throws InterruptedException {
        ScheduledExecutorService thread = WorkerThreads.single("heliograph-test");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        thread.execute(() -> {
            running.countDown();
            while (true) {
                try {
                    if (release.await(5, TimeUnit.SECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    // deaf to interrupts
                }
            }
        });
        assertTrue(running.await(5, TimeUnit.SECONDS));
        assertFalse(WorkerThreads.stop(thread, "heliograph-test", Duration.ofMillis(50)));
        release.countDown();
        assertTrue(thread.awaitTermination(5, TimeUnit.SECONDS));
    }
}
