package io.heliograph.vdn.engine;

/**
 * Makes the distribution trees of one decision period from a {@link Problem}. The central optimiser's
 * integer program and its greedy warm start are optimisers; so are the simulator's baselines that
 * decide per period. Thread-safe; a call may block up to the optimiser's time limit.
 */
public interface TreeOptimiser {

    /** A short name for tables and REST ({@code ip}, {@code greedy}, ...). */
    String name();

    Distribution optimise(Problem problem);
}
