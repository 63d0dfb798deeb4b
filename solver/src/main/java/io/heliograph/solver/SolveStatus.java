package io.heliograph.solver;

/** What a solve ended with. */
public enum SolveStatus {
    /** A solution proven optimal (within the solver's default gap tolerance, 1e-4 for SCIP). */
    OPTIMAL,
    /** A solution, not proven optimal: the time limit stopped the search. */
    FEASIBLE,
    /** Proven to have no solution. */
    INFEASIBLE,
    /** The objective can improve without end (linear models; CP-SAT variables are always bounded). */
    UNBOUNDED,
    /** Stopped (by the time limit) before finding a solution or proving there is none. */
    NOT_SOLVED,
    /** The solver refused the model, e.g. a coefficient too large for CP-SAT. */
    MODEL_INVALID,
    /** The solver failed (numerical trouble); no answer. */
    ABNORMAL;

    /** Whether the solution carries values: {@link #OPTIMAL} or {@link #FEASIBLE}. */
    public boolean hasSolution() {
        return this == OPTIMAL || this == FEASIBLE;
    }
}
