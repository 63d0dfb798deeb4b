package io.heliograph.vdn.engine;

import io.heliograph.solver.LinearModel;
import io.heliograph.solver.Solution;
import io.heliograph.solver.SolveOptions;
import io.heliograph.solver.SolveStatus;
import io.heliograph.solver.SolverService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * The central controller's optimiser (§4.5): the integer program of Fig 4.8 over the pruned variables
 * ({@link ServeProgram}), made fast enough for thousands of videos on two cores by working from its LP
 * relaxation, as §4.9 advises:
 *
 * <ol>
 * <li>the greedy warm start ({@link GreedyTrees}), feasible, in milliseconds;</li>
 * <li>the LP relaxation, solved by GLOP within nine tenths of the time limit: its optimum is a proven
 *     bound on the program's; should it not finish (dense topologies of hundreds of thousands of link
 *     variables), the warm start refined by the local search below, in the tenth kept, is the
 *     decision;</li>
 * <li>rounding: the requests again through residual capacity, those the relaxation serves whole first,
 *     each along the path the relaxation uses most (the greedy's rules, so the trees stay feasible and
 *     pay for themselves), the bitrate classes in every order; the best of these and the warm start is
 *     kept;</li>
 * <li>while the gap is above the target: a local search on the rounding's best trees ({@link #refine}),
 *     which gathers the free space stranded on full links, evicts small objects to where they fit for
 *     large ones, and rejoins shared objects' groups to trees that have grown; then, if still above, a
 *     reordering search over the rounding's best order, its best trees refined the same way;</li>
 * <li>only while the gap to the bound is above the target: where the program is small enough
 *     ({@link Options#exactVariables}), the integer program itself, hinted with the best trees so far
 *     (its warm start), within what is left of the time limit (SCIP up to {@link #SCIP_VARIABLES}
 *     variables, where it proves optimality; CP-SAT above, where it finds better trees); where it is
 *     larger, the objects the relaxation decides integrally keep its trees and the integer program is
 *     solved for the others alone, in the capacity left.</li>
 * </ol>
 *
 * The result is the best feasible distribution found, never worse than the warm start, with the least
 * bound proven (the relaxation's or the solver's, the latter corrected for CP-SAT's rounding of the
 * objective; else the lesser of the source tier's bound, {@link ServeIndex#sourceTierBound}, and the sum
 * of all requests' service), so its
 * {@link Distribution#gap()} is honest. Deterministic for a given problem when no solve is cut short
 * by the time limit; one that is (the integer program on thousands of videos) may end with other
 * trees from run to run, CP-SAT on two workers most of all.
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

    /** CP-SAT's first slice of time; each next one is twice as long. */
    private static final Duration CP_SLICE = Duration.ofSeconds(5);
    /** Up to this many link variables the integer program goes to SCIP, above to CP-SAT. */
    static final int SCIP_VARIABLES = 5_000;
    /** A relaxed value this close to 0 or 1 counts as integral. */
    private static final double INTEGRAL = 1e-6;
    /** A request the relaxation serves at least this much is served whole, for the rounding's order. */
    private static final double WHOLE = 0.999;
    /** Up to this many bitrate classes, the rounding tries them in every order (5! = 120 orders). */
    static final int PERMUTED_CLASSES = 5;

    /** The share of the time left after rounding that the reordering search may take. */
    private static final double REORDER_SHARE = 0.5;
    /** At most this many unserved requests move in one step of the reordering search. */
    private static final int REORDER_MOVES = 4;
    /** The reordering search stops after this many steps without better trees. */
    private static final int REORDER_PATIENCE = 500;
    /** The reordering search's seed: the same problem, the same steps (their number depends on the time). */
    private static final long REORDER_SEED = 24;
    /** The share of the time limit kept from the relaxation to refine the warm start, should it not finish. */
    private static final double WARM_REFINE_SHARE = 0.1;
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
        int[] greedyOrder = GreedyTrees.order(index);
        TreeBuilder warm = GreedyTrees.route(index, greedyOrder, null);
        best.offer(warm.serves());
        double bound = Math.min(index.serviceCeiling(), index.sourceTierBound());

        if (!best.within(bound, options.relativeGap())) {
            ServeProgram program = new ServeProgram(index);
            ServeProgram.Linear relaxation = program.linear(false);
            // the relaxation may take all but a share of the time, kept to refine the warm start with
            // should it not finish (in dense topologies of hundreds of thousands of link variables)
            long reserve = (long) (options.timeLimit().toNanos() * WARM_REFINE_SHARE);
            Solution lp = solve(relaxation.model, deadline - reserve);
            boolean solved = lp != null && lp.status() == SolveStatus.OPTIMAL;
            if (!solved) {
                best.offer(refine(index, warm, greedyOrder, null, deadline, target(bound)).serves());
            } else {
                bound = Math.min(bound, lp.objective() + LP_TOLERANCE * Math.max(1, Math.abs(lp.objective())));
                Rounded rounded = round(index, relaxation, lp, best, deadline);
                if (!best.within(bound, options.relativeGap())) {
                    best.offer(refine(index, rounded.trees, rounded.order, rounded.guided, deadline, target(bound))
                            .serves());
                }
                if (!best.within(bound, options.relativeGap())) {
                    long now = System.nanoTime();
                    TreeBuilder reordered = reorder(index, rounded.order, rounded.guided,
                            now + (long) ((deadline - now) * REORDER_SHARE), target(bound));
                    best.offer(refine(index, reordered, rounded.order, rounded.guided, deadline, target(bound))
                            .serves());
                }
            }
            if (!best.within(bound, options.relativeGap())) {
                if (program.linkVariables() <= options.exactVariables()) {
                    bound = Math.min(bound, exact(program, best, deadline, bound));
                } else if (solved) {
                    fixAndSolve(index, relaxation, lp, best, deadline);
                }
            }
        }
        return new Distribution(problem, best.serves, NAME, Math.max(bound, best.objective),
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** The objective within the target gap of {@code bound}: {@code objective >= bound - gap * objective}. */
    private double target(double bound) {
        return bound / (1 + options.relativeGap());
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
     * The relaxation's rounding: the requests again through residual capacity, each along the path the
     * relaxation sends most of its object over (the true price breaking ties), in several orders, the
     * best offered. The orders put the requests the relaxation serves whole first, and among them the
     * bitrate classes in turn in every order (all permutations up to {@link #PERMUTED_CLASSES} classes,
     * else each class first): the relaxation packs big and small objects into the links fractionally,
     * and which class goes first decides how well whole ones fit (4K first leaves no room at the sources
     * for the many small ones; small first leaves each source link too little for a 4K). Then, as
     * alternatives, the greedy's order on those paths and objects by all their requests' service per
     * kbit/s. Each order is a few milliseconds; rounding stops at the deadline.
     */
    private static Rounded round(ServeIndex index, ServeProgram.Linear solved, Solution lp, Incumbent best,
            long deadline) {
        double[] served = new double[index.requests()];
        for (int r = 0; r < served.length; r++) {
            served[r] = solved.served(lp, r);
        }
        double[][] flow = new double[index.objects()][];
        for (int o = 0; o < flow.length; o++) {
            int[] links = index.candidates(o);
            flow[o] = new double[links.length];
            for (int i = 0; i < links.length; i++) {
                flow[o][i] = Math.min(1, Math.max(0, solved.link(lp, links[i], o)));
            }
        }
        TreeBuilder.Preference guided = (l, o) -> {
            int at = Arrays.binarySearch(index.candidates(o), l);
            return (index.price(l, o) + 1e-9) * (1 - (at < 0 ? 0 : flow[o][at]));
        };
        int[] classes = Arrays.stream(index.bitrate).distinct().sorted().toArray();
        List<int[]> orders = new ArrayList<>();
        for (int[] rank : classOrders(classes.length)) {
            orders.add(GreedyTrees.sorted(index, Comparator.<Integer>comparingInt(r -> served[r] >= WHOLE ? 0 : 1)
                    .thenComparingInt(r -> rank[Arrays.binarySearch(classes, index.bitrate[index.requestObject[r]])])
                    .thenComparingDouble(r -> -served[r])));
        }
        orders.add(GreedyTrees.order(index));
        orders.add(GreedyTrees.sorted(index, Comparator.comparingDouble(r -> {
            int o = index.requestObject[r];
            return -index.priority[o] * index.groups[o].length / index.bitrate[o];
        })));
        Rounded rounded = null;
        for (int[] order : orders) {
            if (rounded != null && System.nanoTime() > deadline) {
                break;
            }
            TreeBuilder trees = GreedyTrees.route(index, order, guided);
            if (rounded == null || trees.objective() > rounded.trees.objective()) {
                rounded = new Rounded(order, trees, guided);
                best.offer(trees.serves());
            }
        }
        return rounded;
    }

    /** The best of the rounding's orders: the order, its trees, and the preference it routes by. */
    private record Rounded(int[] order, TreeBuilder trees, TreeBuilder.Preference guided) {
    }

    /**
     * Iterated greedy from {@code start}, until {@code until} or trees of {@code target} or more: a few
     * requests the current order leaves unserved move to earlier places drawn at random, the requests are
     * routed again in the new order (milliseconds, even for thousands), and the new order is kept when its
     * trees are at least as good (equal ones too, so the search drifts across plateaus). The rounding
     * fixes an order once; whole objects that do not fit where it put them often fit once a few others
     * make way, which is what this finds. It gives up after {@link #REORDER_PATIENCE} steps without
     * better trees. Returns the best trees found ({@code start}'s if none better).
     */
    static TreeBuilder reorder(ServeIndex index, int[] start, TreeBuilder.Preference preference, long until,
            double target) {
        Random random = new Random(REORDER_SEED);
        int[] order = start.clone();
        TreeBuilder current = GreedyTrees.route(index, order, preference);
        TreeBuilder best = current;
        int[] unserved = new int[order.length];
        int sinceBetter = 0;
        while (System.nanoTime() < until && best.objective() < target && sinceBetter++ < REORDER_PATIENCE) {
            int missing = 0;
            for (int at = 0; at < order.length; at++) {
                if (!current.serves(order[at])) {
                    unserved[missing++] = at;
                }
            }
            if (missing == 0) {
                break;
            }
            int[] next = order.clone();
            int moves = 1 + random.nextInt(Math.min(REORDER_MOVES, missing));
            for (int m = 0; m < moves; m++) {
                moveEarlier(next, unserved[random.nextInt(missing)], random);
            }
            TreeBuilder trees = GreedyTrees.route(index, next, preference);
            if (trees.objective() >= current.objective() - 1e-9) {
                order = next;
                current = trees;
                if (trees.objective() > best.objective() + 1e-9) {
                    best = trees;
                    sinceBetter = 0;
                }
            }
        }
        return best;
    }

    /**
     * Local search on finished trees, in passes until one gains nothing, the trees reach {@code target}
     * or the time {@code until}: each request left unserved (in {@code order}) is tried again with room
     * made for it on a full link ({@link TreeBuilder#routeMakingRoom}: the free space a node's in-links
     * have between them, gathered on one), or else with an object evicted from a node on its way to
     * where it fits ({@link TreeBuilder#routeEvicting}); and each served request of an object several
     * groups ask for joins the tree again along its cheapest path ({@link TreeBuilder#rejoin}: a group
     * reached through a reflector of its own may hang from one the object reaches anyway, which frees a
     * source link). None lowers the objective. The rounding and the reordering route each request once,
     * in order, and never revisit a choice; this is where the capacity such choices strand is found
     * again. Returns the trees refined (a copy where an eviction was kept).
     */
    static TreeBuilder refine(ServeIndex index, TreeBuilder start, int[] order, TreeBuilder.Preference preference,
            long until, double target) {
        TreeBuilder trees = start;
        double before;
        do {
            before = trees.objective();
            for (int r : order) {
                if (System.nanoTime() > until || trees.objective() >= target) {
                    return trees;
                }
                if (!trees.serves(r) && !trees.routeMakingRoom(r, preference)) {
                    TreeBuilder better = trees.routeEvicting(r, preference);
                    if (better != null) {
                        trees = better;
                    }
                }
            }
            for (int r : order) {
                if (trees.serves(r) && index.groups[index.requestObject[r]].length > 1) {
                    trees.rejoin(r);
                }
            }
        } while (trees.objective() > before + 1e-9);
        return trees;
    }

    /** Moves the request at {@code from} to a place before it drawn at random, shifting those between. */
    private static void moveEarlier(int[] order, int from, Random random) {
        int to = random.nextInt(from + 1);
        int request = order[from];
        System.arraycopy(order, to, order, to + 1, from - to);
        order[to] = request;
    }

    /**
     * Orders of {@code n} classes, as each class's rank: every permutation up to
     * {@link #PERMUTED_CLASSES}, else ascending with each class moved first in turn, and descending.
     */
    static List<int[]> classOrders(int n) {
        List<int[]> orders = new ArrayList<>();
        if (n <= PERMUTED_CLASSES) {
            permute(new int[n], new boolean[n], 0, orders);
            return orders;
        }
        for (int first = 0; first < n; first++) {
            int[] rank = new int[n];
            for (int c = 0; c < n; c++) {
                rank[c] = c == first ? 0 : c < first ? c + 1 : c;
            }
            orders.add(rank);
        }
        int[] descending = new int[n];
        Arrays.setAll(descending, c -> n - 1 - c);
        orders.add(descending);
        return orders;
    }

    private static void permute(int[] rank, boolean[] used, int next, List<int[]> orders) {
        if (next == rank.length) {
            orders.add(rank.clone());
            return;
        }
        for (int c = 0; c < rank.length; c++) {
            if (!used[c]) {
                used[c] = true;
                rank[c] = next;
                permute(rank, used, next + 1, orders);
                used[c] = false;
            }
        }
    }

    /**
     * For a program too large to solve whole: the objects the relaxation decides integrally (every link
     * and request 0 or 1) keep its trees, and the integer program is solved for the others alone, in the
     * capacity those trees leave (by SCIP where small enough, hinted with the greedy's trees there, else
     * the greedy's), and the union offered. The relaxation's bound stands: this only finds trees.
     */
    private void fixAndSolve(ServeIndex index, ServeProgram.Linear solved, Solution lp, Incumbent best,
            long deadline) {
        Map<String, BitSet> trees = new LinkedHashMap<>();
        long[] residual = index.capacity.clone();
        Set<String> open = new HashSet<>();
        for (int o = 0; o < index.objects(); o++) {
            int[] links = index.candidates(o);
            BitSet tree = new BitSet();
            boolean integral = true;
            for (int l : links) {
                double x = solved.link(lp, l, o);
                integral &= x <= INTEGRAL || x >= 1 - INTEGRAL;
                if (x >= 1 - INTEGRAL) {
                    tree.set(l);
                }
            }
            if (integral) {
                trees.put(index.key[o], tree);
            } else {
                open.add(index.key[o]);
            }
        }
        for (int r = 0; r < index.requests(); r++) {
            double y = solved.served(lp, r);
            if (y > INTEGRAL && y < 1 - INTEGRAL) {
                open.add(index.key[index.requestObject[r]]);
            }
        }
        trees.keySet().removeAll(open);
        for (int o = 0; o < index.objects(); o++) {
            BitSet tree = trees.get(index.key[o]);
            if (tree != null) {
                int bitrate = index.bitrate[o];
                tree.stream().forEach(l -> residual[l] -= bitrate);
            }
        }
        List<Request> rest = index.problem.requests().stream().filter(r -> open.contains(r.object().key())).toList();
        if (rest.isEmpty()) {
            best.offer(trees);
            return;
        }
        List<Link> left = new ArrayList<>();
        for (Link link : index.problem.topology().links()) {
            left.add(new Link(link.index(), link.from(), link.to(), Math.max(0, residual[link.index()]), link.cost()));
        }
        Problem sub = new Problem(index.problem.topology().withLinks(left), rest, index.problem.weights());
        ServeIndex subIndex = new ServeIndex(sub);
        Incumbent subBest = new Incumbent(sub);
        subBest.offer(GreedyTrees.route(subIndex, GreedyTrees.order(subIndex), null).serves());
        ServeProgram subProgram = new ServeProgram(subIndex);
        if (subProgram.linkVariables() <= options.exactVariables()) {
            // no bound of the part alone says when the whole is within the target: up to the deadline
            exact(subProgram, subBest, deadline, Double.POSITIVE_INFINITY);
        }
        trees.putAll(subBest.serves);
        best.offer(trees);
    }

    /**
     * The integer program, hinted with the best trees, within what is left of the time limit; returns the
     * bound it proved (+inf: none). Up to {@link #SCIP_VARIABLES} variables by SCIP, whose branch and
     * bound on the program's LP proves small programs optimal in moments (CP-SAT on one or two workers
     * often cannot); above, by CP-SAT, which finds better trees than SCIP within a minute there, while
     * the relaxation's bound, already known, is the one that counts: CP-SAT stops once the best trees are
     * within the target gap of {@code bound} or of its own.
     */
    private double exact(ServeProgram program, Incumbent best, long deadline, double bound) {
        ServeProgram.Linear ip = program.linear(true);
        if (program.linkVariables() <= SCIP_VARIABLES) {
            ip.hint(best.serves);
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Double.POSITIVE_INFINITY;
            }
            Solution solution = solver.solve(ip.model, new SolveOptions(Duration.ofNanos(left), options.workers()));
            if (!solution.status().hasSolution()) {
                return Double.POSITIVE_INFINITY;
            }
            best.offer(ip.serves(solution));
            return loosened(solution.bestBound());
        }
        // CP-SAT in slices, each hinted with the best trees so far, so it stops once within the target gap
        // of the bound already known (it has no gap limit of its own here), the slices doubling
        double proven = Double.POSITIVE_INFINITY;
        long slice = CP_SLICE.toNanos();
        while (!best.within(Math.min(bound, proven), options.relativeGap())) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            ip.hint(best.serves);
            ServeProgram.Linear.Cp cp = ip.cp();
            Solution solution = solver.solve(cp.model, new SolveOptions(Duration.ofNanos(Math.min(left, slice)),
                    options.workers()));
            if (solution.status().hasSolution()) {
                best.offer(cp.serves(solution));
                proven = Math.min(proven, loosened(cp.bound(solution)));
            }
            if (solution.status() == SolveStatus.OPTIMAL || solution.status() == SolveStatus.INFEASIBLE) {
                break;
            }
            slice *= 2;
        }
        return proven;
    }

    /** A solver's bound loosened by its tolerance; +inf for none. */
    private static double loosened(double bound) {
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
