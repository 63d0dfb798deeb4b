package io.heliograph.circuit.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.stats.SwitchStatistics;

/**
 * Stopping the app while its loop computes a week: the loop holds its own lock while it estimates
 * and publishes to the runtime, so a stop that held the runtime's lock while it waited for the loop's
 * would deadlock with the publication (CI's ClusterIT caught it: a graceful stop never ended).
 */
class LoopStopTest {

    private static final long WEEK = 2_000_000_000L;
    private static final String FABRIC = "circuit=16; rack0=1/1/1/2; rack1=2/2/1/2; rack2=3/3/1/2; rack3=4/4/1/2";

    @Test
    void theAppStopsWhileItsLoopIsEstimatingAndThenPublishes() throws Exception {
        ManualTimer timer = new ManualTimer(10 * WEEK + 1);
        CircuitRuntime runtime = new CircuitRuntime(CircuitSettings.read("", 80, 10, 2000, 20, 200, 1000,
                "solstice", "adu", "", 1, 0, 65_536, FABRIC), "test", timer::now, timer);
        AtomicBoolean armed = new AtomicBoolean();
        CountDownLatch estimating = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FakeStatistics stats = new FakeStatistics() {
            @Override
            public SwitchStatistics getSwitchStatistics(DatapathId dpid) {
                if (armed.getAndSet(false)) {
                    estimating.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.getSwitchStatistics(dpid);
            }
        };
        for (long tor = 1; tor <= 4; tor++) {
            stats.flows(tor, Instant.EPOCH);
        }
        runtime.statistics.bind(stats);
        runtime.start();
        armed.set(true);

        // The loop computes the next week halfway through this one: it estimates, and waits in the statistics.
        Thread loop = new Thread(() -> timer.advanceTo(10 * WEEK + WEEK / 2 + 1), "loop");
        loop.start();
        assertTrue(estimating.await(10, TimeUnit.SECONDS), "the loop estimating");
        Thread stopping = new Thread(runtime::stop, "stop");
        stopping.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (stopping.getState() != Thread.State.BLOCKED && stopping.isAlive() && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // until the stop waits for the loop's lock
        }
        release.countDown(); // the loop goes on to publish, which takes the runtime's lock

        loop.join(10_000);
        stopping.join(10_000);
        assertFalse(loop.isAlive(), "the loop published and ended");
        assertFalse(stopping.isAlive(), "the app stopped");
    }
}
