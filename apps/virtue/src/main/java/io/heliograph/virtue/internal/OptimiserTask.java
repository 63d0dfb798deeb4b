package io.heliograph.virtue.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.cluster.ClusterSingleton;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.Measurements;
import io.heliograph.virtue.engine.Model;
import io.heliograph.virtue.engine.PlacementAlgorithm;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.PlacementResult;
import io.heliograph.virtue.engine.Progress;

/**
 * Runs the queued optimisations, on the one instance that leads the {@value #SINGLETON} singleton:
 * every {@value #POLL_MS} ms it looks for optimisations that are QUEUED, or RUNNING on an instance that
 * no longer leads (it died, or lost its ZooKeeper session: its run is taken over and started again), and
 * runs as many as it has threads for, off every I/O thread. Progress is written to the optimisation's
 * record at most every {@value #PROGRESS_MS} ms. When this instance stops leading, its runs are cancelled
 * at their next progress report and write nothing more; the next leader runs them again.
 */
final class OptimiserTask implements ClusterSingleton.Task {

    static final String SINGLETON = "virtue-optimiser";
    static final long POLL_MS = 500;
    static final long PROGRESS_MS = 500;
    private static final Logger LOG = LoggerFactory.getLogger(OptimiserTask.class);

    private final OptimisationStore optimisations;
    private final ExperimentStore experiments;
    private final String instance;
    private final BiFunction<String, Integer, Optional<PlacementAlgorithm>> algorithms;
    private final Supplier<ExecutorService> runs;
    private final IntSupplier threads;
    private final ScheduledExecutorService thread;
    private final Clock clock;

    /** Optimisations running here now, by id; each maps to its attempt. */
    private final Map<String, Integer> running = new ConcurrentHashMap<>();
    private volatile boolean leading;
    private ScheduledFuture<?> poll;

    /**
     * @param algorithms an algorithm by name and time limit in seconds (the Model needs the solver, which may be absent)
     * @param runs       where optimisations run now, {@code threads} of them at once (settings that change live)
     * @param thread     where the queue is polled
     */
    OptimiserTask(OptimisationStore optimisations, ExperimentStore experiments, String instance,
                  BiFunction<String, Integer, Optional<PlacementAlgorithm>> algorithms, Supplier<ExecutorService> runs,
                  IntSupplier threads,
                  ScheduledExecutorService thread, Clock clock) {
        this.optimisations = optimisations;
        this.experiments = experiments;
        this.instance = instance;
        this.algorithms = algorithms;
        this.runs = runs;
        this.threads = threads;
        this.thread = thread;
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        leading = true;
        poll = thread.scheduleWithFixedDelay(this::pollQuietly, 0, POLL_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        leading = false;
        if (poll != null) {
            poll.cancel(false);
            poll = null;
        }
        // the runs see leading == false at their next progress report and end
    }

    /** The optimisations running here now. */
    Set<String> running() {
        return Set.copyOf(running.keySet());
    }

    private void pollQuietly() {
        try {
            poll();
        } catch (StoreUnavailableException e) {
            LOG.debug("optimiser: no store session, looking again soon: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("optimiser: looking for queued optimisations failed", e);
        }
    }

    void poll() {
        for (Optimisation o : optimisations.list()) {
            if (!leading || running.size() >= threads.getAsInt()) {
                return;
            }
            boolean orphan = o.state() == Optimisation.State.RUNNING && !running.containsKey(o.id());
            if (o.state() == Optimisation.State.QUEUED || orphan) {
                claim(o.id());
            }
        }
    }

    private void claim(String id) {
        Optional<Optimisation> claimed = optimisations.update(id, now -> {
            boolean orphan = now.state() == Optimisation.State.RUNNING && !running.containsKey(now.id());
            return now.state() == Optimisation.State.QUEUED || orphan ? now.running(instance, clock.instant()) : null;
        });
        if (claimed.isEmpty()) {
            return;
        }
        Optimisation o = claimed.get();
        if (o.attempt() > 1) {
            LOG.info("optimisation {} of experiment {}: taken over by this instance (attempt {})", o.id(),
                    o.experiment(), o.attempt());
        }
        running.put(o.id(), o.attempt());
        try {
            runs.get().execute(() -> run(o));
        } catch (RejectedExecutionException e) {
            running.remove(o.id());
        }
    }

    private void run(Optimisation o) {
        long began = System.nanoTime();
        try {
            Edf edf = experiments.edf(o.experiment()).orElseThrow(
                    () -> new IllegalStateException("experiment " + o.experiment() + " is gone"));
            Measurements measurements = MeasurementsJson.read(optimisations.input(o.id()).orElseThrow(
                    () -> new IllegalStateException("its input measurements are gone")), "measurements");
            PlacementAlgorithm algorithm = algorithms.apply(o.algorithm(), o.timeLimitSeconds()).orElseThrow(
                    () -> new IllegalStateException("algorithm " + o.algorithm() + " is not available here (the Model "
                            + "needs the solver bundle)"));
            PlacementProblem problem = PlacementProblem.of(edf, measurements);
            Progress progress = progressOf(o, began);
            ScheduledFuture<?> ticker = timed(o) ? thread.scheduleAtFixedRate(() -> tick(progress), PROGRESS_MS,
                    PROGRESS_MS, TimeUnit.MILLISECONDS) : null;
            PlacementResult result;
            try {
                result = algorithm.place(problem, o.seed(), progress);
            } finally {
                if (ticker != null) {
                    ticker.cancel(false);
                }
            }
            long ms = (System.nanoTime() - began) / 1_000_000;
            optimisations.putResult(o.id(), PlacementReport.of(problem, result, ms));
            end(o, current -> current.done(clock.instant()));
            LOG.info("optimisation {} of experiment {} ({}) done in {} ms: {}", o.id(), o.experiment(),
                    o.algorithm(), ms, result);
        } catch (CancellationException e) {
            LOG.info("optimisation {} of experiment {}: stopped here, this instance leads the optimiser no more",
                    o.id(), o.experiment());
        } catch (RuntimeException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            LOG.warn("optimisation {} of experiment {} ({}) failed: {}", o.id(), o.experiment(), o.algorithm(), why);
            try {
                end(o, current -> current.failed(why, clock.instant()));
            } catch (RuntimeException again) {
                LOG.warn("optimisation {}: its failure could not be recorded: {}", o.id(), again.toString());
            }
        } finally {
            running.remove(o.id(), o.attempt());
        }
    }

    /** Writes the end of a run, if the record is still this run's. */
    private void end(Optimisation o, java.util.function.UnaryOperator<Optimisation> change) {
        if (!leading) {
            throw new CancellationException();
        }
        optimisations.update(o.id(), current -> mine(o, current) ? change.apply(current) : null);
    }

    /** The Model solves within a time limit and cannot say how far it is: its progress is the clock's. */
    private static boolean timed(Optimisation o) {
        return o.timeLimitSeconds() > 0 && Model.NAME.equals(o.algorithm());
    }

    private static void tick(Progress progress) {
        try {
            progress.reached(0);
        } catch (RuntimeException e) {
            // cancelled or the store is away: the run's own end says so
        }
    }

    private static boolean mine(Optimisation o, Optimisation current) {
        return current.state() == Optimisation.State.RUNNING && current.attempt() == o.attempt()
                && o.instance().equals(current.instance());
    }

    /**
     * Reports to the record at most every {@value #PROGRESS_MS} ms; ends the run when this instance leads
     * no more or the record is no longer this run's (deleted with its experiment, or taken over). An
     * algorithm bound by a time limit (the Model) reports by the clock: the share of its limit used.
     */
    private Progress progressOf(Optimisation o, long began) {
        AtomicLong last = new AtomicLong(System.nanoTime());
        boolean timed = timed(o);
        return fraction -> {
            if (!leading) {
                throw new CancellationException();
            }
            long now = System.nanoTime();
            long then = last.get();
            if ((now - then < Duration.ofMillis(PROGRESS_MS).toNanos() || !last.compareAndSet(then, now)) && fraction < 1) {
                return;
            }
            double shown = timed ? Math.min(0.99, (now - began) / 1e9 / o.timeLimitSeconds()) : fraction;
            Optional<Optimisation> written = optimisations.update(o.id(), current -> mine(o, current)
                    ? current.at(shown) : null);
            if (written.isEmpty()) {
                throw new CancellationException();
            }
        };
    }
}
