package io.heliograph.virtue.engine;

/**
 * One of the thesis's placement algorithms (spec §3): given an EDF and its run's measurements, a new
 * placement and the utilisations it is predicted to cause. The same problem and seed give the same
 * result. An algorithm that cannot place every VM within its constraints (the slot limit; CPU capacity
 * for one that knows CPU) returns {@link PlacementResult#infeasible} saying why, never a placement that
 * breaks one.
 */
public interface PlacementAlgorithm {

    /** The name the EDF's {@code OPTIMIZER} parameter carries ("greedyFill", "saAll", ...). */
    String name();

    /** The estimate this algorithm minimises. */
    Energy energy();

    PlacementResult place(PlacementProblem problem, long seed);

    /**
     * As {@link #place(PlacementProblem, long)}, telling {@code progress} how far it has got; the same
     * result. An algorithm that cannot say reports 1 at its end.
     */
    default PlacementResult place(PlacementProblem problem, long seed, Progress progress) {
        PlacementResult result = place(problem, seed);
        progress.reached(1);
        return result;
    }
}
