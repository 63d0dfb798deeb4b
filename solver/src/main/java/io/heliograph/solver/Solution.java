package io.heliograph.solver;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a solve found: its status, the objective of the best solution, the best bound proven on the
 * objective, their relative gap, and each variable's value (where {@link SolveStatus#hasSolution()}).
 * The gap is {@code |objective - bound| / max(1, |objective|)}: 0 once proven optimal (up to the
 * solver's tolerance), positive when the time limit stopped the search, NaN without a solution.
 */
public final class Solution {

    private final SolveStatus status;
    private final double objective;
    private final double bestBound;
    private final Duration wallTime;
    private final double[] values;
    private final long[] intValues;

    private Solution(SolveStatus status, double objective, double bestBound, Duration wallTime, double[] values,
            long[] intValues) {
        this.status = Objects.requireNonNull(status, "status");
        this.objective = objective;
        this.bestBound = bestBound;
        this.wallTime = Objects.requireNonNull(wallTime, "wallTime");
        this.values = values;
        this.intValues = intValues;
    }

    /** A solution of a {@link LinearModel}: {@code values} by {@link Variable#index()}, empty without a solution. */
    public static Solution ofLinear(SolveStatus status, double objective, double bestBound, Duration wallTime,
            double[] values) {
        return new Solution(status, objective, bestBound, wallTime, values.clone(), null);
    }

    /** A solution of a {@link CpModel}: {@code values} by {@link IntVar#index()}, empty without a solution. */
    public static Solution ofCp(SolveStatus status, double objective, double bestBound, Duration wallTime,
            long[] values) {
        return new Solution(status, objective, bestBound, wallTime, null, values.clone());
    }

    public SolveStatus status() {
        return status;
    }

    /** The objective of the best solution found; NaN without one. */
    public double objective() {
        return status.hasSolution() ? objective : Double.NaN;
    }

    /** The best bound proven on the objective (for a maximisation, nothing better than it exists). */
    public double bestBound() {
        return bestBound;
    }

    /** {@code |objective - bound| / max(1, |objective|)}; NaN without a solution. */
    public double relativeGap() {
        if (!status.hasSolution()) {
            return Double.NaN;
        }
        return Math.abs(objective - bestBound) / Math.max(1, Math.abs(objective));
    }

    /** How long the solver ran, as it measured it. */
    public Duration wallTime() {
        return wallTime;
    }

    /** The value of a {@link LinearModel}'s variable in the solution. */
    public double value(Variable variable) {
        if (values == null) {
            throw new IllegalArgumentException(variable + " is a linear model's variable; this is a CP-SAT solution");
        }
        checkValue(values.length, variable.index(), variable.name());
        return values[variable.index()];
    }

    /** The value of a {@link CpModel}'s variable in the solution. */
    public long value(IntVar variable) {
        if (intValues == null) {
            throw new IllegalArgumentException(variable + " is a CP-SAT variable; this is a linear model's solution");
        }
        checkValue(intValues.length, variable.index(), variable.name());
        return intValues[variable.index()];
    }

    private void checkValue(int length, int index, String name) {
        if (!status.hasSolution()) {
            throw new IllegalStateException("no value of " + name + ": the solve ended " + status);
        }
        if (index >= length) {
            throw new IllegalArgumentException(name + " is not a variable of the solved model");
        }
    }

    @Override
    public String toString() {
        return status + " objective " + objective() + " bound " + bestBound + " gap " + relativeGap() + " in "
                + wallTime.toMillis() + " ms" + (values != null ? Arrays.toString(values) : Arrays.toString(intValues));
    }
}
