package io.heliograph.virtue.engine;

import io.heliograph.solver.CpModel;
import io.heliograph.solver.IntExpression;
import io.heliograph.solver.IntVar;
import io.heliograph.solver.Solution;
import io.heliograph.solver.SolveOptions;
import io.heliograph.solver.SolveStatus;
import io.heliograph.solver.SolverService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The Model (spec §3.3, Appendix C, L1738-1795): the placement as a mixed-integer program minimising
 * the Minimax (the most utilised PM CPU or link) under the same estimate as SA All and Greedy Fill
 * ({@link Energy#ALL}), solved by CP-SAT through the platform's {@link SolverService} with a time limit
 * and at most two workers; the result carries the solver's status, its proven bound and the gap
 * ({@link PlacementResult#bound()}).
 *
 * <p>The formulation, over binaries X(v,p) (VM v on PM p) and an integer y (the Minimax in
 * {@link #UNITS}ths):
 * <ul>
 *   <li>each VM on one PM, at most {@link PlacementProblem#maxVmsPerPm()} VMs on a PM (the spec's fix:
 *       Appendix C has no slot limit), each PM's VMs within its CPU capacity (Appendix C's constraint 4);
 *   <li>each PM's CPU utilisation at most y (constraint 1);
 *   <li>each link's utilisation at most y (constraint 2), its load the traffic matrix over the fixed
 *       fewest-hops routes between PMs that {@link PlacementProblem} routes every algorithm's traffic on.
 *       Appendix C routes each pair over free binary flow variables f(a,b,u,v) with flow conservation
 *       (constraints 6 to 8); with the routes fixed, f(a,b,u,v) is the product X(a,p) X(b,q) summed over
 *       the PM pairs (p,q) whose route crosses (u,v), linearised as Stecke's method [79] (the spec's
 *       z &ge; f + X - 1): a binary z(a,b,link) &ge; sum of X(a,p) over a group of source PMs + sum of X(b,q)
 *       over the target PMs all of them reach over the link - 1, one such row per group of source PMs
 *       with the same targets (in a tree, one row: the subtree below the link and the rest). A pair on one
 *       PM crosses no network link (the spec's fix for co-located pairs); a VM's own two links carry all
 *       its traffic wherever it is, so they only bound y from below. Only pairs with traffic get a z.
 * </ul>
 * Appendix C's link capacity (constraint 5) is left out, as every other algorithm here leaves it out: a
 * link is predicted above capacity only where no placement avoids it, and then the best placement is
 * still wanted, not "infeasible".
 *
 * <p>Loads and capacities go to the solver as whole bits (cycles) per second, and y as whole
 * {@link #UNITS}ths, so the solver's optimum is the true optimum to within 1/UNITS; the result's
 * predicted utilisations are the engine's own ({@link Utilisations}), as for every algorithm. With one
 * worker CP-SAT is deterministic; the solver service takes no seed, so the seed is not used.
 */
public final class Model implements PlacementAlgorithm {

    /** The name an EDF's {@code OPTIMIZER} carries. */
    public static final String NAME = "model";
    /** The Minimax's resolution in the program: y counts hundred-thousandths of a utilisation. */
    public static final long UNITS = 100_000;
    /** At most this many solver threads: a controller's solver shares the machine with its I/O. */
    public static final int MAX_WORKERS = 2;
    /** The time limit when none is given. (The thesis gave CPLEX 3 hours, L1127.) */
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(60);

    private final SolverService solver;
    private final Duration timeLimit;
    private final int workers;

    /** The Model solved within {@code timeLimit} on {@code workers} (1 or 2) solver threads. */
    public Model(SolverService solver, Duration timeLimit, int workers) {
        this.solver = Objects.requireNonNull(solver, "solver");
        this.timeLimit = Objects.requireNonNull(timeLimit, "timeLimit");
        if (timeLimit.isNegative() || timeLimit.isZero()) {
            throw new IllegalArgumentException("time limit must be positive, not " + timeLimit);
        }
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be 1 to " + MAX_WORKERS + ", not " + workers);
        }
        this.workers = workers;
    }

    /** The Model with {@link #DEFAULT_TIME_LIMIT} on {@link #MAX_WORKERS} threads. */
    public Model(SolverService solver) {
        this(solver, DEFAULT_TIME_LIMIT, MAX_WORKERS);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Energy energy() {
        return Energy.ALL;
    }

    @Override
    public PlacementResult place(PlacementProblem problem, long seed) {
        int n = problem.vmCount();
        int m = problem.pmCount();
        Program program = new Program(problem);
        Solution solution = solver.solve(program.model, new SolveOptions(timeLimit, workers));
        SolveStatus status = solution.status();
        if (status.hasSolution()) {
            int[] pmOf = new int[n];
            for (int v = 0; v < n; v++) {
                pmOf[v] = -1;
                for (int p = 0; p < m; p++) {
                    if (solution.value(program.x[v][p]) == 1) {
                        pmOf[v] = p;
                    }
                }
            }
            return PlacementResult.placed(this, problem, pmOf).withBound(new PlacementResult.Bound(status.name(),
                    solution.bestBound() / UNITS, solution.relativeGap()));
        }
        String why = switch (status) {
            case INFEASIBLE -> "no placement keeps every PM within " + problem.maxVmsPerPm()
                    + " VMs and its CPU capacity (proven by the solver)";
            case NOT_SOLVED -> String.format(Locale.ROOT, "the time limit of %.1f s ran out before the solver found"
                    + " a placement (not proven infeasible)", timeLimit.toMillis() / 1000.0);
            default -> "the solver ended " + status + " on the program " + program.model;
        };
        double bound = status == SolveStatus.NOT_SOLVED ? solution.bestBound() / UNITS : Double.NaN;
        return PlacementResult.infeasible(this, why).withBound(new PlacementResult.Bound(status.name(), bound, Double.NaN));
    }

    /** The program of one problem, with its assignment variables. */
    static final class Program {

        final CpModel model;
        final IntVar[][] x;
        final IntVar y;

        Program(PlacementProblem problem) {
            int n = problem.vmCount();
            int m = problem.pmCount();
            model = new CpModel("virtue-model");
            long[] cpuCycles = new long[n];
            long[] cpuCapacityCycles = new long[m];
            for (int v = 0; v < n; v++) {
                cpuCycles[v] = Math.round(problem.vmCpu[v] / PlacementProblem.SCALE);
            }
            for (int p = 0; p < m; p++) {
                cpuCapacityCycles[p] = Math.max(1, Math.round(problem.cpuCapacity[p] / PlacementProblem.SCALE));
            }
            int flows = problem.flowCount();
            long[] rateBits = new long[flows];
            for (int f = 0; f < flows; f++) {
                rateBits[f] = Math.round(problem.flowRate[f] / PlacementProblem.SCALE);
            }
            long[] capacityBits = new long[problem.linkCount()];
            for (int l = 0; l < capacityBits.length; l++) {
                capacityBits[l] = Math.max(1, Math.round(problem.linkCapacity[l] / PlacementProblem.SCALE));
            }

            // y's range: from what a VM's own links carry wherever it is, to all traffic on the thinnest link
            long[] upBits = new long[n];
            long[] downBits = new long[n];
            long allBits = 0;
            for (int f = 0; f < flows; f++) {
                upBits[problem.flowSource[f]] += rateBits[f];
                downBits[problem.flowDestination[f]] += rateBits[f];
                allBits += rateBits[f];
            }
            long allCycles = 0;
            for (long c : cpuCycles) {
                allCycles += c;
            }
            long lower = 0;
            for (int v = 0; v < n; v++) {
                lower = Math.max(lower, ceilUnits(upBits[v], capacityBits[problem.upLink(v)]));
                lower = Math.max(lower, ceilUnits(downBits[v], capacityBits[problem.downLink(v)]));
            }
            long upper = lower;
            for (long capacity : capacityBits) {
                upper = Math.max(upper, ceilUnits(allBits, capacity));
            }
            for (long capacity : cpuCapacityCycles) {
                upper = Math.max(upper, ceilUnits(allCycles, capacity));
            }
            y = model.intVar("y", lower, upper);

            x = new IntVar[n][m];
            for (int v = 0; v < n; v++) {
                IntExpression one = new IntExpression();
                for (int p = 0; p < m; p++) {
                    x[v][p] = model.boolVar("x_" + problem.vmIds[v] + "_" + problem.pmIds[p]);
                    one.plus(1, x[v][p]);
                }
                model.equal("one PM for " + problem.vmIds[v], one, 1);
            }
            for (int p = 0; p < m; p++) {
                IntExpression slots = new IntExpression();
                IntExpression cpu = new IntExpression();
                IntExpression utilisation = new IntExpression();
                for (int v = 0; v < n; v++) {
                    slots.plus(1, x[v][p]);
                    if (problem.vmCpu[v] > 0) {
                        cpu.plus(problem.vmCpu[v], x[v][p]);
                        utilisation.plus(Math.multiplyExact(UNITS, cpuCycles[v]), x[v][p]);
                    }
                }
                String pm = problem.pmIds[p];
                model.atMost("slots of " + pm, slots, problem.maxVmsPerPm());
                // exactly the engine's check (LoadState.fits): thousandths of cycles against the capacity
                model.atMost("CPU capacity of " + pm, cpu, (long) Math.floor(problem.cpuCapacity[p]));
                model.atMost("CPU utilisation of " + pm, utilisation.plus(-cpuCapacityCycles[p], y), 0);
            }

            List<List<Group>> groups = groupsByLink(problem);
            for (int l = 0; l < problem.fabricLinks; l++) {
                if (groups.get(l).isEmpty()) {
                    continue;
                }
                IntExpression load = new IntExpression();
                for (int f = 0; f < flows; f++) {
                    if (rateBits[f] == 0) {
                        continue;
                    }
                    int a = problem.flowSource[f];
                    int b = problem.flowDestination[f];
                    IntVar z = model.boolVar("z_" + problem.vmIds[a] + "_" + problem.vmIds[b] + "_" + l);
                    for (Group group : groups.get(l)) {
                        // z >= sum X(a, sources) + sum X(b, targets) - 1
                        IntExpression both = new IntExpression();
                        for (int p : group.sources()) {
                            both.plus(1, x[a][p]);
                        }
                        for (int q : group.targets()) {
                            both.plus(1, x[b][q]);
                        }
                        model.atMost("route of " + problem.vmIds[a] + "->" + problem.vmIds[b] + " over "
                                + problem.fabricLinkIds[l], both.plus(-1, z), 1);
                    }
                    load.plus(Math.multiplyExact(UNITS, rateBits[f]), z);
                }
                model.atMost("utilisation of " + problem.fabricLinkIds[l], load.plus(-capacityBits[l], y), 0);
            }
            model.minimize(new IntExpression().plus(1, y));
        }

        /** ceil(UNITS x load / capacity). */
        private static long ceilUnits(long load, long capacity) {
            long scaled = Math.multiplyExact(UNITS, load);
            return scaled / capacity + (scaled % capacity == 0 ? 0 : 1);
        }
    }

    /** Source PMs that all reach the same target PMs over a link. */
    record Group(int[] sources, int[] targets) {
    }

    /**
     * Per fabric link, the PM pairs whose route crosses it, as groups of source PMs with the same
     * targets: in a tree, one group (the PMs on the link's near side, to those on its far side).
     */
    static List<List<Group>> groupsByLink(PlacementProblem problem) {
        int m = problem.pmCount();
        int links = problem.fabricLinks;
        BitSet[][] targets = new BitSet[links][m];
        for (int p = 0; p < m; p++) {
            for (int q = 0; q < m; q++) {
                int source = p;
                int target = q;
                problem.forEachFabricLink(p, q, l -> {
                    if (targets[l][source] == null) {
                        targets[l][source] = new BitSet(m);
                    }
                    targets[l][source].set(target);
                });
            }
        }
        List<List<Group>> byLink = new ArrayList<>();
        for (int l = 0; l < links; l++) {
            Map<BitSet, List<Integer>> sourcesByTargets = new LinkedHashMap<>();
            for (int p = 0; p < m; p++) {
                if (targets[l][p] != null) {
                    sourcesByTargets.computeIfAbsent(targets[l][p], t -> new ArrayList<>()).add(p);
                }
            }
            List<Group> groups = new ArrayList<>();
            sourcesByTargets.forEach((to, from) -> groups.add(new Group(
                    from.stream().mapToInt(Integer::intValue).toArray(), to.stream().toArray())));
            byLink.add(groups);
        }
        return byLink;
    }
}
