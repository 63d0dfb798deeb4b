package io.heliograph.virtue.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.heliograph.core.testing.Eventually;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.virtue.engine.Algorithms;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.Energy;
import io.heliograph.virtue.engine.GreedyFill;
import io.heliograph.virtue.engine.Measurements;
import io.heliograph.virtue.engine.PlacementAlgorithm;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.PlacementResult;
import io.heliograph.virtue.engine.Progress;
import io.heliograph.virtue.engine.ThreeTierTree;

class OptimiserTaskTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final InMemorySharedStore store = new InMemorySharedStore();
    private final ExecutorService runs = Executors.newFixedThreadPool(2);
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        runs.shutdownNow();
        thread.shutdownNow();
    }

    /** Four PMs in two racks; the two chatty pairs start split across the racks, so Greedy Fill has work. */
    static Edf edf() {
        ThreeTierTree tree = new ThreeTierTree(1, 2, 2, 100e6, 50e6, 50e6);
        return tree.edf(new int[] {0, 2, 1, 3}, List.of(new int[] {0, 1}, new int[] {1, 0}, new int[] {2, 3},
                new int[] {3, 2}));
    }

    static Measurements measurements() {
        return Measurements.builder().cpu("vm0001", 1e8).cpu("vm0002", 1e8).cpu("vm0003", 1e8).cpu("vm0004", 1e8)
                .traffic("vm0001", "vm0002", 40e6).traffic("vm0002", "vm0001", 40e6)
                .traffic("vm0003", "vm0004", 30e6).traffic("vm0004", "vm0003", 30e6).build();
    }

    private Optimisation queue(String algorithm) {
        ExperimentStore experiments = new ExperimentStore(store);
        experiments.create(new Experiment("e1", "e1", ExperimentState.STOPPED, Clock.systemUTC().instant(), null, null,
                Map.of(), 0), edf());
        Optimisation o = Optimisation.queued("o1", "e1", algorithm, 7, 60, Clock.systemUTC().instant());
        new OptimisationStore(store).create(o, MeasurementsJson.write(measurements()));
        return o;
    }

    private OptimiserTask task(InMemorySharedStore on, String instance, PlacementAlgorithm algorithm) {
        return new OptimiserTask(new OptimisationStore(on), new ExperimentStore(on), instance,
                (name, limit) -> Optional.of(algorithm), () -> runs, () -> 1, thread, Clock.systemUTC());
    }

    private Optimisation record() {
        return new OptimisationStore(store).get("o1").orElseThrow();
    }

    private static void await(String what, BooleanSupplier condition) {
        Eventually.await(what, WAIT, condition);
    }

    @Test
    void theLeaderRunsAQueuedOptimisationAndStoresItsPlan() throws Exception {
        queue("greedyFill");
        OptimiserTask leader = task(store, "a", new GreedyFill());
        leader.start();
        await("the optimisation to end", () -> !record().state().pending());
        Optimisation done = record();
        assertEquals(Optimisation.State.DONE, done.state(), String.valueOf(done.error()));
        assertEquals("a", done.instance());
        assertEquals(1, done.attempt());
        assertEquals(1.0, done.progress());
        PlacementReport result = new OptimisationStore(store).result("o1").orElseThrow();
        // the plan joins each chatty pair on one PM: nothing crosses a ToR any more
        assertTrue(result.minimaxAfter() < result.minimaxBefore(), result.toString());
        assertFalse(result.moves().isEmpty());
        for (PlacementReport.Move move : result.moves()) {
            assertTrue(result.edf().pms().stream().anyMatch(pm -> pm.id().equals(move.to())
                    && pm.vms().containsKey(move.vm())), "the new EDF places " + move);
        }
        leader.stop();
    }

    @Test
    void aRunWhoseInstanceStopsLeadingIsTakenOverAndTheOldRunWritesNothingMore() throws Exception {
        queue("blocking");
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runsStarted = new AtomicInteger();
        PlacementAlgorithm blocking = new PlacementAlgorithm() {
            @Override
            public String name() {
                return "blocking";
            }

            @Override
            public Energy energy() {
                return Energy.ALL;
            }

            @Override
            public PlacementResult place(PlacementProblem problem, long seed) {
                return place(problem, seed, Progress.NONE);
            }

            @Override
            public PlacementResult place(PlacementProblem problem, long seed, Progress progress) {
                runsStarted.incrementAndGet();
                try {
                    while (!release.await(20, TimeUnit.MILLISECONDS)) {
                        progress.reached(0.5);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Algorithms.byName("greedyFill").orElseThrow().place(problem, seed, progress);
            }
        };
        OptimiserTask first = task(store, "a", blocking);
        first.start();
        await("the first instance's run", () -> record().state() == Optimisation.State.RUNNING
                && record().progress() == 0.5);
        assertEquals("a", record().instance());

        first.stop(); // it leads no more: its run ends at its next progress report
        await("the first run to end", () -> first.running().isEmpty());
        assertEquals(Optimisation.State.RUNNING, record().state(), "left RUNNING for the next leader");

        OptimiserTask second = task(store.anotherInstance("b"), "b", blocking);
        second.start();
        await("the second instance to take it over", () -> "b".equals(record().instance()));
        assertEquals(2, record().attempt());
        release.countDown();
        await("the optimisation to end", () -> !record().state().pending());
        assertEquals(Optimisation.State.DONE, record().state());
        assertEquals("b", record().instance());
        assertEquals(2, runsStarted.get());
        second.stop();
    }

    @Test
    void aRunThatFailsSaysWhyAndLeavesNoResult() throws Exception {
        queue("greedyFill");
        new ExperimentStore(store).delete("e1"); // its experiment is gone before it runs
        OptimiserTask leader = task(store, "a", new GreedyFill());
        leader.start();
        await("the optimisation to end", () -> !record().state().pending());
        assertEquals(Optimisation.State.FAILED, record().state());
        assertTrue(record().error().contains("experiment e1 is gone"), record().error());
        assertTrue(new OptimisationStore(store).result("o1").isEmpty());
        leader.stop();
    }
}
