package io.heliograph.core;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A round an app repeats on its worker thread ({@link WorkerThreads#single}) at an interval that its
 * configuration may change live: a probe round, a sweep, a poll. Each round starts an interval after
 * the previous one ended, so a slow round delays the next and never overlaps it; a round that fails
 * is logged and the next one still runs (an exception would otherwise end the schedule silently).
 */
public final class PeriodicTask {

    private static final Logger LOG = LoggerFactory.getLogger(PeriodicTask.class);

    private final ScheduledExecutorService thread;
    private final String name;
    private final Runnable round;
    private ScheduledFuture<?> scheduled;

    /** @param name says which round failed in the log */
    public PeriodicTask(ScheduledExecutorService thread, String name, Runnable round) {
        this.thread = Objects.requireNonNull(thread, "thread");
        this.name = Objects.requireNonNull(name, "name");
        this.round = Objects.requireNonNull(round, "round");
    }

    /**
     * Runs the round every {@code intervalMs}, the first after {@code firstDelayMs}, in place of the
     * schedule before (a round running now finishes). Nothing once the thread is stopped.
     */
    public synchronized void every(long intervalMs, long firstDelayMs) {
        cancel();
        try {
            scheduled = thread.scheduleWithFixedDelay(this::runRound, firstDelayMs, intervalMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The app is stopping.
        }
    }

    /** No more rounds (a round running now finishes). */
    public synchronized void cancel() {
        if (scheduled != null) {
            scheduled.cancel(false);
            scheduled = null;
        }
    }

    private void runRound() {
        try {
            round.run();
        } catch (RuntimeException e) {
            LOG.error("{} failed; the next one runs as scheduled", name, e);
        }
    }
}
