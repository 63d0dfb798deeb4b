package io.heliograph.circuit;

import java.util.Objects;

import io.heliograph.circuit.engine.WeekPlan;

/**
 * One week of the circuit schedule as the app published it: the week's number (weeks are numbered
 * from the epoch: week n starts at n x the scaled week), its start in real time, its days and nights,
 * the scheduler and estimator that made it, the demand it was computed from and what the circuits carry
 * per rack pair (bytes per week, source rack by destination rack; the rest of the demand is left to the
 * packet switch). The matrices are the caller's copies.
 */
public record ScheduleView(long week, long startEpochNanos, WeekPlan plan, String scheduler, String estimator,
        double[][] demand, double[][] circuitBytes) {

    public ScheduleView {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(estimator, "estimator");
        demand = copy(demand);
        circuitBytes = copy(circuitBytes);
    }

    @Override
    public double[][] demand() {
        return copy(demand);
    }

    @Override
    public double[][] circuitBytes() {
        return copy(circuitBytes);
    }

    /** Per rack pair, the demand the circuits leave to the packet switch. */
    public double[][] leftoverBytes() {
        double[][] left = new double[demand.length][];
        for (int i = 0; i < demand.length; i++) {
            left[i] = new double[demand[i].length];
            for (int j = 0; j < demand[i].length; j++) {
                left[i][j] = Math.max(0, demand[i][j] - circuitBytes[i][j]);
            }
        }
        return left;
    }

    private static double[][] copy(double[][] m) {
        Objects.requireNonNull(m, "matrix");
        double[][] c = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScheduleView v && v.week == week && v.startEpochNanos == startEpochNanos
                && v.plan.equals(plan) && v.scheduler.equals(scheduler) && v.estimator.equals(estimator)
                && java.util.Arrays.deepEquals(v.demand, demand) && java.util.Arrays.deepEquals(v.circuitBytes, circuitBytes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(week, startEpochNanos, plan, scheduler, estimator);
    }

    @Override
    public String toString() {
        return "week " + week + " (" + scheduler + ", " + estimator + ", " + plan.days().size() + " days)";
    }
}
