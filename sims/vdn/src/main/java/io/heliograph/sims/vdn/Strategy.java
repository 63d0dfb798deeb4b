package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.TreeOptimiser;

/**
 * How one system decides a window's trees: VDN, OM and EE from the window's requests alone (a
 * {@link TreeOptimiser}); the DNS-based CDN also from when each request arrived and what it decided
 * before. A strategy may return an infeasible distribution (EE ignores capacity, the CDN follows
 * cached decisions); {@link Delivery} measures what the links actually deliver.
 */
public interface Strategy {

    String name();

    /**
     * The trees for a window's problem.
     *
     * @param arrivals seconds since the trace began at which each of {@code problem.requests()} arrived,
     *                 in the same order (ascending)
     */
    Distribution decide(Problem problem, double[] arrivals);

    /** A strategy that is an optimiser run on each window, blind to arrival times. */
    static Strategy of(TreeOptimiser optimiser) {
        return of(optimiser.name(), optimiser);
    }

    static Strategy of(String name, TreeOptimiser optimiser) {
        return new Strategy() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Distribution decide(Problem problem, double[] arrivals) {
                return optimiser.optimise(problem);
            }
        };
    }
}
