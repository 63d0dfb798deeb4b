package io.heliograph.vdn.engine;

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
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The central optimiser with the real solver in this JVM: the thesis's worked example, feasibility, the
 * exact optimum on small random problems, an honest bound from the relaxation alone, never worse than
 * the warm start. One CP-SAT worker, so each solve is deterministic.
 */
class CentralOptimiserTest {

    private static SolverService solver;

    @BeforeAll
    static void solver() throws java.io.IOException {
        // the solver bundle's own service outside OSGi, OR-Tools' natives from the test class path
        solver = Standalone.fromClassPath();
    }

    /** Solved to proven optimality (no gap tolerated), the integer program allowed at any size here. */
    private static CentralOptimiser exact() {
        return new CentralOptimiser(solver, new CentralOptimiser.Options(Duration.ofSeconds(20), 0, 1, 1_000_000));
    }

    /** The relaxation and its rounding only: the integer program never solved. */
    private static CentralOptimiser relaxationOnly() {
        return new CentralOptimiser(solver, new CentralOptimiser.Options(Duration.ofSeconds(20), 0, 1, 0));
    }

    @Test
    void fig49TwoV1RequestsAreServedAvoidingYA() {
        Distribution trees = exact().optimise(OptimiserFixtures.fig49Problem(false));

        assertTrue(trees.violations().isEmpty(), trees.violations().toString());
        assertFalse(trees.carries(GreedyTreesTest.link(trees, "Y", "A"), "V1/800"));
        assertEquals(2, trees.service(), 1e-9);
        assertEquals(500 * 2 - 0.1 * 3 * 800, trees.objective(), 1e-9);
        assertTrue(trees.gap() <= 1e-4, "proven optimal: " + trees);
        assertEquals("ip", trees.method());
    }

    @Test
    void fig49TheHighPriorityRequestMakesTheOptimiserUseYA() {
        Distribution trees = exact().optimise(OptimiserFixtures.fig49Problem(true));

        assertTrue(trees.violations().isEmpty(), trees.violations().toString());
        assertTrue(trees.carries(GreedyTreesTest.link(trees, "Y", "A"), "V2/900"));
        assertTrue(trees.served(trees.problem().requests().get(2)));
        assertEquals(102, trees.service(), 1e-9);
        assertTrue(trees.gap() <= 1e-4, "proven optimal: " + trees);
    }

    @Test
    void theSourceTiersBoundIsTheKnapsackOfTheObjectsInTheSourcesCapacity() {
        // S -> R (900 kbit/s, cost 1) -> E (cost 1) -> G1, G2, G3 (cost 0); w_s = 10, w_c = 0.001
        Topology topology = Topology.builder()
                .node("S", Tier.SOURCE, 0, 0)
                .node("R", Tier.REFLECTOR, 0, 1)
                .node("E", Tier.EDGE, 0, 2)
                .node("G1", Tier.CLIENT_GROUP, 0, 3)
                .node("G2", Tier.CLIENT_GROUP, 1, 3)
                .node("G3", Tier.CLIENT_GROUP, 2, 3)
                .link("S", "R", 900, 1)
                .link("R", "E", 10_000, 1)
                .link("E", "G1", 10_000, 0)
                .link("E", "G2", 10_000, 0)
                .link("E", "G3", 10_000, 0)
                .build();
        VideoObject a = new VideoObject("A", 600);
        Problem problem = new Problem(topology, List.of(new Request("G1", a, 1), new Request("G2", a, 1),
                new Request("G3", new VideoObject("B", 600), 1), new Request("G1", new VideoObject("C", 400), 1)),
                new Weights(10, 0.001));

        // A is worth 20 - 1.2 (per 600 kbit/s), C 10 - 0.8 (per 400), B 10 - 1.2 (per 600): A whole, then
        // C for the 300 kbit/s left
        assertEquals(18.8 + 9.2 * 300 / 400, new ServeIndex(problem).sourceTierBound(), 1e-9);
        Distribution optimum = exact().optimise(problem);
        assertEquals(18.8, optimum.objective(), 1e-9);
    }

    @Test
    void theSourceTiersBoundIsNeverBelowTheProvenOptimum() {
        int binding = 0;
        for (long seed = 1; seed <= 8; seed++) {
            Problem problem = OptimiserFixtures.random(seed, 2, 4, 8, 16, 10, 4);
            ServeIndex index = new ServeIndex(problem);
            Distribution optimum = exact().optimise(problem);
            assertTrue(optimum.gap() <= 1e-4, "seed " + seed + ": " + optimum);
            assertTrue(index.sourceTierBound() >= optimum.objective() - 1e-9,
                    "seed " + seed + ": " + index.sourceTierBound() + " below the optimum " + optimum.objective());
            if (index.sourceTierBound() < index.serviceCeiling()) {
                binding++;
            }
        }
        assertTrue(binding > 0, "the sources bind in some of these problems, so the bound was put to the test");
    }

    @Test
    void matchesTheProvenOptimumAndNeverFallsBelowTheGreedy() {
        double greedyTotal = 0;
        double optimumTotal = 0;
        for (long seed = 1; seed <= 5; seed++) {
            Problem problem = OptimiserFixtures.random(seed, 2, 4, 8, 16, 10, 4);
            Distribution greedy = new GreedyTrees().optimise(problem);
            Distribution optimum = exact().optimise(problem);

            assertTrue(optimum.violations().isEmpty(), "seed " + seed + ": " + optimum.violations());
            assertTrue(optimum.gap() <= 1e-4, "seed " + seed + ": " + optimum);
            assertTrue(optimum.objective() >= greedy.objective() - 1e-9, "seed " + seed);
            assertTrue(greedy.objective() >= 0.7 * optimum.objective(),
                    "seed " + seed + ": greedy " + greedy.objective() + " against " + optimum.objective());
            greedyTotal += greedy.objective();
            optimumTotal += optimum.objective();
        }
        assertTrue(greedyTotal >= 0.85 * optimumTotal, greedyTotal + " against " + optimumTotal);
    }

    @Test
    void theRelaxationsBoundIsNeverBelowTheOptimum() {
        for (long seed = 11; seed <= 14; seed++) {
            Problem problem = OptimiserFixtures.random(seed, 2, 4, 8, 16, 10, 4);
            Distribution optimum = exact().optimise(problem);
            Distribution rounded = relaxationOnly().optimise(problem);
            Distribution greedy = new GreedyTrees().optimise(problem);

            assertTrue(rounded.violations().isEmpty(), "seed " + seed + ": " + rounded.violations());
            assertTrue(rounded.bound() >= optimum.objective() - 1e-6, "seed " + seed + ": " + rounded + " " + optimum);
            assertTrue(rounded.objective() <= optimum.objective() + 1e-6, "seed " + seed);
            assertTrue(rounded.objective() >= greedy.objective() - 1e-9, "seed " + seed);
            assertTrue(rounded.gap() >= 0 && Double.isFinite(rounded.gap()), "seed " + seed);
        }
    }

    @Test
    void theRelaxationCarriesOnlyWholeLargeObjectsSoItsBoundIsTheOptimumWhereOnlyTheirCountLimits() {
        // one path S->R->E->G of 5 Mbit/s links, free; two requests for 3 Mbit/s objects: one fits
        Topology topology = Topology.builder().node("S", Tier.SOURCE, 0, 0).node("R", Tier.REFLECTOR, 0, 1)
                .node("E", Tier.EDGE, 0, 2).node("G", Tier.CLIENT_GROUP, 0, 3)
                .link("S", "R", 5_000, 0).link("R", "E", 5_000, 0).link("E", "G", 5_000, 0).build();
        Problem problem = new Problem(topology, List.of(new Request("G", new VideoObject("a", 3000), 1),
                new Request("G", new VideoObject("b", 3000), 1)), Weights.DEFAULT);

        Distribution rounded = relaxationOnly().optimise(problem);

        assertEquals(1, rounded.service(), 1e-9);
        assertEquals(rounded.objective(), rounded.bound(), 1e-6 * Math.abs(rounded.objective()),
                "the bound is one object's worth, not 5/3: " + rounded);
    }

    @Test
    void aProgramTooLargeToSolveWholeKeepsTheRelaxationsIntegralTreesAndSolvesTheRest() {
        // at most 150 variables solved exactly: the whole program is larger, the undecided part smaller
        CentralOptimiser fixing = new CentralOptimiser(solver,
                new CentralOptimiser.Options(Duration.ofSeconds(20), 0, 1, 150));
        for (long seed = 21; seed <= 22; seed++) {
            Problem problem = OptimiserFixtures.random(seed, 2, 4, 8, 16, 10, 4);
            Distribution trees = fixing.optimise(problem);
            Distribution optimum = exact().optimise(problem);

            assertTrue(trees.violations().isEmpty(), "seed " + seed + ": " + trees.violations());
            assertTrue(trees.objective() >= new GreedyTrees().optimise(problem).objective() - 1e-9, "seed " + seed);
            assertTrue(trees.objective() <= optimum.objective() + 1e-6, "seed " + seed);
            assertTrue(trees.bound() >= optimum.objective() - 1e-6, "seed " + seed + ": " + trees + " " + optimum);
        }
    }

    @Test
    void survivesRepeatedExactSolvesOnTwoWorkers() {
        // SCIP asked for two threads ran its concurrent mode, which crashed the JVM within a few solves
        CentralOptimiser twoWorkers = new CentralOptimiser(solver,
                new CentralOptimiser.Options(Duration.ofSeconds(20), 0, 2, 1_000_000));
        Problem problem = OptimiserFixtures.random(31, 2, 4, 8, 6, 10, 2);
        double first = twoWorkers.optimise(problem).objective();
        for (int i = 0; i < 15; i++) {
            assertEquals(first, twoWorkers.optimise(problem).objective(), 1e-9);
        }
    }

    @Test
    void isTheSameForTheSameProblem() {
        Problem problem = OptimiserFixtures.random(5, 2, 4, 8, 16, 10, 4);
        Distribution once = exact().optimise(problem);
        Distribution again = exact().optimise(problem);

        assertEquals(once.objective(), again.objective(), 1e-9);
        for (String key : problem.objects().keySet()) {
            assertEquals(once.links(key), again.links(key), key);
        }
    }

    @Test
    void theReorderingSearchImprovesOnABadOrderAndNeverMakesItWorse() {
        int improved = 0;
        for (long seed = 1; seed <= 10; seed++) {
            Problem problem = OptimiserFixtures.random(seed, 2, 4, 8, 20, 12, 4);
            ServeIndex index = new ServeIndex(problem);
            int[] greedy = GreedyTrees.order(index);
            int[] reversed = new int[greedy.length];
            for (int i = 0; i < greedy.length; i++) {
                reversed[i] = greedy[greedy.length - 1 - i];
            }
            double start = GreedyTrees.route(index, reversed, null).objective();

            TreeBuilder found = CentralOptimiser.reorder(index, reversed, null, System.nanoTime() + 200_000_000L,
                    Double.POSITIVE_INFINITY);

            Distribution trees = new Distribution(problem, found.serves(), "reordered", Double.NaN, Duration.ZERO);
            assertTrue(trees.violations().isEmpty(), "seed " + seed + ": " + trees.violations());
            assertEquals(trees.objective(), found.objective(), 1e-6, "seed " + seed + ": the builder's running objective");
            assertTrue(found.objective() >= start - 1e-9, "seed " + seed);
            if (found.objective() > start + 1e-9) {
                improved++;
            }
        }
        assertTrue(improved >= 3, "the lowest service per kbit/s first leaves room to improve: " + improved + " of 10");
    }

    @Test
    void keepsTheRefinedWarmStartWhenTheSolverFindsNothing() {
        SolverService nothing = new SolverService() {
            @Override
            public Solution solve(LinearModel model, SolveOptions options) {
                return Solution.ofLinear(SolveStatus.NOT_SOLVED, Double.NaN, Double.NaN, options.timeLimit(), new double[0]);
            }

            @Override
            public Solution solve(CpModel model, SolveOptions options) {
                return Solution.ofCp(SolveStatus.NOT_SOLVED, Double.NaN, Double.NaN, options.timeLimit(), new long[0]);
            }

            @Override
            public String version() {
                return "none";
            }
        };
        Problem problem = OptimiserFixtures.random(3, 2, 4, 8, 16, 10, 4);

        Distribution trees = new CentralOptimiser(nothing).optimise(problem);

        // the warm start, refined: what the optimiser falls back on
        ServeIndex index = new ServeIndex(problem);
        int[] order = GreedyTrees.order(index);
        TreeBuilder greedy = GreedyTrees.route(index, order, null);
        TreeBuilder refined = CentralOptimiser.refine(index, greedy, order, null, Long.MAX_VALUE,
                Double.POSITIVE_INFINITY);
        assertTrue(refined.objective() > new GreedyTrees().optimise(problem).objective(), "the refining finds more here");
        assertTrue(trees.violations().isEmpty());
        assertEquals(refined.objective(), trees.objective(), 1e-9);
        // no bound proven but the trivial ones: every request's service, and the source tier's
        double ceiling = problem.requests().stream().mapToDouble(r -> 10 * r.object().priority()).sum();
        assertEquals(Math.min(ceiling, index.sourceTierBound()), trees.bound(), 1e-9);
    }

    @Test
    void roundsWithEveryOrderOfUpToFiveBitrateClasses() {
        assertEquals(24, CentralOptimiser.classOrders(4).size());
        assertEquals(120, CentralOptimiser.classOrders(5).size());
        assertEquals(java.util.Set.of(java.util.List.of(0, 1), java.util.List.of(1, 0)),
                CentralOptimiser.classOrders(2).stream().map(r -> java.util.List.of(r[0], r[1]))
                        .collect(java.util.stream.Collectors.toSet()));
        // beyond five: ascending with each class first in turn, and descending
        java.util.List<int[]> six = CentralOptimiser.classOrders(6);
        assertEquals(7, six.size());
        assertEquals(java.util.List.of(1, 2, 0, 3, 4, 5), java.util.Arrays.stream(six.get(2)).boxed().toList());
        assertEquals(java.util.List.of(5, 4, 3, 2, 1, 0), java.util.Arrays.stream(six.get(6)).boxed().toList());
    }

    @Test
    void refusesOptionsOutsideTheirRanges() {
        assertThrows(IllegalArgumentException.class, () -> new CentralOptimiser.Options(Duration.ZERO, 0.01, 1, 10));
        assertThrows(IllegalArgumentException.class,
                () -> new CentralOptimiser.Options(Duration.ofSeconds(1), -0.1, 1, 10));
        assertThrows(IllegalArgumentException.class, () -> new CentralOptimiser.Options(Duration.ofSeconds(1), 0.01, 3, 10));
        assertEquals(Duration.ofSeconds(60), CentralOptimiser.Options.DEFAULT.timeLimit());
        assertEquals(0.01, CentralOptimiser.Options.DEFAULT.relativeGap());
        assertEquals(2, CentralOptimiser.Options.DEFAULT.workers());
    }
}
