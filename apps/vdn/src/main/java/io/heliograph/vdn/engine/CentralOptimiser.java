package io.heliograph.vdn.engine;

import io.heliograph.solver.LinearModel;
import io.heliograph.solver.Solution;
import io.heliograph.solver.SolveOptions;
import io.heliograph.solver.SolveStatus;
import io.heliograph.solver.SolverService;
import java.time.Duration;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;

/**
 * The central controller's optimiser (§4.5): the integer program of Fig 4.8 over the pruned variables
 * ({@link ServeProgram}), made fast enough for thousands of videos on two cores by working from its LP
 * relaxation, as §4.9 advises:
 *
 * <ol>
 * <li>the greedy warm start ({@link GreedyTrees}), feasible, in milliseconds;</li>
 * <li>the LP relaxation, solved by GLOP: its optimum is a proven bound on the program's;</li>
 * <li>rounding: the requests again through residual capacity, those the relaxation serves most first,
 *     each along the path the relaxation uses most (the greedy's rules, so the trees stay feasible and
 *     pay for themselves); the best of these and the warm start is kept;</li>
 * <li>only while the gap to the bound is above the target and the program is small enough
 *     ({@link Options#exactVariables}), the integer program itself by SCIP, hinted with the best
 *     trees so far (its warm start), within what is left of the time limit; its bound tightens the
 *     LP's.</li>
 * </ol>
 *
 * The result is the best feasible distribution found, never worse than the warm start, with the least
 * bound proven (the relaxation's or SCIP's; the sum of all requests' service when the solver proved
 * none), so its {@link Distribution#gap()} is honest. Deterministic for a given problem as long as the
 * time limit does not cut a solve short (GLOP and SCIP search on one thread).
 */
public final class CentralOptimiser implements TreeOptimiser {

    public static final String NAME = "ip";

    /**
     * @param timeLimit     the whole decision's budget (the thesis's 60 s)
     * @param relativeGap   stop improving once {@code (bound − objective) / objective} is at most this
     * @param workers       the solver's threads, 1 or 2 (asked of the solver; GLOP and SCIP use one today)
     * @param exactVariables the most {@code Serves_{l,o}} variables for which the integer program is solved
     *                      exactly; above it the result is the relaxation's rounding
     */
    public record Options(Duration timeLimit, double relativeGap, int workers, int exactVariables) {

        /** At most this many solver threads: a controller's solver shares the machine with its I/O. */
        public static final int MAX_WORKERS = 2;

        public static final Options DEFAULT = new Options(Duration.ofSeconds(60), 0.01, MAX_WORKERS, 50_000);

        public Options {
            Objects.requireNonNull(timeLimit, "timeLimit");
            if (timeLimit.isNegative() || timeLimit.isZero()) {
                throw new IllegalArgumentException("time limit must be positive, was " + timeLimit);
            }
            if (!(relativeGap >= 0) || !Double.isFinite(relativeGap)) {
                throw new IllegalArgumentException("relative gap must be a finite number >= 0, was " + relativeGap);
            }
            if (workers < 1 || workers > MAX_WORKERS) {
                throw new IllegalArgumentException("workers must be 1.." + MAX_WORKERS + ", was " + workers);
            }
            if (exactVariables < 0) {
                throw new IllegalArgumentException("exact variables must be >= 0, was " + exactVariables);
            }
        }
    }

    /** GLOP's optimum is exact to its tolerances only: the bound is loosened by this, relatively. */
    private static final double LP_TOLERANCE = 1e-7;

    private final SolverService solver;
    private final Options options;

    public CentralOptimiser(SolverService solver, Options options) {
        this.solver = Objects.requireNonNull(solver, "solver");
        this.options = Objects.requireNonNull(options, "options");
    }

    public CentralOptimiser(SolverService solver) {
        this(solver, Options.DEFAULT);
    }

    public Options options() {
        return options;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Distribution optimise(Problem problem) {
        long start = System.nanoTime();
        long deadline = start + options.timeLimit().toNanos();
        ServeIndex index = new ServeIndex(problem);
        Incumbent best = new Incumbent(problem);
        best.offer(GreedyTrees.route(index, GreedyTrees.order(index), null).serves());
        double bound = index.serviceCeiling();

        if (!best.within(bound, options.relativeGap())) {
            ServeProgram program = new ServeProgram(index);
            ServeProgram.Linear relaxation = program.linear(false);
            Solution lp = solve(relaxation.model, deadline);
            if (lp != null && lp.status() == SolveStatus.OPTIMAL) {
                bound = Math.min(bound, lp.objective() + LP_TOLERANCE * Math.max(1, Math.abs(lp.objective())));
                round(index, relaxation, lp, best);
            }
            if (!best.within(bound, options.relativeGap()) && program.linkVariables() <= options.exactVariables()) {
                bound = Math.min(bound, exact(program, best, deadline));
            }
        }
        return new Distribution(problem, best.serves, NAME, Math.max(bound, best.objective),
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** The relaxation's solve; null when no time is left for it. */
    private Solution solve(LinearModel model, long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return null;
        }
        return solver.solve(model, new SolveOptions(Duration.ofNanos(left), options.workers()));
    }

    /**
     * The relaxation's rounding: the requests by how much the relaxation serves them, then in the greedy's
     * order, each along the path of most relaxed flow (the true price breaking ties), and once more in the
     * greedy's order along those paths; the best is offered.
     */
    private static void round(ServeIndex index, ServeProgram.Linear solved, Solution lp, Incumbent best) {
        double[] served = new double[index.requests()];
        for (int r = 0; r < served.length; r++) {
            served[r] = solved.served(lp, r);
        }
        TreeBuilder.Preference guided = (l, o) -> {
            double flow = solved.link(lp, l, o);
            return (index.price(l, o) + 1e-9) * (1 - Math.min(1, Math.max(0, flow)));
        };
        int[] byRelaxation = GreedyTrees.sorted(index,
                Comparator.comparingDouble(r -> -Math.rint(served[r] * 1e6)));
        best.offer(GreedyTrees.route(index, byRelaxation, guided).serves());
        best.offer(GreedyTrees.route(index, GreedyTrees.order(index), guided).serves());
        // objects by the service of all their requests per kbit/s: a 4K video many groups watch before
        // a 4.5 Mbit/s one a single group does, as the relaxation prefers when sources are the bottleneck
        int[] byObject = GreedyTrees.sorted(index, Comparator.comparingDouble(r -> {
            int o = index.requestObject[r];
            return -index.priority[o] * index.groups[o].length / index.bitrate[o];
        }));
        best.offer(GreedyTrees.route(index, byObject, guided).serves());
    }

    /** The integer program by SCIP, hinted with the best trees; returns the bound it proved (+inf: none). */
    private double exact(ServeProgram program, Incumbent best, long deadline) {
        ServeProgram.Linear ip = program.linear(true);
        ip.hint(best.serves);
        Solution solution = solve(ip.model, deadline);
        if (solution == null || !solution.status().hasSolution()) {
            return Double.POSITIVE_INFINITY;
        }
        best.offer(ip.serves(solution));
        double bound = solution.bestBound();
        return Double.isFinite(bound) ? bound + LP_TOLERANCE * Math.max(1, Math.abs(bound)) : Double.POSITIVE_INFINITY;
    }

    /** The best feasible trees found so far. */
    private static final class Incumbent {
        private final Problem problem;
        Map<String, BitSet> serves = Map.of();
        double objective;

        Incumbent(Problem problem) {
            this.problem = problem;
            objective = new Distribution(problem, serves, NAME, Double.NaN, Duration.ZERO).objective();
        }

        /** Keeps {@code trees} if feasible and better than the best so far. */
        void offer(Map<String, BitSet> trees) {
            Distribution candidate = new Distribution(problem, trees, NAME, Double.NaN, Duration.ZERO);
            if (candidate.violations().isEmpty() && candidate.objective() > objective) {
                serves = trees;
                objective = candidate.objective();
            }
        }

        boolean within(double bound, double gap) {
            return bound - objective <= gap * Math.max(1, Math.abs(objective));
        }
    }
}
