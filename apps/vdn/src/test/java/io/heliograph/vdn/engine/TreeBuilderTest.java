package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The trees' local moves: room made on a full link by feeding what it carries over a sibling, and a
 * served request joined again to a tree that has grown; each keeps the trees feasible, its bookkeeping
 * equal to the trees' objective, and never lowers it.
 */
class TreeBuilderTest {

    private static final Weights WEIGHTS = new Weights(10, 0.001);

    /**
     * Two sources feed reflector R over 1 Mbit/s links, S1 the cheaper; R feeds edge E, which feeds groups
     * G1..G4 (all wide). Requests in this order: A (500) and B (300) take S1, leaving it 200; D (500)
     * then takes S2, leaving it 500; C (700) finds 700 free at R, split 200 and 500.
     */
    private static Problem split() {
        return new Problem(reflector(1_000), List.of(
                new Request("G1", new VideoObject("A", 500), 1),
                new Request("G2", new VideoObject("B", 300), 1),
                new Request("G3", new VideoObject("D", 500), 1),
                new Request("G4", new VideoObject("C", 700), 1)), WEIGHTS);
    }

    /** S1 (1 Mbit/s, cost 1) and S2 ({@code s2} kbit/s, cost 2) into R, R into E, E into G1..G5. */
    private static Topology reflector(long s2) {
        return Topology.builder()
                .node("S1", Tier.SOURCE, 0, 0)
                .node("S2", Tier.SOURCE, 1, 0)
                .node("R", Tier.REFLECTOR, 0, 1)
                .node("E", Tier.EDGE, 0, 2)
                .node("G1", Tier.CLIENT_GROUP, 0, 3)
                .node("G2", Tier.CLIENT_GROUP, 1, 3)
                .node("G3", Tier.CLIENT_GROUP, 2, 3)
                .node("G4", Tier.CLIENT_GROUP, 3, 3)
                .node("G5", Tier.CLIENT_GROUP, 4, 3)
                .link("S1", "R", 1_000, 1)
                .link("S2", "R", s2, 2)
                .link("R", "E", 10_000, 1)
                .link("E", "G1", 10_000, 0)
                .link("E", "G2", 10_000, 0)
                .link("E", "G3", 10_000, 0)
                .link("E", "G4", 10_000, 0)
                .link("E", "G5", 10_000, 0)
                .build();
    }

    @Test
    void freeSpaceSplitOverAReflectorsSourceLinksIsGatheredForARequest() {
        ServeIndex index = new ServeIndex(split());
        TreeBuilder trees = new TreeBuilder(index);
        for (int r = 0; r < 3; r++) {
            assertTrue(trees.route(r, null));
        }
        assertFalse(trees.route(3, null), "700 free at R, but 200 and 500 on two links");
        double before = trees.objective();

        assertTrue(trees.routeMakingRoom(3, null));

        Distribution result = check(trees);
        assertEquals(4, result.service(), 1e-9);
        Link s1 = link(result, "S1", "R");
        Link s2 = link(result, "S2", "R");
        // the cheapest room: A (500) to S2, which leaves S1 700 for C; B stays
        assertTrue(result.carries(s2, "A/500"));
        assertTrue(result.carries(s1, "B/300"));
        assertTrue(result.carries(s1, "C/700"));
        assertEquals(1_000, result.loadKbps()[s1.index()]);
        assertEquals(1_000, result.loadKbps()[s2.index()]);
        // C's gain less its path and A's dearer source link
        double expected = before + 10 - 0.001 * (1 * 700 + 1 * 700) - 0.001 * (2 - 1) * 500;
        assertEquals(expected, trees.objective(), 1e-9);
    }

    @Test
    void twoObjectsMoveWhereNoOneFreesEnough() {
        // A, B, F (200 each) take S1, leaving 400; D (700) then takes S2 (1.2 Mbit/s), leaving 500; C (700)
        // needs 300 more on S1 (two of the 200s moved to S2) or 200 more on S2 (D, which fits nowhere else)
        Problem problem = new Problem(reflector(1_200), List.of(
                new Request("G1", new VideoObject("A", 200), 1),
                new Request("G2", new VideoObject("B", 200), 1),
                new Request("G3", new VideoObject("F", 200), 1),
                new Request("G4", new VideoObject("D", 700), 1),
                new Request("G5", new VideoObject("C", 700), 1)), WEIGHTS);
        ServeIndex index = new ServeIndex(problem);
        TreeBuilder trees = new TreeBuilder(index);
        for (int r = 0; r < 4; r++) {
            assertTrue(trees.route(r, null));
        }
        assertFalse(trees.route(4, null));

        assertTrue(trees.routeMakingRoom(4, null));

        Distribution result = check(trees);
        assertEquals(5, result.service(), 1e-9);
        Link s1 = link(result, "S1", "R");
        Link s2 = link(result, "S2", "R");
        assertTrue(result.carries(s1, "C/700"));
        assertEquals(900, result.loadKbps()[s1.index()]);
        assertEquals(1_100, result.loadKbps()[s2.index()]);
    }

    @Test
    void noRoomIsMadeWhereTheRequestDoesNotPayForTheMove() {
        // the same split, with service worth 1.6: D's path through S2 (1.5) pays, C's path (1.4) with the
        // move of A to S2 (0.5) does not, so nothing may change
        Problem problem = new Problem(split().topology(), split().requests(), new Weights(1.6, 0.001));
        ServeIndex index = new ServeIndex(problem);
        TreeBuilder trees = new TreeBuilder(index);
        for (int r = 0; r < 3; r++) {
            assertTrue(trees.route(r, null));
        }
        Map<String, BitSet> before = trees.serves();
        double objective = trees.objective();

        assertFalse(trees.routeMakingRoom(3, null));

        assertEquals(before, trees.serves());
        assertEquals(objective, trees.objective(), 1e-12);
        check(trees);
    }

    /**
     * S feeds reflectors R1 (cost 1) and R2 (cost 2) over one 1 Mbit/s link each; edge E hangs from both,
     * edge E2 from R2 alone. A (400, G1 under E) takes R1; D (600, G3 under E2) takes R2; B (1000, G2
     * under E) then finds 600 and 400 free, and no sibling link to gather them on.
     */
    @Test
    void aSmallObjectEvictedFromAReflectorRejoinsThroughAnotherToMakeRoomForALargeOne() {
        Topology topology = Topology.builder()
                .node("S", Tier.SOURCE, 0, 0)
                .node("R1", Tier.REFLECTOR, 0, 1)
                .node("R2", Tier.REFLECTOR, 1, 1)
                .node("E", Tier.EDGE, 0, 2)
                .node("E2", Tier.EDGE, 1, 2)
                .node("G1", Tier.CLIENT_GROUP, 0, 3)
                .node("G2", Tier.CLIENT_GROUP, 1, 3)
                .node("G3", Tier.CLIENT_GROUP, 2, 3)
                .link("S", "R1", 1_000, 1)
                .link("S", "R2", 1_000, 2)
                .link("R1", "E", 10_000, 1)
                .link("R2", "E", 10_000, 1)
                .link("R2", "E2", 10_000, 1)
                .link("E", "G1", 10_000, 0)
                .link("E", "G2", 10_000, 0)
                .link("E2", "G3", 10_000, 0)
                .build();
        Problem problem = new Problem(topology, List.of(
                new Request("G1", new VideoObject("A", 400), 1),
                new Request("G3", new VideoObject("D", 600), 1),
                new Request("G2", new VideoObject("B", 1_000), 1)), WEIGHTS);
        ServeIndex index = new ServeIndex(problem);
        TreeBuilder trees = new TreeBuilder(index);
        assertTrue(trees.route(0, null));
        assertTrue(trees.route(1, null));
        assertFalse(trees.routeMakingRoom(2, null), "no sibling links: no room to gather");
        double before = trees.objective();

        TreeBuilder better = trees.routeEvicting(2, null);

        Distribution result = check(better);
        assertEquals(3, result.service(), 1e-9);
        assertTrue(result.carries(link(result, "S", "R1"), "B/1000"));
        assertTrue(result.carries(link(result, "S", "R2"), "A/400"), "A evicted from R1, back through R2");
        assertEquals("R2", result.parent("E", "A/400").orElseThrow());
        // B's gain less its path, and A's source link dearer by 1 at 400 kbit/s
        assertEquals(before + 10 - 0.001 * (1_000 + 1_000) - 0.001 * 400, better.objective(), 1e-9);
        assertEquals(before, trees.objective(), 1e-12, "the trees tried on are a copy");
        assertFalse(trees.serves(2));
    }

    /**
     * Reflectors R1 and R2 each fed by S; edge E1 (under both) feeds G1, edge E2 (under R1 only) feeds
     * G2. G1's request, routed first with R1 made to look dear, goes through R2; G2's must then bring the
     * object to R1, from which G1 could have hung.
     */
    @Test
    void aRequestRejoinedHangsFromTheTreeAsItGrewAndFreesASourceLink() {
        Topology topology = Topology.builder()
                .node("S", Tier.SOURCE, 0, 0)
                .node("R1", Tier.REFLECTOR, 0, 1)
                .node("R2", Tier.REFLECTOR, 1, 1)
                .node("E1", Tier.EDGE, 0, 2)
                .node("E2", Tier.EDGE, 1, 2)
                .node("G1", Tier.CLIENT_GROUP, 0, 3)
                .node("G2", Tier.CLIENT_GROUP, 1, 3)
                .link("S", "R1", 10_000, 3)
                .link("S", "R2", 10_000, 3)
                .link("R1", "E1", 10_000, 3)
                .link("R2", "E1", 10_000, 3)
                .link("R1", "E2", 10_000, 3)
                .link("E1", "G1", 10_000, 0)
                .link("E2", "G2", 10_000, 0)
                .build();
        VideoObject shared = new VideoObject("V", 1_000);
        Problem problem = new Problem(topology, List.of(new Request("G1", shared, 1), new Request("G2", shared, 1)),
                WEIGHTS);
        ServeIndex index = new ServeIndex(problem);
        int r1 = topology.indexOf("R1");
        TreeBuilder trees = new TreeBuilder(index);
        assertTrue(trees.route(0, (l, o) -> index.to[l] == r1 ? 100 : index.price(l, o)));
        assertTrue(trees.route(1, null));
        Link sR2 = link(check(trees), "S", "R2");
        assertTrue(check(trees).carries(sR2, "V/1000"), "G1 came in through R2");
        double before = trees.objective();

        trees.rejoin(0);

        Distribution result = check(trees);
        assertFalse(result.carries(sR2, "V/1000"), "R2's source link is freed");
        assertEquals("R1", result.parent("E1", "V/1000").orElseThrow());
        assertEquals(2, result.service(), 1e-9);
        // two links of cost 3 at 1 Mbit/s fewer
        assertEquals(before + 0.001 * 3 * 1_000 * 2 - 0.001 * 3 * 1_000, trees.objective(), 1e-9);
    }

    @Test
    void onRandomProblemsTheMovesKeepTreesFeasibleAndTheirObjectiveRight() {
        for (long seed = 1; seed <= 40; seed++) {
            Problem problem = OptimiserFixtures.random(seed, 2, 4, 8, 24, 12, 5);
            ServeIndex index = new ServeIndex(problem);
            int[] order = GreedyTrees.order(index);
            TreeBuilder routed = GreedyTrees.route(index, order, null);

            TreeBuilder trees = CentralOptimiser.refine(index, routed, order, null, Long.MAX_VALUE,
                Double.POSITIVE_INFINITY);

            Distribution result = check(trees);
            assertTrue(trees.objective() >= routed.objective() - 1e-9, "seed " + seed + ": the moves never lose");
            for (int r = 0; r < index.requests(); r++) {
                assertEquals(trees.serves(r), result.served(problem.requests().get(r)), "seed " + seed + " request " + r);
            }
        }
    }

    /** The trees as a distribution, checked feasible and with the objective the builder kept. */
    private static Distribution check(TreeBuilder trees) {
        Distribution result = trees.distribution("test", Double.NaN, Duration.ZERO);
        assertTrue(result.violations().isEmpty(), result.violations().toString());
        assertEquals(result.objective(), trees.objective(), 1e-6);
        return result;
    }

    private static Link link(Distribution trees, String from, String to) {
        return trees.problem().topology().link(from, to).orElseThrow();
    }
}
