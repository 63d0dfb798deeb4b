package io.heliograph.sims.vdn;

import io.heliograph.solver.SolverService;
import io.heliograph.vdn.engine.CentralOptimiser;
import io.heliograph.vdn.engine.TreeOptimiser;
import java.time.Duration;

/**
 * The one place the simulator makes VDN's optimiser: the §4.5 integer program on the controller's
 * solver, with the thesis's early termination by timeout. OM runs the same optimiser per channel.
 */
public final class VdnOptimisers {

    /** The thesis's timeout (§4.5: 60 s gives a gap of about 1 % up to 10,000 videos). */
    public static final Duration THESIS_TIME_LIMIT = Duration.ofSeconds(60);

    private VdnOptimisers() {
    }

    /**
     * VDN's central optimiser: the §4.5 integer program warm-started by {@code GreedyTrees}, stopped at
     * {@code timeLimit} or at its default gap, on the solver's threads the controller uses.
     */
    public static TreeOptimiser central(SolverService solver, Duration timeLimit) {
        CentralOptimiser.Options defaults = CentralOptimiser.Options.DEFAULT;
        return new CentralOptimiser(solver, new CentralOptimiser.Options(timeLimit, defaults.relativeGap(),
                defaults.workers(), defaults.exactVariables()));
    }
}
