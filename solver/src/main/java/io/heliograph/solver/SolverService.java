package io.heliograph.solver;

/**
 * Solves models with OR-Tools. Registered by the solver bundle once its native libraries are loaded;
 * absent (and the reason logged) where they cannot load. Thread-safe: each call solves on its own.
 * A call blocks for up to the options' time limit, so never call it on an OpenFlow I/O thread: hand
 * the work to an executor of the app's.
 */
public interface SolverService {

    /** A linear program (no integer variable: GLOP) or a mixed-integer program (SCIP). */
    Solution solve(LinearModel model, SolveOptions options);

    /** A constraint program over integer variables (CP-SAT). */
    Solution solve(CpModel model, SolveOptions options);

    /** The OR-Tools version that solves, e.g. {@code 9.12.4544}. */
    String version();
}
