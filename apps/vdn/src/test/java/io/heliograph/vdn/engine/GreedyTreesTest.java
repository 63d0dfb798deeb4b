package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The greedy warm start: feasible always, the thesis's example, shared links reused, unprofitable requests left. */
class GreedyTreesTest {

    private final GreedyTrees greedy = new GreedyTrees();

    @Test
    void servesTheTwoV1RequestsAvoidingTheCostlyLinkYA() {
        Distribution trees = greedy.optimise(OptimiserFixtures.fig49Problem(false));

        assertTrue(trees.violations().isEmpty(), trees.violations().toString());
        assertEquals(2, trees.service(), 1e-9);
        Link ya = link(trees, "Y", "A");
        assertFalse(trees.carries(ya, "V1/800"));
        assertEquals("X", trees.parent("B", "V1/800").orElseThrow());
        assertEquals("X", trees.parent("C", "V1/800").orElseThrow());
        // S->X once, shared by both edges: 3 links of cost 1 at 800 kbit/s
        assertEquals(3 * 800, trees.cost(), 1e-9);
        assertTrue(Double.isNaN(trees.gap()), "a heuristic proves no bound");
        assertEquals("greedy", trees.method());
    }

    @Test
    void theHighPriorityV2RequestIsWorthTheCostlyLink() {
        Distribution trees = greedy.optimise(OptimiserFixtures.fig49Problem(true));

        assertTrue(trees.violations().isEmpty(), trees.violations().toString());
        assertTrue(trees.carries(link(trees, "Y", "A"), "V2/900"));
        assertFalse(trees.carries(link(trees, "Y", "A"), "V1/800"));
        assertEquals(102, trees.service(), 1e-9);
    }

    @Test
    void leavesARequestWhoseServiceIsWorthLessThanItsCost() {
        VideoObject ordinary = new VideoObject("V2", 900);
        Problem problem = new Problem(OptimiserFixtures.fig49(),
                List.of(new Request("G3", ordinary, 1)), OptimiserFixtures.FIG_4_9_WEIGHTS);

        Distribution trees = greedy.optimise(problem);

        // 500 of service against 0.1 x 11 x 900 = 990 of cost
        assertFalse(trees.served(problem.requests().get(0)));
        assertEquals(0, trees.objective(), 1e-9);
    }

    @Test
    void neverExceedsACapacityNorSendsWhatANodeDoesNotReceive() {
        for (long seed = 1; seed <= 30; seed++) {
            Problem problem = OptimiserFixtures.random(seed, 2, 4, 8, 20, 12, 4);
            Distribution trees = greedy.optimise(problem);
            assertTrue(trees.violations().isEmpty(), "seed " + seed + ": " + trees.violations());
            assertTrue(trees.objective() >= 0, "seed " + seed + ": every request served pays for itself");
            long[] load = trees.loadKbps();
            for (Link link : problem.topology().links()) {
                assertTrue(load[link.index()] <= link.capacityKbps());
            }
        }
    }

    @Test
    void isTheSameForTheSameProblem() {
        Problem problem = OptimiserFixtures.random(7, 2, 4, 8, 30, 10, 5);
        Distribution once = greedy.optimise(problem);
        Distribution again = greedy.optimise(problem);
        for (String key : problem.objects().keySet()) {
            assertEquals(once.links(key), again.links(key), key);
        }
    }

    static Link link(Distribution trees, String from, String to) {
        return trees.problem().topology().link(from, to).orElseThrow();
    }
}
