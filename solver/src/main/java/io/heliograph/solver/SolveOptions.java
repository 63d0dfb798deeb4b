package io.heliograph.solver;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a solve may run and on how many threads. At the time limit the solver stops and returns
 * the best solution it has ({@link SolveStatus#FEASIBLE}) or none ({@link SolveStatus#NOT_SOLVED}).
 * {@code workers} is a ceiling: CP-SAT searches with exactly that many threads; SCIP and GLOP use one.
 */
public record SolveOptions(Duration timeLimit, int workers) {

    /** The most threads one solve may ask for: a controller's solver shares the machine with its I/O. */
    public static final int MAX_WORKERS = 64;

    public SolveOptions {
        Objects.requireNonNull(timeLimit, "timeLimit");
        if (timeLimit.isNegative() || timeLimit.isZero()) {
            throw new IllegalArgumentException("time limit must be positive, was " + timeLimit);
        }
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be 1.." + MAX_WORKERS + ", was " + workers);
        }
    }

    /** One worker, {@code timeLimit}. */
    public static SolveOptions of(Duration timeLimit) {
        return new SolveOptions(timeLimit, 1);
    }
}
