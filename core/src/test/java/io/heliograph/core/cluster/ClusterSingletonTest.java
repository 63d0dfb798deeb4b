package io.heliograph.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.heliograph.core.WorkerThreads;
import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.InMemorySharedStore;

/** Instances "a" and "b" of one cluster run the singleton "planner"; the log says who started and stopped it. */
class ClusterSingletonTest {

    private final List<String> log = new CopyOnWriteArrayList<>();
    private final InMemorySharedStore storeA = new InMemorySharedStore();
    private final InMemorySharedStore storeB = storeA.anotherInstance("b");
    /** One thread for both instances, so what the store tells them is seen in the order it was told. */
    private final ScheduledExecutorService thread = WorkerThreads.single("heliograph-app");

    private ClusterSingleton.Task task(String instance) {
        return new ClusterSingleton.Task() {
            @Override
            public void start() {
                log.add(instance + " started on " + Thread.currentThread().getName());
            }

            @Override
            public void stop() {
                log.add(instance + " stopped");
            }
        };
    }

    @AfterEach
    void stopThreads() {
        WorkerThreads.stop(thread, "app", Duration.ofSeconds(2));
    }

    /** Waits until what was handed to the thread so far has run. */
    private void drain() {
        try {
            thread.submit(() -> { }).get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void waitFor(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Test
    void itRunsOnOneInstanceAndMovesToAnotherWhenThatOneLosesItsSession() {
        ClusterSingleton a = new ClusterSingleton(storeA, "planner", task("a"), thread);
        ClusterSingleton b = new ClusterSingleton(storeB, "planner", task("b"), thread);
        a.start();
        waitFor(a::running, "a, the first to compete, runs it");
        b.start();
        drain(); // b competes
        assertFalse(b.running(), "never on two instances");
        assertTrue(storeA.isLeader(ClusterSingleton.PREFIX + "/planner"));

        storeA.setAvailable(false); // a's session is lost: a is told first, then b leads
        waitFor(() -> b.running() && !a.running(), "moved to b");
        assertEquals(List.of("a started on heliograph-app", "a stopped", "b started on heliograph-app"), log);

        storeA.setAvailable(true);
        b.close(); // b gives it up: a, still a candidate, takes it back
        waitFor(a::running, "back on a");
        assertFalse(b.running());
        assertEquals(List.of("a started on heliograph-app", "a stopped", "b started on heliograph-app", "b stopped",
                "a started on heliograph-app"), log);
        a.close();
        assertFalse(a.running());
        assertEquals("a stopped", log.get(log.size() - 1), "closing stops it where it runs");
    }

    @Test
    void aCandidacyRefusedForWantOfASessionIsAskedAgainWhenTheSessionIsBack() {
        storeA.setAvailable(false);
        ClusterSingleton a = new ClusterSingleton(storeA, "planner", task("a"), thread);
        a.start();
        drain();
        assertFalse(a.running());
        storeA.setAvailable(true);
        a.connectionChanged(true);
        waitFor(a::running, "runs once the session is back");
        a.close();
    }

    @Test
    void withoutWordOfTheSessionTheCandidacyIsRetried() {
        storeA.setAvailable(false);
        ClusterSingleton a = new ClusterSingleton(storeA, "planner", task("a"), thread);
        a.start();
        storeA.setAvailable(true);
        waitFor(a::running, "runs after a retry (" + ClusterSingleton.RETRY_MS + " ms)");
        a.close();
    }

    /** Opened through the app's binding, it stops with the store and runs again when a store is back. */
    @Test
    void throughTheAppsBindingItFollowsTheStore() {
        ClusterSharing<ClusterSingleton> sharing = new ClusterSharing<>("planner",
                (store, cluster, thread) -> new ClusterSingleton(store, "planner", task("a"), thread), ended -> { });
        try {
            sharing.start();
            sharing.bindCluster(new FakeClusterService("a"));
            sharing.bindStore(storeA);
            waitFor(() -> sharing.current() != null && sharing.current().running(), "runs");
            sharing.unbindStore(storeA);
            // the sharing leaves current() before it is closed, on the sharing's thread
            waitFor(() -> sharing.current() == null && log.size() == 2, "stopped with the store");
            assertEquals(List.of("a started on heliograph-planner-store", "a stopped"), log);
            assertFalse(storeA.isLeader(ClusterSingleton.PREFIX + "/planner"), "the leadership given up");
            sharing.bindStore(storeA);
            waitFor(() -> log.size() == 3, "runs again");
        } finally {
            sharing.stop();
        }
        assertEquals(List.of("a started on heliograph-planner-store", "a stopped", "a started on heliograph-planner-store",
                "a stopped"), log);
    }
}
