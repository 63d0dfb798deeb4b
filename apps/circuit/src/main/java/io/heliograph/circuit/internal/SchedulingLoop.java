package io.heliograph.circuit.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.circuit.ScheduleView;
import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.engine.Schedule;
import io.heliograph.circuit.engine.Scheduler;
import io.heliograph.circuit.engine.WeekPlan;

/**
 * The scheduling loop (spec §2.2: estimate, compute, disseminate each week): weeks are numbered from the
 * epoch (week n starts at n x the scaled week, so every instance agrees on the boundaries and a loop
 * taking over keeps the same weeks). Halfway through week n it estimates the demand and computes week
 * n + 1 with the scheduler chosen now, and publishes it as next; at the boundary next becomes current.
 * A scheduler or estimator that throws leaves the week in force: the error is recorded and published,
 * and at the boundary the current week repeats. Runs only where the timer runs its tasks (the app's
 * thread); every method is synchronized, and tasks of an earlier start are ignored.
 */
final class SchedulingLoop {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulingLoop.class);

    /** Runs a task at an epoch instant (nanoseconds); the returned handle cancels it. */
    interface Timer {
        Runnable at(long epochNanos, Runnable task);
    }

    /** The demand of one estimator, as the loop takes it. */
    record Estimate(String estimator, double[][] demand) {
    }

    /** What the loop reads each week: the choice in force and the estimate of its estimator. */
    interface Inputs {
        SchedulerChoice choice();

        /** May throw: the loop keeps the week in force and records the error. */
        Estimate estimate(String estimator);
    }

    private final CircuitParameters network;
    private final long weekNanos;
    private final LongSupplier nowNanos;
    private final Timer timer;
    private final Inputs inputs;
    private final Consumer<PublishedWeeks> publish;
    private final String instance;

    private boolean running;
    private long generation;
    private final List<Runnable> pending = new ArrayList<>();
    private ScheduleView current;
    private ScheduleView next;
    private String error;
    private long errorAtMillis;
    private long errors;

    SchedulingLoop(CircuitParameters network, long weekNanos, LongSupplier nowNanos, Timer timer, Inputs inputs,
            Consumer<PublishedWeeks> publish, String instance) {
        this.network = network;
        this.weekNanos = weekNanos;
        this.nowNanos = nowNanos;
        this.timer = timer;
        this.inputs = inputs;
        this.publish = publish;
        this.instance = instance;
    }

    /**
     * Begins at the week in progress. {@code previous} is what was published before (another instance's
     * loop, or this one's before a restart): its weeks are kept if they are this week's and the next's.
     */
    synchronized void start(PublishedWeeks previous) {
        if (running) {
            return;
        }
        running = true;
        long gen = ++generation;
        long week = Math.floorDiv(nowNanos.getAsLong(), weekNanos);
        ScheduleView before = previous == null ? null : fits(previous.current());
        ScheduleView beforeNext = previous == null ? null : fits(previous.next());
        if (beforeNext != null && beforeNext.week() == week) {
            before = beforeNext;
            beforeNext = null;
        }
        current = before != null && before.week() == week ? before : null;
        next = beforeNext != null && beforeNext.week() == week + 1 ? beforeNext : null;
        if (current == null) {
            ScheduleView computed = compute(week);
            current = computed != null ? computed : before == null ? null : repeat(before, week);
        }
        publish();
        schedule(gen, week);
    }

    synchronized void stop() {
        running = false;
        generation++;
        for (Runnable cancel : pending) {
            cancel.run();
        }
        pending.clear();
    }

    synchronized boolean running() {
        return running;
    }

    synchronized PublishedWeeks published() {
        return new PublishedWeeks(current, next, error, errorAtMillis, errors, instance);
    }

    /** Week {@code week} is in force: computes the next one halfway, swaps at its end. */
    private void schedule(long gen, long week) {
        pending.clear();
        long start = week * weekNanos;
        if (next == null) {
            pending.add(timer.at(start + weekNanos / 2, () -> computeNext(gen, week + 1)));
        }
        pending.add(timer.at(start + weekNanos, () -> boundary(gen, week + 1)));
    }

    private synchronized void computeNext(long gen, long week) {
        if (!running || gen != generation || next != null) {
            return;
        }
        next = compute(week);
        if (next != null) {
            publish();
        }
    }

    private synchronized void boundary(long gen, long week) {
        if (!running || gen != generation) {
            return;
        }
        if (next != null && next.week() == week) {
            current = next;
        } else if (current != null) {
            current = repeat(current, week);
        } else {
            current = compute(week);
        }
        next = null;
        publish();
        schedule(gen, week);
    }

    /** Week {@code week} from the estimate now; null (and the error recorded and published) when it failed. */
    private ScheduleView compute(long week) {
        SchedulerChoice choice = inputs.choice();
        try {
            Estimate estimate = inputs.estimate(choice.estimator());
            Scheduler scheduler = choice.newScheduler(network);
            Schedule schedule = scheduler.schedule(estimate.demand(), network, week);
            return new ScheduleView(week, week * weekNanos, WeekPlan.of(schedule), choice.scheduler(),
                    estimate.estimator(), estimate.demand(), schedule.circuitBytes());
        } catch (RuntimeException e) {
            errors++;
            error = "week " + week + " (" + choice.scheduler() + ", " + choice.estimator() + "): " + e.getMessage();
            errorAtMillis = Math.floorDiv(nowNanos.getAsLong(), 1_000_000L);
            LOG.warn("circuit: the schedule in force stays: {}", error);
            publish();
            return null;
        }
    }

    /** A week published for this network (not for the one before a configuration change), else null. */
    private ScheduleView fits(ScheduleView view) {
        if (view == null) {
            return null;
        }
        try {
            view.plan().check(network);
            return view.demand().length == network.racks() ? view : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private ScheduleView repeat(ScheduleView view, long week) {
        return new ScheduleView(week, week * weekNanos, view.plan(), view.scheduler(), view.estimator(), view.demand(),
                view.circuitBytes());
    }

    private void publish() {
        try {
            publish.accept(published());
        } catch (RuntimeException e) {
            LOG.error("circuit: publishing the weeks failed", e);
        }
    }
}
