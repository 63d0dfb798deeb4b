package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.solver.CpModel;
import io.heliograph.solver.LinearModel;
import io.heliograph.solver.Solution;
import io.heliograph.solver.SolveOptions;
import io.heliograph.solver.SolveStatus;
import io.heliograph.solver.SolverService;
import io.heliograph.solver.internal.Standalone;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The Model against brute force: on instances small enough to enumerate every placement, its optimum is
 * the least Minimax (the {@link Energy#ALL} estimate) over all placements within the slot limit and CPU
 * capacity, and never worse than the heuristics'. One solver worker, so every solve is deterministic.
 */
class ModelTest {

    /** The program's Minimax resolution (1/UNITS) plus whole-bit rounding of the loads. */
    private static final double TOLERANCE = 2.0 / Model.UNITS;

    private static SolverService solver;
    private static Model model;

    @BeforeAll
    static void solver() throws java.io.IOException {
        // the solver bundle's own service outside OSGi, OR-Tools' natives from the test class path
        solver = Standalone.fromClassPath();
        model = new Model(solver, Duration.ofSeconds(20), 1);
    }

    /**
     * {@code vms} VMs from a random start on {@code tree}, each sending to about {@code peers} others at
     * 1 to {@code maxMbps} Mb/s, each using {@code minCpu} to {@code maxCpu} cycles/s.
     */
    static PlacementProblem instance(ThreeTierTree tree, int vms, int peers, double maxMbps, double minCpu,
            double maxCpu, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] pmOf = RandomPlacement.assignment(vms, tree.pmCount(), 4, random.nextLong());
        Measurements.Builder measured = Measurements.builder();
        List<int[]> pairs = new ArrayList<>();
        boolean[][] seen = new boolean[vms][vms];
        for (int v = 0; v < vms; v++) {
            measured.cpu(ThreeTierTree.vmId(v), random.nextDouble(minCpu, maxCpu));
            for (int k = 0; k < peers; k++) {
                int w = random.nextInt(vms);
                if (w != v && !seen[v][w]) {
                    seen[v][w] = true;
                    pairs.add(new int[] {v, w});
                    measured.traffic(ThreeTierTree.vmId(v), ThreeTierTree.vmId(w), random.nextDouble(1e6, maxMbps * 1e6));
                }
            }
        }
        return PlacementProblem.of(tree.edf(pmOf, pairs), measured.build());
    }

    /** The least Minimax over every placement within the slot limit and CPU capacity; +inf if none. */
    static double bruteForce(PlacementProblem problem) {
        int n = problem.vmCount();
        int m = problem.pmCount();
        int[] pmOf = new int[n];
        double best = Double.POSITIVE_INFINITY;
        while (true) {
            if (withinLimits(problem, pmOf)) {
                best = Math.min(best, Estimator.energy(problem, pmOf, Energy.ALL));
            }
            int v = 0;
            while (v < n && ++pmOf[v] == m) {
                pmOf[v++] = 0;
            }
            if (v == n) {
                return best;
            }
        }
    }

    static boolean withinLimits(PlacementProblem problem, int[] pmOf) {
        int[] count = new int[problem.pmCount()];
        long[] cpu = Estimator.cpuLoad(problem, pmOf);
        for (int p : pmOf) {
            count[p]++;
        }
        for (int p = 0; p < count.length; p++) {
            if (count[p] > problem.maxVmsPerPm() || cpu[p] > problem.cpuCapacity[p]) {
                return false;
            }
        }
        return true;
    }

    private static double minimax(PlacementResult result) {
        assertTrue(result.feasible(), result.toString());
        return result.predicted().orElseThrow().minimax();
    }

    private static void assertOptimal(PlacementProblem problem, String label) {
        double optimum = bruteForce(problem);
        PlacementResult result = model.place(problem, 0);
        double found = minimax(result);
        int[] pmOf = result.placement().orElseThrow().assignment();
        assertTrue(withinLimits(problem, pmOf), label + ": over a PM's slots or CPU: " + result);
        assertEquals(optimum, found, TOLERANCE, label + ": " + result);
        PlacementResult.Bound bound = result.bound().orElseThrow();
        assertEquals("OPTIMAL", bound.status(), label);
        assertEquals(0.0, bound.gap(), 0.0, label + ": proven optimal, no gap");
        assertEquals(optimum, bound.minimax(), TOLERANCE, label + ": the bound is the optimum");
        for (PlacementAlgorithm heuristic : List.of(new GreedyFill(), new SimulatedAnnealing(Energy.ALL))) {
            PlacementResult other = heuristic.place(problem, 1);
            if (other.feasible()) {
                assertTrue(found <= minimax(other) + TOLERANCE, label + ": " + result + " worse than " + other);
            }
        }
    }

    @Test
    void optimumEqualsBruteForceOnSmallTreesAndBeatsTheHeuristics() {
        // 4 PMs in two racks under two aggregation switches (4:1 above the racks), 6 VMs: 4,096 placements
        ThreeTierTree fourPms = new ThreeTierTree(2, 1, 2, 100e6, 50e6, 25e6);
        // 6 PMs in two racks of 3 under one aggregation switch, 5 VMs: 7,776 placements
        ThreeTierTree sixPms = new ThreeTierTree(1, 2, 3, 100e6, 60e6, 60e6);
        // 3 PMs, each its own rack, 6 VMs: 729 placements
        ThreeTierTree threePms = new ThreeTierTree(1, 3, 1, 100e6, 40e6, 40e6);
        for (long seed = 1; seed <= 3; seed++) {
            assertOptimal(instance(fourPms, 6, 2, 60, 0.2e9, 1.5e9, seed), "4 PMs, 6 VMs, seed " + seed);
            assertOptimal(instance(sixPms, 5, 2, 80, 0.2e9, 1.5e9, seed), "6 PMs, 5 VMs, seed " + seed);
            assertOptimal(instance(threePms, 6, 3, 30, 0.2e9, 1.5e9, seed), "3 PMs, 6 VMs, seed " + seed);
        }
    }

    @Test
    void cpuCapacityBindsAndTheOptimumStillEqualsBruteForce() {
        // 1.5 to 2.7 GHz a VM on 5.6 GHz PMs: at most three fit a PM, often two; heavy traffic wants them together
        ThreeTierTree fourPms = new ThreeTierTree(2, 1, 2, 100e6, 50e6, 25e6);
        for (long seed = 11; seed <= 13; seed++) {
            assertOptimal(instance(fourPms, 6, 3, 90, 1.5e9, 2.7e9, seed), "CPU-bound, seed " + seed);
        }
    }

    @Test
    void theSlotLimitHoldsWhereSharingOnePmWouldBeBest() {
        // five VMs all to all at 50 Mb/s, little CPU: one PM would carry nothing over the network, but holds 4
        ThreeTierTree tree = new ThreeTierTree(1, 1, 3, 100e6, 100e6, 100e6);
        List<int[]> pairs = new ArrayList<>();
        Measurements.Builder measured = Measurements.builder();
        for (int a = 0; a < 5; a++) {
            measured.cpu(ThreeTierTree.vmId(a), 0.1e9);
            for (int b = 0; b < 5; b++) {
                if (a != b) {
                    pairs.add(new int[] {a, b});
                    measured.traffic(ThreeTierTree.vmId(a), ThreeTierTree.vmId(b), 10e6);
                }
            }
        }
        PlacementProblem problem = PlacementProblem.of(tree.edf(new int[] {0, 1, 2, 0, 1}, pairs), measured.build());
        assertOptimal(problem, "all to all");
        Placement placed = model.place(problem, 0).placement().orElseThrow();
        List<Integer> sizes = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            sizes.add(placed.vmsOn(ThreeTierTree.pmId(p)).size());
        }
        assertTrue(sizes.contains(4) && sizes.contains(1), "four on one PM, one alone: " + sizes);
    }

    @Test
    void moreCpuThanThePmsHaveIsInfeasible() {
        // three VMs of 3 GHz on two PMs of 5.6 GHz: each fits alone, no two fit together
        ThreeTierTree tree = new ThreeTierTree(1, 1, 2, 100e6, 100e6, 100e6);
        Measurements measured = Measurements.builder().cpu("vm0001", 3e9).cpu("vm0002", 3e9).cpu("vm0003", 3e9)
                .traffic("vm0001", "vm0002", 1e6).build();
        PlacementProblem problem = PlacementProblem.of(
                tree.edf(new int[] {0, 0, 1}, List.of(new int[] {0, 1})), measured);
        assertEquals(Double.POSITIVE_INFINITY, bruteForce(problem));
        PlacementResult result = model.place(problem, 0);
        assertFalse(result.feasible(), result.toString());
        assertEquals("INFEASIBLE", result.bound().orElseThrow().status());
        assertTrue(result.infeasibility().orElseThrow().contains("CPU capacity"), result.toString());
        assertFalse(new GreedyFill().place(problem, 0).feasible(), "Greedy Fill agrees");
    }

    @Test
    void theSlotLimitWithCpuCanMakeItInfeasible() {
        // an EDF never holds more VMs than slots (PlacementProblem refuses it), but slots and CPU together
        // can leave no placement: 6 VMs on 3 PMs of 2 slots fill every PM, and the 5 GHz VM has room for
        // no 1 GHz partner on a 5.6 GHz PM; with 4 slots a PM the other VMs go elsewhere
        ThreeTierTree tree = new ThreeTierTree(1, 1, 3, 100e6, 100e6, 100e6);
        Measurements.Builder measured = Measurements.builder().cpu("vm0001", 5e9);
        for (int v = 1; v < 6; v++) {
            measured.cpu(ThreeTierTree.vmId(v), 1e9);
        }
        Edf edf = tree.edf(new int[] {0, 0, 1, 1, 2, 2}, List.of(new int[] {0, 1}));
        PlacementProblem twoSlots = PlacementProblem.of(edf, measured.traffic("vm0001", "vm0002", 1e6).build(), 2);
        assertEquals(Double.POSITIVE_INFINITY, bruteForce(twoSlots));
        PlacementResult result = model.place(twoSlots, 0);
        assertFalse(result.feasible(), result.toString());
        assertEquals("INFEASIBLE", result.bound().orElseThrow().status());
        PlacementProblem fourSlots = PlacementProblem.of(edf, measured.build(), 4);
        assertOptimal(fourSlots, "four slots");
    }

    @Test
    void deterministicOnOneWorkerAndFoundByItsName() {
        PlacementProblem problem = instance(new ThreeTierTree(2, 1, 2, 100e6, 50e6, 25e6), 6, 2, 60, 0.2e9, 1.5e9, 7);
        assertEquals(model.place(problem, 0).placement(), model.place(problem, 0).placement());
        assertEquals(Model.NAME, Algorithms.byName("model", solver).orElseThrow().name());
        assertEquals(Energy.ALL, Algorithms.byName("model", solver).orElseThrow().energy());
        assertTrue(Algorithms.byName("model").isEmpty(), "the Model needs a solver");
        assertEquals("greedyFill", Algorithms.byName("greedyFill", solver).orElseThrow().name());
    }

    /** A solver that stops at its time limit having found nothing, as CP-SAT does on a model too large. */
    private static SolverService timedOut(AtomicReference<SolveOptions> asked, AtomicReference<CpModel> program) {
        return new SolverService() {
            @Override
            public Solution solve(LinearModel linear, SolveOptions options) {
                throw new AssertionError("the Model is a CP-SAT program");
            }

            @Override
            public Solution solve(CpModel cp, SolveOptions options) {
                asked.set(options);
                program.set(cp);
                return Solution.ofCp(SolveStatus.NOT_SOLVED, Double.NaN, 12_000, Duration.ofMillis(1500), new long[0]);
            }

            @Override
            public String version() {
                return "stub";
            }
        };
    }

    @Test
    void aTimeOutWithNoPlacementSaysSoAndTheSolverGetsTheLimitAndAtMostTwoWorkers() {
        AtomicReference<SolveOptions> asked = new AtomicReference<>();
        SolverService timedOut = timedOut(asked, new AtomicReference<>());
        PlacementProblem problem = instance(new ThreeTierTree(2, 1, 2, 100e6, 50e6, 25e6), 6, 2, 60, 0.2e9, 1.5e9, 3);
        PlacementResult result = new Model(timedOut, Duration.ofMillis(1500), 2, List.of()).place(problem, 0);
        assertEquals(new SolveOptions(Duration.ofMillis(1500), 2), asked.get());
        assertFalse(result.feasible(), result.toString());
        assertTrue(result.infeasibility().orElseThrow().contains("time limit of 1.5 s ran out")
                && result.infeasibility().orElseThrow().contains("not proven infeasible"), result.toString());
        PlacementResult.Bound bound = result.bound().orElseThrow();
        assertEquals("NOT_SOLVED", bound.status());
        assertEquals(0.12, bound.minimax(), 1e-12, "the bound proven so far, in utilisation");
        assertTrue(Double.isNaN(bound.gap()), "no placement, no gap");
        new Model(timedOut).place(problem, 0);
        assertEquals(new SolveOptions(Model.DEFAULT_TIME_LIMIT, 2), asked.get(), "by default 60 s on two workers");
        assertThrows(IllegalArgumentException.class, () -> new Model(timedOut, Duration.ofSeconds(1), 3));
    }

    @Test
    void aTimeOutEndsWithTheWarmStartsPlacementAndTheBoundSoFar() {
        PlacementProblem problem = instance(new ThreeTierTree(2, 1, 2, 100e6, 50e6, 25e6), 6, 2, 60, 0.2e9, 1.5e9, 3);
        PlacementResult result = new Model(timedOut(new AtomicReference<>(), new AtomicReference<>()),
                Duration.ofMillis(1500), 2).place(problem, 5);
        double greedy = minimax(new GreedyFill().place(problem, 5));
        double annealed = minimax(new SimulatedAnnealing(Energy.ALL).place(problem, 5));
        assertEquals(Math.min(greedy, annealed), minimax(result), 0.0, "the better of Greedy Fill and SA All: " + result);
        assertTrue(withinLimits(problem, result.placement().orElseThrow().assignment()), result.toString());
        PlacementResult.Bound bound = result.bound().orElseThrow();
        assertEquals("FEASIBLE", bound.status(), "stopped by the limit with a placement");
        assertEquals(0.12, bound.minimax(), 1e-12);
        assertEquals((minimax(result) - 0.12) / minimax(result), bound.gap(), TOLERANCE, "the gap to the bound so far");
    }

    @Test
    void theWarmStartIsACompleteFeasibleHintAtItsMinimax() {
        // on the tree (cuts, interchangeable PMs made canonical) and on a graph with a cycle (per-pair links)
        List<PlacementProblem> problems = List.of(
                WebWorkload.of(ThreeTierTree.thesis(10), 6, 6, 8, 8, 4, 1),
                instance(new ThreeTierTree(2, 1, 2, 100e6, 50e6, 25e6), 6, 2, 60, 1.5e9, 2.7e9, 12),
                withCycle(instance(new ThreeTierTree(1, 3, 2, 100e6, 60e6, 60e6), 5, 2, 80, 0.2e9, 1.5e9, 4)));
        for (PlacementProblem problem : problems) {
            AtomicReference<CpModel> program = new AtomicReference<>();
            new Model(timedOut(new AtomicReference<>(), program), Duration.ofSeconds(1), 1).place(problem, 9);
            CpModel cp = program.get();
            assertEquals(cp.variables().size(), cp.hints().size(), "every variable hinted: " + cp);
            long[] values = new long[cp.variables().size()];
            cp.hints().forEach((variable, value) -> values[variable.index()] = value);
            for (CpModel.Linear row : cp.linears()) {
                long sum = row.expression().constant();
                for (var term : row.expression().terms().entrySet()) {
                    sum += term.getValue() * values[term.getKey().index()];
                }
                assertTrue(row.lower() <= sum && sum <= row.upper(), row.name() + " broken by the hint: " + sum);
            }
            double warm = Math.min(minimax(new GreedyFill().place(problem, 9)),
                    minimax(new SimulatedAnnealing(Energy.ALL).place(problem, 9)));
            long y = values[cp.variables().stream().filter(v -> v.name().equals("y")).findFirst().orElseThrow().index()];
            assertEquals(warm, (double) y / Model.UNITS, TOLERANCE, "y hinted at the warm start's Minimax");
        }
    }

    /**
     * {@code problem}'s EDF with a link each way between the first two ToR switches: traffic between their
     * racks takes it, so the links between them and their aggregation switch carry the pairs of one rack
     * with the third only, no cut.
     */
    static PlacementProblem withCycle(PlacementProblem problem) {
        Edf edf = problem.edf();
        List<Edf.Switch> tors = edf.switches().stream().filter(s -> !s.software()).skip(2).limit(2).toList();
        List<Edf.Link> links = new ArrayList<>(edf.links());
        String a = tors.get(0).id();
        String b = tors.get(1).id();
        links.add(new Edf.Link(Edf.Link.idOf(a, 90, b, 90), a, 90, b, 90, java.util.Map.of(Edf.LINK_SPEED, "40000000")));
        links.add(new Edf.Link(Edf.Link.idOf(b, 90, a, 90), b, 90, a, 90, java.util.Map.of(Edf.LINK_SPEED, "40000000")));
        Measurements.Builder measured = Measurements.builder();
        for (int v = 0; v < problem.vmCount(); v++) {
            measured.cpu(problem.vmIds[v], problem.vmCpu[v] / PlacementProblem.SCALE);
        }
        for (int f = 0; f < problem.flowCount(); f++) {
            measured.traffic(problem.vmIds[problem.flowSource[f]], problem.vmIds[problem.flowDestination[f]],
                    problem.flowRate[f] / PlacementProblem.SCALE);
        }
        return PlacementProblem.of(new Edf(edf.parameters(), edf.pms(), edf.switches(), links, edf.routes()),
                measured.build());
    }

    @Test
    void onAGraphWithACycleTheOptimumStillEqualsBruteForce() {
        for (long seed = 21; seed <= 23; seed++) {
            PlacementProblem problem = withCycle(instance(new ThreeTierTree(1, 3, 2, 100e6, 60e6, 60e6), 5, 2, 80,
                    0.2e9, 1.5e9, seed));
            Model.Program program = new Model.Program(problem);
            assertTrue(program.pairLinks > 0 && program.cutLinks > 0, program.pairLinks + " per-pair links, "
                    + program.cutLinks + " cuts");
            assertEquals(3, program.classes.size(), "each rack's two PMs are interchangeable");
            assertOptimal(problem, "with a cycle, seed " + seed);
        }
    }

    @Test
    void onTheThesisTreeEveryLinkIsACutAndEachRacksPmsAreInterchangeable() {
        PlacementProblem problem = WebWorkload.of(ThreeTierTree.thesis(10), 6, 6, 8, 8, 4, 1);
        Model.Program program = new Model.Program(problem);
        assertEquals(0, program.pairLinks);
        assertEquals(problem.fabricLinks, program.cutLinks, "every link (each carries some pair)");
        assertEquals(4, program.classes.size());
        for (int[] rack : program.classes) {
            assertEquals(10, rack.length);
        }
        // the bound each VM's traffic past its three best peers proves is below what SA All reaches
        double annealed = minimax(new SimulatedAnnealing(Energy.ALL).place(problem, 1));
        assertTrue(program.y.lower() > 0 && program.y.lower() <= annealed * Model.UNITS, program.y.lower() + " vs " + annealed);
    }

    /**
     * A figure, printed, not asserted, and only when asked ({@code -Dvirtue.model=true}; the time limit in
     * seconds by {@code -Dvirtue.model.seconds}, 60 unless given): the Model on two workers on the thesis's
     * single-tenant Web experiment, 20 VMs (6 clients, 6 Web, 8 Memcached) on 40 PMs of the 16:1 tree
     * (seeds 1 and 2), and on WebWorkload's Web-like 120 VMs on 80 PMs; each heuristic's Minimax
     * against the Model's and against its proven bound.
     */
    @Test
    @EnabledIfSystemProperty(named = "virtue.model", matches = "true")
    void printsTheModelAgainstTheHeuristicsAt20On40And120On80() {
        long seconds = Long.getLong("virtue.model.seconds", 60);
        List<String> only = List.of(System.getProperty("virtue.model.instances", "web20s1,web20s2,web120s1").split(","));
        StringBuilder table = new StringBuilder();
        for (String name : only) {
            PlacementProblem problem = switch (name) {
                case "web20s1" -> WebWorkload.of(ThreeTierTree.thesis(10), 6, 6, 8, 8, 4, 1);
                case "web20s2" -> WebWorkload.of(ThreeTierTree.thesis(10), 6, 6, 8, 8, 4, 2);
                case "web120s1" -> WebWorkload.web120(1);
                case "web120s2" -> WebWorkload.web120(2);
                default -> throw new IllegalArgumentException("no instance " + name);
            };
            long seed = name.endsWith("s2") ? 2 : 1;
            double start = Utilisations.estimate(problem.start(), problem, Energy.ALL).minimax();
            long built = System.nanoTime();
            Model.Program program = new Model.Program(problem);
            double buildMs = (System.nanoTime() - built) / 1e6;
            long began = System.nanoTime();
            PlacementResult result = new Model(solver, Duration.ofSeconds(seconds), 2).place(problem, seed);
            double ms = (System.nanoTime() - began) / 1e6;
            PlacementResult.Bound bound = result.bound().orElseThrow();
            double found = result.feasible() ? minimax(result) : Double.NaN;
            table.append(String.format(Locale.ROOT, "%s: %d VMs on %d PMs, %d flows, start minimax %.4f; program %s,"
                    + " %d cut links, %d per-pair links, %d classes of interchangeable PMs, y from %.4f, built in %.0f ms%n"
                    + "  model (%d s limit, 2 workers): %s in %.1f s, minimax %.4f (at %s), bound %.4f, gap %.4f%n", name,
                    problem.vmCount(), problem.pmCount(), problem.flowCount(), start, program.model, program.cutLinks,
                    program.pairLinks, program.classes.size(), (double) program.y.lower() / Model.UNITS, buildMs, seconds, bound.status(), ms / 1000, found,
                    result.feasible() ? result.predicted().orElseThrow().hottest() : "-", bound.minimax(), bound.gap()));
            for (PlacementAlgorithm heuristic : Algorithms.all()) {
                long t = System.nanoTime();
                PlacementResult other = heuristic.place(problem, seed);
                double took = (System.nanoTime() - t) / 1e6;
                double value = other.feasible() ? minimax(other) : Double.NaN;
                table.append(String.format(Locale.ROOT, "  %-10s %8.1f ms  minimax %.4f  / model %.3f  / bound %.3f%n",
                        heuristic.name(), took, value, value / found, value / bound.minimax()));
            }
        }
        System.out.print(table);
    }
}
