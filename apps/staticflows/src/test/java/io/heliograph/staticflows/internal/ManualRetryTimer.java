package io.heliograph.staticflows.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.heliograph.core.testing.ManualClock;

/**
 * A {@link RetryTimer} whose time moves only when the test moves it: a scheduled task runs when the
 * test advances the clock to its time, on the test's thread, so retries are tested without sleeping.
 */
final class ManualRetryTimer implements RetryTimer {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final ManualClock clock = new ManualClock(START);
    private final List<Task> tasks = new ArrayList<>();
    private long scheduled;

    private static final class Task {
        final Instant due;
        final long order;
        final Runnable run;
        boolean cancelled;

        Task(Instant due, long order, Runnable run) {
            this.due = due;
            this.order = order;
            this.run = run;
        }
    }

    @Override
    public Instant now() {
        return clock.instant();
    }

    @Override
    public synchronized Scheduled schedule(Runnable task, long delayMs) {
        Task t = new Task(clock.instant().plusMillis(delayMs), scheduled++, task);
        tasks.add(t);
        return () -> {
            synchronized (this) {
                t.cancelled = true;
                tasks.remove(t);
            }
        };
    }

    /** Moves the time forward, running each task that falls due at its own time, in order (a task may schedule more). */
    void advance(Duration by) {
        Instant until = clock.instant().plus(by);
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().min(Comparator.comparing((Task t) -> t.due).thenComparingLong(t -> t.order))
                        .filter(t -> !t.due.isAfter(until)).orElse(null);
                if (next == null) {
                    break;
                }
                tasks.remove(next);
                clock.advance(Duration.between(clock.instant(), next.due));
            }
            next.run.run();
        }
        clock.advance(Duration.between(clock.instant(), until));
    }

    /** Moves the time to the next task and runs it; returns how long that was from now. */
    Duration runNext() {
        Duration wait = untilNext();
        if (wait == null) {
            throw new AssertionError("nothing is scheduled");
        }
        advance(wait);
        return wait;
    }

    /** How long until the next task is due; null when none is scheduled. */
    synchronized Duration untilNext() {
        return tasks.stream().map(t -> t.due).min(Comparator.naturalOrder())
                .map(due -> Duration.between(clock.instant(), due)).orElse(null);
    }

    synchronized int scheduledCount() {
        return tasks.size();
    }
}
