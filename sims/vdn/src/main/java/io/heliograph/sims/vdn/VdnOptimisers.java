package io.heliograph.sims.vdn;

import io.heliograph.solver.SolverService;
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
     * VDN's central optimiser.
     *
     * <p>TO WIRE AFTER THE MERGE: with helper vdnopt's API (its commit 3b41abb), the body is
     * <pre>{@code
     * return new CentralOptimiser(solver, new CentralOptimiser.Options(timeLimit,
     *         CentralOptimiser.Options.DEFAULT.relativeGap(), CentralOptimiser.Options.MAX_WORKERS,
     *         CentralOptimiser.Options.DEFAULT.exactVariables()));
     * }</pre>
     * (the §4.5 integer program, warm-started by {@code GreedyTrees}); nothing else in the simulator
     * changes, and {@code VdnDirectionTest} is then enabled.
     *
     * @throws UnsupportedOperationException until the central optimiser is on this branch
     */
    public static TreeOptimiser central(SolverService solver, Duration timeLimit) {
        throw new UnsupportedOperationException("VDN's central optimiser (CentralOptimiser, issue 24) is not on this "
                + "branch yet: wire it in VdnOptimisers.central once merged");
    }
}
