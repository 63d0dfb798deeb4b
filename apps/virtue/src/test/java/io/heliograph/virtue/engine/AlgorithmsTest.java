package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class AlgorithmsTest {

    private static final double EPS = 1e-12;

    @Test
    void everyAlgorithmKeepsItsConstraintsAndPredictsWhatTheEstimateSays() {
        for (long seed = 1; seed <= 3; seed++) {
            PlacementProblem problem = LoadStateTest.randomProblem(10, 30, 4, seed);
            for (PlacementAlgorithm algorithm : Algorithms.all()) {
                PlacementResult result = algorithm.place(problem, seed);
                assertTrue(result.feasible(), result.toString());
                Placement placement = result.placement().orElseThrow();
                int[] pmOf = placement.assignment();
                int[] count = new int[problem.pmCount()];
                for (int p : pmOf) {
                    count[p]++;
                }
                for (int p = 0; p < count.length; p++) {
                    assertTrue(count[p] <= problem.maxVmsPerPm(), algorithm.name() + ": " + count[p] + " VMs on a PM");
                }
                if (algorithm.energy().usesCpu() && !(algorithm instanceof RandomPlacement)) {
                    long[] cpu = Estimator.cpuLoad(problem, pmOf);
                    for (int p = 0; p < cpu.length; p++) {
                        assertTrue(cpu[p] <= problem.cpuCapacity[p], algorithm.name() + " overloads a CPU");
                    }
                }
                Utilisations predicted = result.predicted().orElseThrow();
                assertEquals(Estimator.energy(problem, pmOf, algorithm.energy()), predicted.energy(), 0.0);
                assertEquals(Estimator.energy(problem, pmOf, Energy.ALL), predicted.minimax(), 0.0);
                assertEquals(placement, algorithm.place(problem, seed).placement().orElseThrow(),
                        algorithm.name() + " is deterministic given its seed");
            }
        }
    }

    @Test
    void localSearchesNeverEndWorseThanTheirStart() {
        for (long seed = 1; seed <= 4; seed++) {
            PlacementProblem problem = LoadStateTest.randomProblem(10, 40, 5, 100 + seed);
            for (PlacementAlgorithm algorithm : List.of(new SimulatedAnnealing(Energy.CPU, 1000),
                    new SimulatedAnnealing(Energy.CPU_NIC, 1000), new SimulatedAnnealing(Energy.CPU_NIC_TRAFFIC, 1000),
                    new SimulatedAnnealing(Energy.ALL, 1000), new GreedyNet())) {
                double start = Utilisations.estimate(problem.start(), problem, algorithm.energy()).energy();
                double end = algorithm.place(problem, seed).predicted().orElseThrow().energy();
                assertTrue(end <= start, algorithm.name() + " ended at " + end + " from " + start);
            }
        }
    }

    @Test
    void annealingReturnsTheBestItSawNotWhereItWandered() {
        // at t = T every step is taken, uphill too: a chain this short ends worse than it started about
        // half the time, and only keeping the best seen keeps the result at or below the start
        PlacementProblem problem = LoadStateTest.randomProblem(10, 40, 5, 8);
        for (Energy kind : List.of(Energy.CPU, Energy.CPU_NIC, Energy.CPU_NIC_TRAFFIC, Energy.ALL)) {
            double start = Utilisations.estimate(problem.start(), problem, kind).energy();
            for (long seed = 0; seed < 40; seed++) {
                double end = new SimulatedAnnealing(kind, 2).place(problem, seed).predicted().orElseThrow().energy();
                assertTrue(end <= start, kind + " seed " + seed + ": " + end + " from " + start);
            }
        }
    }

    @Test
    void annealingImprovesARandomStartAndDependsOnItsSeed() {
        PlacementProblem problem = LoadStateTest.randomProblem(10, 40, 5, 5);
        SimulatedAnnealing saAll = new SimulatedAnnealing(Energy.ALL, 2000);
        double start = Utilisations.estimate(problem.start(), problem, Energy.ALL).energy();
        PlacementResult one = saAll.place(problem, 1);
        assertTrue(one.predicted().orElseThrow().energy() < start, one + " from " + start);
        assertNotEquals(one.placement(), saAll.place(problem, 2).placement());
    }

    @Test
    void theAcceptanceFunctionIsAlgorithm4() {
        assertEquals(1.0, SimulatedAnnealing.probability(0.5, 0.4, 10, 1000));
        assertEquals(1.0, SimulatedAnnealing.probability(0.5, 0.9, 1000, 1000), "t = T: every step is taken");
        assertEquals(Math.exp(-4.6 * 4 * 0.5), SimulatedAnnealing.probability(0.4, 0.8, 500, 1000), EPS);
        assertEquals(Math.exp(-4.6 * 0.999), SimulatedAnnealing.probability(0.3, 0.3, 1, 1000), EPS,
                "level steps near the end: about 1%");
        assertEquals(0.0, SimulatedAnnealing.probability(0, 0.1, 10, 1000));
        assertEquals(Math.exp(-4.6 * 0.5), SimulatedAnnealing.probability(0, 0, 500, 1000), EPS);
    }

    @Test
    void greedyFillPlacesInAscendingTrafficOrderLeftToRight() {
        // no traffic matrix: every link stays idle, and equal CPU spreads the VMs one a PM in placing order
        ThreeTierTree tree = new ThreeTierTree(1, 1, 6, 100e6, 100e6, 100e6);
        Edf edf = tree.edf(new int[] {0, 0, 1, 1, 2}, List.of());
        Measurements measured = Measurements.builder()
                .nic("vm0001", 20e6, 10e6).nic("vm0002", 5e6, 5e6).nic("vm0003", 1e6, 19e6)
                .nic("vm0004", 0, 10e6).nic("vm0005", 0, 0)
                .cpu("vm0001", 1e9).cpu("vm0002", 1e9).cpu("vm0003", 1e9).cpu("vm0004", 1e9).cpu("vm0005", 1e9)
                .build();
        PlacementProblem problem = PlacementProblem.of(edf, measured);
        assertEquals(List.of(4, 1, 3, 2, 0), List.of(GreedyFill.order(problem)), "ascending, ties in EDF order");
        Placement placed = new GreedyFill().place(problem, 0).placement().orElseThrow();
        assertEquals(Map.of("vm0005", "host0001", "vm0002", "host0002", "vm0004", "host0003",
                "vm0003", "host0004", "vm0001", "host0005"), placed.asMap());
    }

    @Test
    void greedyFillPutsAnAllToAllJobOneVmAPmAcrossTheFirstTwoRacks() {
        // the thesis's Hadoop 20 VMs on 40 PMs (L1183): the optimum, by left-to-right tie-breaking
        ThreeTierTree tree = ThreeTierTree.thesis(10);
        int[] start = new int[20];
        for (int v = 0; v < 20; v++) {
            start[v] = 39 - v / 2;
        }
        List<int[]> pairs = new ArrayList<>();
        Measurements.Builder measured = Measurements.builder();
        for (int a = 0; a < 20; a++) {
            measured.cpu(ThreeTierTree.vmId(a), 1.5e9);
            for (int b = 0; b < 20; b++) {
                if (a != b) {
                    pairs.add(new int[] {a, b});
                    measured.traffic(ThreeTierTree.vmId(a), ThreeTierTree.vmId(b), 0.5e6);
                }
            }
        }
        PlacementProblem problem = PlacementProblem.of(tree.edf(start, pairs), measured.build());
        Placement placed = new GreedyFill().place(problem, 0).placement().orElseThrow();
        for (int p = 0; p < 20; p++) {
            assertEquals(1, placed.vmsOn(ThreeTierTree.pmId(p)).size(), ThreeTierTree.pmId(p));
        }
    }

    @Test
    void greedyNetMovesTheVmsOfTheHottestLinkUntilNoMoveHelps() {
        PlacementProblem problem = UtilisationEstimateTest.appendixB();
        PlacementResult result = new GreedyNet().place(problem, 0);
        // vm0003 -> vm0002 loads host0001's 10 Mb/s downlink to 0.5; moving vm0002 away would load it
        // with 30 Mb/s, moving vm0003 in empties it; then vm0002's own link (0.16) cannot be relieved
        assertEquals(Map.of("vm0001", "host0001", "vm0002", "host0001", "vm0003", "host0001"),
                result.placement().orElseThrow().asMap());
        assertEquals(32.0 / 200, result.predicted().orElseThrow().energy(), EPS);
        assertEquals(4.76 / 5.6, result.predicted().orElseThrow().minimax(), EPS, "it ignores CPU");
    }

    @Test
    void anInfeasibleRequestSaysSoInsteadOfBreakingAConstraint() {
        ThreeTierTree tree = new ThreeTierTree(1, 1, 2, 100e6, 100e6, 100e6);
        // four VMs of 3 GHz on two PMs of 5.6 GHz: no placement keeps both within CPU capacity
        Edf edf = tree.edf(new int[] {0, 0, 1, 1}, List.of());
        Measurements.Builder measured = Measurements.builder();
        for (int v = 0; v < 4; v++) {
            measured.cpu(ThreeTierTree.vmId(v), 3e9);
        }
        PlacementProblem problem = PlacementProblem.of(edf, measured.build());
        for (PlacementAlgorithm algorithm : List.of(new GreedyFill(), new SimulatedAnnealing(Energy.CPU, 500),
                new SimulatedAnnealing(Energy.ALL, 500))) {
            PlacementResult result = algorithm.place(problem, 1);
            assertFalse(result.feasible(), result.toString());
            assertTrue(result.infeasibility().orElseThrow().contains("CPU"), result.toString());
            assertTrue(result.placement().isEmpty());
        }
    }
}
