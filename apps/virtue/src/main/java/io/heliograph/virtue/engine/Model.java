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
import java.util.HashMap;
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
 *       the PM pairs (p,q) whose route crosses (u,v). A pair on one PM crosses no network link (the spec's
 *       fix for co-located pairs); a VM's own two links carry all its traffic wherever it is, so they only
 *       bound y from below. Two statements of a link's load, both exact:
 *       <ul>
 *         <li>a <b>cut</b> ({@link Cut}): the link carries exactly the pairs from a PM in a set A to a PM
 *             outside it. In a tree every link is one (thesis footnote, L916): an up-link's A is the
 *             subtree below it, a down-link's the rest. With s(v,S) = sum of X(v,p) over the PMs p of the
 *             smaller side S (X itself for one PM), one integer per VM, w(v) &ge; T(v) s(v,S) - sum over
 *             peers u of T(v,u) s(u,S), w &ge; 0, is exactly v's traffic out of S (or, for S the far side,
 *             into it), and the load is the sum of w. That is one variable per VM and side, where one
 *             binary per pair with traffic and link would be 600,000 at 120 VMs / 80 PMs. Links with the
 *             same cut share their load. Where S holds few slots (a PM), also w(v) &ge; (T(v) - what v
 *             exchanges with its best peers that fit beside it) s(v,S);
 *         <li>otherwise (a graph with cycles), per pair with traffic a binary z &ge; sum X(a, sources) +
 *             sum X(b, targets) - 1 per group of source PMs with the same targets over the link, Stecke's
 *             linearisation [79] (the spec's z &ge; f + X - 1), and the load is the sum of rate x z.
 *       </ul>
 * </ul>
 * <p>Beyond Appendix C, none changing the optimum: y starts at the most any VM's traffic past the peers that
 * fit beside it must load a cut link wherever it is ({@link #residualBound}); PMs that are interchangeable
 * ({@link #interchangeable}: leaves of one switch with the same capacities) are ordered within their
 * class by the VMs they hold, which any placement meets after permuting each class; and the solve starts
 * from the best of the warm starts (Greedy Fill and SA All unless given, milliseconds at 120/80), hinted
 * complete, so a time limit ends with at least that placement, and with the solver's proven bound.
 *
 * <p>Appendix C's link capacity (constraint 5) is left out, as every other algorithm here leaves it out: a
 * link is predicted above capacity only where no placement avoids it, and then the best placement is
 * still wanted, not "infeasible".
 *
 * <p>Loads and capacities go to the solver as whole bits (cycles) per second, and y as whole
 * {@link #UNITS}ths, so the solver's optimum is the true optimum to within 1/UNITS; the result's
 * predicted utilisations are the engine's own ({@link Utilisations}), as for every algorithm. The seed goes
 * to the warm starts; with one worker CP-SAT is deterministic, so the Model is then.
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
    private final List<PlacementAlgorithm> warmStarts;

    /**
     * The Model solved within {@code timeLimit} on {@code workers} (1 or 2) solver threads, started from
     * the best feasible placement of {@code warmStarts} (each run first with the request's seed; none:
     * no warm start).
     */
    public Model(SolverService solver, Duration timeLimit, int workers, List<PlacementAlgorithm> warmStarts) {
        this.solver = Objects.requireNonNull(solver, "solver");
        this.timeLimit = Objects.requireNonNull(timeLimit, "timeLimit");
        if (timeLimit.isNegative() || timeLimit.isZero()) {
            throw new IllegalArgumentException("time limit must be positive, not " + timeLimit);
        }
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be 1 to " + MAX_WORKERS + ", not " + workers);
        }
        this.workers = workers;
        this.warmStarts = List.copyOf(warmStarts);
    }

    /** The Model within {@code timeLimit} on {@code workers} (1 or 2) threads, warm-started by {@link #defaultWarmStarts()}. */
    public Model(SolverService solver, Duration timeLimit, int workers) {
        this(solver, timeLimit, workers, defaultWarmStarts());
    }

    /** The Model with {@link #DEFAULT_TIME_LIMIT} on {@link #MAX_WORKERS} threads, warm-started. */
    public Model(SolverService solver) {
        this(solver, DEFAULT_TIME_LIMIT, MAX_WORKERS);
    }

    /** Greedy Fill and SA All: milliseconds at 120 VMs / 80 PMs, and the two best heuristics there. */
    public static List<PlacementAlgorithm> defaultWarmStarts() {
        return List.of(new GreedyFill(), new SimulatedAnnealing(Energy.ALL));
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
        int[] warm = null;
        double warmMinimax = Double.POSITIVE_INFINITY;
        for (PlacementAlgorithm start : warmStarts) {
            PlacementResult result = start.place(problem, seed);
            if (result.feasible()) {
                int[] pmOf = result.placement().orElseThrow().assignment();
                double minimax = Estimator.energy(problem, pmOf, Energy.ALL);
                if (minimax < warmMinimax) {
                    warm = pmOf;
                    warmMinimax = minimax;
                }
            }
        }
        Program program = new Program(problem);
        if (warm != null) {
            program.hint(warm);
        }
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
            if (warm != null && status != SolveStatus.OPTIMAL
                    && warmMinimax + 1.0 / UNITS < Estimator.energy(problem, pmOf, Energy.ALL)) {
                return fromWarmStart(problem, program, warm, solution.bestBound());
            }
            return PlacementResult.placed(this, problem, pmOf).withBound(new PlacementResult.Bound(status.name(),
                    solution.bestBound() / UNITS, solution.relativeGap()));
        }
        if (status == SolveStatus.NOT_SOLVED && warm != null) {
            return fromWarmStart(problem, program, warm, solution.bestBound());
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

    /**
     * The warm start's placement when the time limit stopped the solver with nothing better (CP-SAT
     * takes a complete hint as its first solution only once its presolve is done): FEASIBLE, with the
     * bound the solver proved and the gap to it, as the program measures the Minimax.
     */
    private PlacementResult fromWarmStart(PlacementProblem problem, Program program, int[] warm, double bestBound) {
        long objective = program.values(program.canonical(warm))[program.y.index()];
        double gap = Double.isNaN(bestBound) ? Double.NaN : Math.abs(objective - bestBound) / Math.max(1, Math.abs(objective));
        return PlacementResult.placed(this, problem, warm).withBound(new PlacementResult.Bound(
                SolveStatus.FEASIBLE.name(), bestBound / UNITS, gap));
    }

    /** The program of one problem, with its assignment variables. */
    static final class Program {

        final CpModel model;
        final IntVar[][] x;
        final IntVar y;
        /** Fabric links stated as a cut (one load per subtree side), and per pair of VMs with traffic. */
        int cutLinks;
        int pairLinks;
        /** Interchangeable PMs (leaves of one switch, same capacities), each class in index order. */
        final List<int[]> classes = new ArrayList<>();

        private final int vmCount;
        private final long symmetryBase;
        /** The variables other than x, each the least value its rows allow, in the order made. */
        private final List<Definition> definitions = new ArrayList<>();

        /** A variable at least each expression divided (rounding up) by its divisor, and its lower bound. */
        private record Definition(IntVar variable, List<IntExpression> atLeast, List<Long> divisors) {
        }

        Program(PlacementProblem problem) {
            int n = problem.vmCount();
            int m = problem.pmCount();
            vmCount = n;
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
            Traffic traffic = new Traffic(n, problem.flowSource, problem.flowDestination, rateBits);

            // y's range: from what a VM's own links carry wherever it is, and what must leave (enter) the
            // PM or subtree it is in past the peers that fit beside it, to all traffic on the thinnest link
            long lower = 0;
            for (int v = 0; v < n; v++) {
                lower = Math.max(lower, ceilUnits(traffic.total(v, true), capacityBits[problem.upLink(v)]));
                lower = Math.max(lower, ceilUnits(traffic.total(v, false), capacityBits[problem.downLink(v)]));
            }
            List<List<Group>> groups = groupsByLink(problem);
            Cut[] cuts = new Cut[problem.fabricLinks];
            for (int l = 0; l < problem.fabricLinks; l++) {
                cuts[l] = Cut.of(groups.get(l), m);
            }
            lower = Math.max(lower, residualBound(problem, traffic, cuts, capacityBits));
            long upper = lower;
            for (long capacity : capacityBits) {
                upper = Math.max(upper, ceilUnits(traffic.all(), capacity));
            }
            long allCycles = 0;
            for (long c : cpuCycles) {
                allCycles += c;
            }
            for (long capacity : cpuCapacityCycles) {
                upper = Math.max(upper, ceilUnits(allCycles, capacity));
            }
            y = model.intVar("y", lower, upper);
            List<IntExpression> yAtLeast = new ArrayList<>();
            List<Long> yDivisors = new ArrayList<>();

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
                model.atMost("CPU utilisation of " + pm, copy(utilisation).plus(-cpuCapacityCycles[p], y), 0);
                yAtLeast.add(utilisation);
                yDivisors.add(cpuCapacityCycles[p]);
            }

            // interchangeable PMs: in each class, a PM's key (count x K + the sum of its VMs' indices) is at
            // least the next one's; any placement becomes one of these by permuting each class's PMs
            symmetryBase = Math.multiplyExact((long) problem.maxVmsPerPm(), n);
            classes.addAll(interchangeable(problem));
            for (int[] members : classes) {
                for (int j = 0; j + 1 < members.length; j++) {
                    IntExpression order = new IntExpression();
                    for (int v = 0; v < n; v++) {
                        order.plus(symmetryBase + v, x[v][members[j]]).plus(-(symmetryBase + v), x[v][members[j + 1]]);
                    }
                    model.atLeast("symmetry of " + problem.pmIds[members[j]] + " and " + problem.pmIds[members[j + 1]],
                            order, 0);
                }
            }

            Map<Cut, IntExpression> loads = new HashMap<>();
            Map<BitSet, IntExpression[]> sides = new HashMap<>();
            for (int l = 0; l < problem.fabricLinks; l++) {
                if (groups.get(l).isEmpty()) {
                    continue;
                }
                IntExpression load;
                if (cuts[l] != null) {
                    cutLinks++;
                    load = loads.computeIfAbsent(cuts[l], cut -> cutLoad(problem, traffic, cut, sides));
                } else {
                    pairLinks++;
                    load = pairLoad(problem, rateBits, l, groups.get(l));
                }
                model.atMost("utilisation of " + problem.fabricLinkIds[l], copy(load).plus(-capacityBits[l], y), 0);
                yAtLeast.add(load);
                yDivisors.add(capacityBits[l]);
            }
            definitions.add(new Definition(y, yAtLeast, yDivisors));
            model.minimize(new IntExpression().plus(1, y));
        }

        /**
         * UNITS x the load on a link that {@code cut} describes: per VM v on the cut's side S (sending out
         * of S; for an entering cut, receiving into S), w(v) &ge; T(v) s(v,S) - sum over peers u of
         * T(v,u) s(u,S), w &ge; 0, where s(v,S) is 1 when v is in S: exactly v's traffic crossing the link.
         * When S holds few slots, also w(v) &ge; (T(v) - the most v can exchange with the VMs that fit
         * beside it) s(v,S).
         */
        private IntExpression cutLoad(PlacementProblem problem, Traffic traffic, Cut cut, Map<BitSet, IntExpression[]> sides) {
            IntExpression[] side = sides.computeIfAbsent(cut.side(), set -> side(problem, set));
            String name = (cut.leaving() ? "out of " : "into ") + cut.side();
            IntExpression load = new IntExpression();
            for (int v = 0; v < vmCount; v++) {
                long total = traffic.total(v, cut.leaving());
                if (total == 0) {
                    continue;
                }
                IntVar w = model.intVar("w_" + problem.vmIds[v] + "_" + name, 0, total);
                IntExpression crossing = times(total, side[v]);
                int[] peers = traffic.peers(v, cut.leaving());
                long[] rates = traffic.rates(v, cut.leaving());
                for (int i = 0; i < peers.length; i++) {
                    crossing = add(crossing, -rates[i], side[peers[i]]);
                }
                model.atMost("crossing of " + problem.vmIds[v] + " " + name, copy(crossing).plus(-1, w), 0);
                List<IntExpression> atLeast = new ArrayList<>(List.of(crossing));
                long residual = traffic.residual(v, cut.leaving(), slots(problem, cut.side()));
                if (residual > 0) {
                    IntExpression least = times(residual, side[v]);
                    model.atMost("least crossing of " + problem.vmIds[v] + " " + name, copy(least).plus(-1, w), 0);
                    atLeast.add(least);
                }
                definitions.add(new Definition(w, atLeast, ones(atLeast.size())));
                load.plus(UNITS, w);
            }
            return load;
        }
        /** Per VM, the expression that is 1 when it is on a PM of {@code set}: its x, or a new variable. */
        private IntExpression[] side(PlacementProblem problem, BitSet set) {
            IntExpression[] side = new IntExpression[vmCount];
            for (int v = 0; v < vmCount; v++) {
                IntExpression in = new IntExpression();
                for (int p = set.nextSetBit(0); p >= 0; p = set.nextSetBit(p + 1)) {
                    in.plus(1, x[v][p]);
                }
                if (set.cardinality() == 1) {
                    side[v] = in;
                } else {
                    IntVar s = model.boolVar("s_" + problem.vmIds[v] + "_" + set);
                    model.equal("side of " + problem.vmIds[v] + " in " + set, copy(in).plus(-1, s), 0);
                    definitions.add(new Definition(s, List.of(in), List.of(1L)));
                    side[v] = new IntExpression().plus(1, s);
                }
            }
            return side;
        }

        /**
         * UNITS x the load on link {@code l} per pair with traffic, for a link that is no cut (a graph with
         * cycles): a binary z(a,b) &ge; sum X(a, sources) + sum X(b, targets) - 1 per group of source PMs.
         */
        private IntExpression pairLoad(PlacementProblem problem, long[] rateBits, int l, List<Group> groups) {
            IntExpression load = new IntExpression();
            for (int f = 0; f < rateBits.length; f++) {
                if (rateBits[f] == 0) {
                    continue;
                }
                int a = problem.flowSource[f];
                int b = problem.flowDestination[f];
                IntVar z = model.boolVar("z_" + problem.vmIds[a] + "_" + problem.vmIds[b] + "_" + l);
                List<IntExpression> atLeast = new ArrayList<>();
                for (Group group : groups) {
                    IntExpression both = new IntExpression();
                    for (int p : group.sources()) {
                        both.plus(1, x[a][p]);
                    }
                    for (int q : group.targets()) {
                        both.plus(1, x[b][q]);
                    }
                    both.plus(-1);
                    model.atMost("route of " + problem.vmIds[a] + "->" + problem.vmIds[b] + " over "
                            + problem.fabricLinkIds[l], copy(both).plus(-1, z), 0);
                    atLeast.add(both);
                }
                definitions.add(new Definition(z, atLeast, ones(atLeast.size())));
                load.plus(Math.multiplyExact(UNITS, rateBits[f]), z);
            }
            return load;
        }

        /**
         * {@code pmOf} with each class of interchangeable PMs permuted so that it meets the symmetry rows
         * (the PMs' keys non-increasing, ties in index order): the same Minimax, a feasible hint.
         */
        int[] canonical(int[] pmOf) {
            int[] renamed = pmOf.clone();
            int[] to = new int[x[0].length];
            for (int p = 0; p < to.length; p++) {
                to[p] = p;
            }
            long[] key = new long[to.length];
            for (int v = 0; v < pmOf.length; v++) {
                key[pmOf[v]] += symmetryBase + v;
            }
            for (int[] members : classes) {
                Integer[] order = new Integer[members.length];
                for (int j = 0; j < members.length; j++) {
                    order[j] = members[j];
                }
                java.util.Arrays.sort(order, (p, q) -> key[p] != key[q] ? Long.compare(key[q], key[p]) : Integer.compare(p, q));
                for (int j = 0; j < members.length; j++) {
                    to[order[j]] = members[j];
                }
            }
            for (int v = 0; v < renamed.length; v++) {
                renamed[v] = to[pmOf[v]];
            }
            return renamed;
        }

        /**
         * Every variable's value for the placement {@code pmOf} (canonical: {@link #canonical}), each
         * derived variable at the least its rows allow; y is then the placement's Minimax in the program.
         */
        long[] values(int[] pmOf) {
            long[] values = new long[model.variables().size()];
            for (int v = 0; v < pmOf.length; v++) {
                values[x[v][pmOf[v]].index()] = 1;
            }
            for (Definition definition : definitions) {
                IntVar variable = definition.variable();
                long value = variable.lower();
                for (int i = 0; i < definition.atLeast().size(); i++) {
                    value = Math.max(value, ceilDiv(evaluate(definition.atLeast().get(i), values),
                            definition.divisors().get(i)));
                }
                values[variable.index()] = Math.min(value, variable.upper());
            }
            return values;
        }

        /** Hints every variable's value for {@code pmOf}, made canonical: a complete, feasible warm start. */
        void hint(int[] pmOf) {
            long[] values = values(canonical(pmOf));
            for (IntVar variable : model.variables()) {
                model.hint(variable, values[variable.index()]);
            }
        }

        private static long evaluate(IntExpression expression, long[] values) {
            long sum = expression.constant();
            for (Map.Entry<IntVar, Long> term : expression.terms().entrySet()) {
                sum = Math.addExact(sum, Math.multiplyExact(term.getValue(), values[term.getKey().index()]));
            }
            return sum;
        }

        private static IntExpression copy(IntExpression expression) {
            return add(new IntExpression(), 1, expression);
        }

        /** {@code target} plus {@code coefficient} x {@code expression}; {@code target} itself, changed. */
        private static IntExpression add(IntExpression target, long coefficient, IntExpression expression) {
            for (Map.Entry<IntVar, Long> term : expression.terms().entrySet()) {
                target.plus(Math.multiplyExact(coefficient, term.getValue()), term.getKey());
            }
            return target.plus(Math.multiplyExact(coefficient, expression.constant()));
        }

        private static IntExpression times(long coefficient, IntExpression expression) {
            return add(new IntExpression(), coefficient, expression);
        }

        private static List<Long> ones(int count) {
            return java.util.Collections.nCopies(count, 1L);
        }

        /** ceil(UNITS x load / capacity). */
        private static long ceilUnits(long load, long capacity) {
            return ceilDiv(Math.multiplyExact(UNITS, load), capacity);
        }
    }

    /** a / b rounded up, b positive (Math.ceilDiv is Java 18). */
    static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    /** How many VMs the PMs of {@code set} hold at most. */
    private static int slots(PlacementProblem problem, BitSet set) {
        return (int) Math.min(Integer.MAX_VALUE, (long) problem.maxVmsPerPm() * set.cardinality());
    }

    /**
     * A proven lower bound on y in UNITS: wherever a VM v is, each cut link whose side holds v's PM carries
     * at least v's traffic (out or in) past the peers that fit beside it on that side; the least over v's
     * possible PMs of the most such utilisation, the most over VMs.
     */
    static long residualBound(PlacementProblem problem, Traffic traffic, Cut[] cuts, long[] capacityBits) {
        int m = problem.pmCount();
        long bound = 0;
        for (int v = 0; v < problem.vmCount(); v++) {
            long[] at = new long[m];
            for (int l = 0; l < cuts.length; l++) {
                Cut cut = cuts[l];
                if (cut == null) {
                    continue;
                }
                long residual = traffic.residual(v, cut.leaving(), slots(problem, cut.side()));
                if (residual == 0) {
                    continue;
                }
                long units = ceilDiv(Math.multiplyExact(UNITS, residual), capacityBits[l]);
                for (int p = cut.side().nextSetBit(0); p >= 0; p = cut.side().nextSetBit(p + 1)) {
                    at[p] = Math.max(at[p], units);
                }
            }
            long least = Long.MAX_VALUE;
            for (long units : at) {
                least = Math.min(least, units);
            }
            bound = Math.max(bound, least);
        }
        return bound;
    }

    /**
     * Classes of interchangeable PMs: PMs whose switches are leaves of the same switch (one link out to
     * it, one link in from it) with the same capacities both ways and the same CPU capacity. Swapping
     * two of them maps every fewest-hops route onto one of the same length and capacities, and nothing
     * else in the program tells them apart. In index order; classes of one left out.
     */
    static List<int[]> interchangeable(PlacementProblem problem) {
        int m = problem.pmCount();
        Map<List<Object>, List<Integer>> byKey = new LinkedHashMap<>();
        for (int p = 0; p < m; p++) {
            int node = problem.pmNode[p];
            int up = -1;
            int down = -1;
            int outs = 0;
            int ins = 0;
            for (int l = 0; l < problem.fabricLinks; l++) {
                if (problem.fabricSource[l] == node) {
                    up = l;
                    outs++;
                }
                if (problem.fabricDestination[l] == node) {
                    down = l;
                    ins++;
                }
            }
            if (outs != 1 || ins != 1 || problem.fabricDestination[up] != problem.fabricSource[down]) {
                continue;
            }
            List<Object> key = List.of(problem.fabricDestination[up], problem.linkCapacity[up],
                    problem.linkCapacity[down], problem.cpuCapacity[p]);
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
        }
        List<int[]> classes = new ArrayList<>();
        for (List<Integer> members : byKey.values()) {
            if (members.size() > 1) {
                classes.add(members.stream().mapToInt(Integer::intValue).toArray());
            }
        }
        return classes;
    }

    /**
     * A link whose pairs are exactly those from a PM in a set A to a PM outside it (in a tree, every link:
     * A is the subtree below an up-link, or all but the subtree below a down-link), stated by its smaller
     * side: {@code side} = A with {@code leaving} (its load is what leaves A), or the complement of A
     * without (what enters it). Links with the same cut carry the same load.
     */
    record Cut(BitSet side, boolean leaving) {

        /** The cut of a link with these groups; null when the link is no cut. */
        static Cut of(List<Group> groups, int m) {
            if (groups.size() != 1) {
                return null;
            }
            BitSet sources = new BitSet(m);
            BitSet targets = new BitSet(m);
            for (int p : groups.get(0).sources()) {
                sources.set(p);
            }
            for (int q : groups.get(0).targets()) {
                targets.set(q);
            }
            BitSet complement = (BitSet) sources.clone();
            complement.flip(0, m);
            if (!complement.equals(targets)) {
                return null;
            }
            return sources.cardinality() <= targets.cardinality() ? new Cut(sources, true) : new Cut(targets, false);
        }
    }

    /** The traffic matrix in whole bits per second, per VM out and in, peers sorted by rate, largest first. */
    static final class Traffic {

        private final int[][][] peers = new int[2][][];
        private final long[][][] rates = new long[2][][];
        private final long[][] prefix = new long[2][];
        private final long[][][] sums = new long[2][][];
        private long all;

        Traffic(int n, int[] source, int[] destination, long[] rateBits) {
            for (int d = 0; d < 2; d++) {
                List<List<long[]>> lists = new ArrayList<>();
                for (int v = 0; v < n; v++) {
                    lists.add(new ArrayList<>());
                }
                for (int f = 0; f < rateBits.length; f++) {
                    if (rateBits[f] > 0) {
                        int own = d == 0 ? source[f] : destination[f];
                        int peer = d == 0 ? destination[f] : source[f];
                        lists.get(own).add(new long[] {peer, rateBits[f]});
                    }
                }
                peers[d] = new int[n][];
                rates[d] = new long[n][];
                sums[d] = new long[n][];
                prefix[d] = new long[n];
                for (int v = 0; v < n; v++) {
                    List<long[]> list = lists.get(v);
                    list.sort((a, b) -> a[1] != b[1] ? Long.compare(b[1], a[1]) : Long.compare(a[0], b[0]));
                    peers[d][v] = list.stream().mapToInt(e -> (int) e[0]).toArray();
                    rates[d][v] = list.stream().mapToLong(e -> e[1]).toArray();
                    sums[d][v] = new long[list.size() + 1];
                    for (int i = 0; i < list.size(); i++) {
                        sums[d][v][i + 1] = sums[d][v][i] + rates[d][v][i];
                    }
                    prefix[d][v] = sums[d][v][list.size()];
                }
            }
            for (long total : prefix[0]) {
                all += total;
            }
        }

        long all() {
            return all;
        }

        /** What {@code v} sends ({@code out}) or receives in all. */
        long total(int v, boolean out) {
            return prefix[out ? 0 : 1][v];
        }

        int[] peers(int v, boolean out) {
            return peers[out ? 0 : 1][v];
        }

        long[] rates(int v, boolean out) {
            return rates[out ? 0 : 1][v];
        }

        /** What {@code v} sends (receives) beyond what it can exchange with the {@code slots - 1} VMs beside it. */
        long residual(int v, boolean out, int slots) {
            long[] sum = sums[out ? 0 : 1][v];
            int beside = Math.max(0, Math.min(slots - 1, sum.length - 1));
            return sum[sum.length - 1] - sum[beside];
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
