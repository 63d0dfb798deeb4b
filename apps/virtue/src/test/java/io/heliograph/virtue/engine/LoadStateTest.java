package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The incremental loads against a recomputation from scratch, after many random changes. */
class LoadStateTest {

    /**
     * A random experiment on the thesis's 16:1 tree: {@code vms} VMs placed at random (at most 4 a PM),
     * each talking to a few others at random rates, random CPU use.
     */
    static PlacementProblem randomProblem(int pmsPerRack, int vms, int peers, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ThreeTierTree tree = ThreeTierTree.thesis(pmsPerRack);
        int[] pmOf = RandomPlacement.assignment(vms, tree.pmCount(), 4, random.nextLong());
        Measurements.Builder measured = Measurements.builder();
        List<int[]> pairs = new ArrayList<>();
        boolean[][] seen = new boolean[vms][vms];
        for (int v = 0; v < vms; v++) {
            measured.cpu(ThreeTierTree.vmId(v), random.nextDouble(0.05e9, 1.2e9));
            for (int k = 0; k < peers; k++) {
                int w = random.nextInt(vms);
                if (w != v && !seen[v][w]) {
                    seen[v][w] = true;
                    pairs.add(new int[] {v, w});
                    measured.traffic(ThreeTierTree.vmId(v), ThreeTierTree.vmId(w), random.nextDouble(1e3, 40e6));
                }
            }
        }
        return PlacementProblem.of(tree.edf(pmOf, pairs), measured.build());
    }

    @Test
    void incrementalLoadsEqualAFullRecomputationAfterManyRandomMovesAndSwaps() {
        PlacementProblem problem = randomProblem(10, 60, 5, 7);
        SplittableRandom random = new SplittableRandom(11);
        for (Energy kind : Energy.values()) {
            LoadState state = new LoadState(problem, kind, problem.start().assignment());
            for (int step = 0; step < 3000; step++) {
                int v = random.nextInt(problem.vmCount());
                if (random.nextBoolean()) {
                    int w = random.nextInt(problem.vmCount());
                    state.swap(v, w);
                } else {
                    int p = random.nextInt(problem.pmCount());
                    if (state.vmsOn(p) < problem.maxVmsPerPm()) {
                        state.move(v, p);
                    }
                }
                if (step % 97 == 0) {
                    assertSame(problem, state, kind);
                }
            }
            assertSame(problem, state, kind);
        }
    }

    @Test
    void placingAndUnplacingOneByOneAddsUpToTheWhole() {
        PlacementProblem problem = randomProblem(10, 40, 6, 3);
        int[] start = problem.start().assignment();
        int[] none = new int[start.length];
        java.util.Arrays.fill(none, -1);
        LoadState state = new LoadState(problem, Energy.ALL, none);
        assertEquals(0.0, state.energy());
        for (int v = 0; v < start.length; v++) {
            state.place(v, start[v]);
            assertSame(problem, state, Energy.ALL);
        }
        for (int v = 0; v < start.length; v += 2) {
            state.unplace(v);
        }
        assertSame(problem, state, Energy.ALL);
        assertTrue(state.assignment()[0] < 0);
    }

    @Test
    void theEnergyIfPlacedEqualsPlacingAndLooking() {
        PlacementProblem problem = randomProblem(10, 40, 6, 13);
        SplittableRandom random = new SplittableRandom(5);
        for (Energy kind : Energy.values()) {
            int[] some = problem.start().assignment();
            for (int v = 0; v < some.length; v++) {
                some[v] = random.nextInt(3) == 0 ? -1 : some[v];
            }
            LoadState state = new LoadState(problem, kind, some);
            LoadState.Scratch scratch = new LoadState.Scratch(problem);
            for (int v = 0; v < some.length; v++) {
                if (some[v] >= 0) {
                    continue;
                }
                for (int p = 0; p < problem.pmCount(); p++) {
                    double predicted = state.energyIfPlaced(v, p, scratch);
                    state.place(v, p);
                    assertEquals(state.energy(), predicted, 0.0, kind + " " + v + " on " + p);
                    state.unplace(v);
                }
            }
        }
    }

    @Test
    void theMaxTreeFollowsChanges() {
        MaxTree tree = new MaxTree(5);
        assertEquals(Double.NEGATIVE_INFINITY, tree.max());
        for (int i = 0; i < 5; i++) {
            tree.set(i, 0);
        }
        tree.set(3, 0.7);
        tree.set(1, 0.7);
        assertEquals(0.7, tree.max());
        assertEquals(1, tree.argmax(), "the lowest index among equals");
        tree.set(1, 0.2);
        assertEquals(3, tree.argmax());
        tree.set(3, 0.1);
        assertEquals(0.2, tree.max());
        assertEquals(1, tree.argmax());
    }

    static void assertSame(PlacementProblem problem, LoadState state, Energy kind) {
        int[] pmOf = state.assignment();
        assertEquals(Estimator.energy(problem, pmOf, kind), state.energy(), 0.0, kind.toString());
        if (kind.usesLinks()) {
            long[] full = Estimator.linkLoad(problem, pmOf);
            long[] incremental = new long[full.length];
            for (int l = 0; l < full.length; l++) {
                incremental[l] = state.linkLoad(l);
            }
            assertArrayEquals(full, incremental, kind.toString());
        }
        long[] cpu = Estimator.cpuLoad(problem, pmOf);
        boolean within = true;
        for (int p = 0; p < cpu.length; p++) {
            within &= cpu[p] <= problem.cpuCapacity[p];
        }
        assertEquals(within, state.withinCpu());
    }
}
