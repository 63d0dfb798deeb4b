package io.heliograph.circuit.internal;

import io.heliograph.circuit.engine.WeekPlan;

/**
 * A circuit app runtime alone (no cluster), on a manual clock, with its loop started: the REST tests'
 * app. Public for the tests of internal.rest.
 */
public final class CircuitFixture implements AutoCloseable {

    /** 2 s weeks, the defaults'. */
    public static final long WEEK_NANOS = 2_000_000_000L;

    private final ManualTimer timer = new ManualTimer(10 * WEEK_NANOS + 1);
    private final CircuitRuntime runtime;

    public CircuitFixture() {
        runtime = new CircuitRuntime(CircuitSettings.DEFAULTS, "test", timer::now, timer);
        runtime.start();
    }

    public Circuit circuit() {
        return runtime;
    }

    /** The week in force's days and nights. */
    public WeekPlan currentPlan() {
        return runtime.current().orElseThrow().plan();
    }

    public long adusOpen() {
        return runtime.currentSetup().adu().openFlows();
    }

    /** Moves the clock by a fraction of a week, running the loop's tasks due. */
    public void advanceWeeks(double weeks) {
        timer.advanceTo(timer.now() + (long) (weeks * WEEK_NANOS));
    }

    @Override
    public void close() {
        runtime.stop();
    }
}
