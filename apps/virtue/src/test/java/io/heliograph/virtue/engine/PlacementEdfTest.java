package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The EDF an optimiser hands back: the new placement, its VM links and routes, ready for the next run. */
class PlacementEdfTest {

    @Test
    void theStartPlacementGivesBackTheOriginalFile() {
        PlacementProblem problem = UtilisationEstimateTest.appendixB();
        assertEquals(problem.edf(), problem.edfOf(problem.start(), Map.of()));
    }

    @Test
    void aMovedVmTakesItsLinksAndRoutesWithIt() {
        PlacementProblem problem = UtilisationEstimateTest.appendixB();
        Placement together = problem.placement(Map.of("vm0001", "host0001", "vm0002", "host0001",
                "vm0003", "host0001"));
        Edf next = problem.edfOf(together, Map.of("OPTIMIZER", "greedyNet"));
        assertEquals(List.of(), EdfFormat.problems(next, 4));
        assertEquals("greedyNet", next.parameters().get("OPTIMIZER"));
        assertEquals("180", next.parameters().get("experimentDuration"));
        assertEquals(List.of("vm0001", "vm0002", "vm0003"), List.copyOf(next.pms().get(0).vms().keySet()));
        assertEquals(Map.of(), next.pms().get(1).vms());
        assertEquals(problem.edf().pms().get(1).vms().get("vm0003"), next.pms().get(0).vms().get("vm0003"));
        assertEquals("vm0003:0->01:00:00:00:00:00:00:01:0", next.links().get(8).id());
        assertEquals(List.of("vm0002:0->01:00:00:00:00:00:00:01:0", "01:00:00:00:00:00:00:01:0->vm0003:0"),
                next.routes().get(2).linkIds());
        // the new file, read back with the same measurements, predicts what the old one did for this placement
        PlacementProblem again = PlacementProblem.of(EdfFormat.read(EdfFormat.write(next)), measurements());
        assertEquals(Utilisations.estimate(together, problem, Energy.ALL).minimax(),
                Utilisations.estimate(again.start(), again, Energy.ALL).minimax(), 0.0);
    }

    @Test
    void routesFollowTheTreesOnlyPaths() {
        ThreeTierTree tree = ThreeTierTree.thesis(10);
        int[] start = {0, 3, 12, 25, 39, 39};
        int[] moved = {39, 3, 0, 12, 25, 24};
        List<int[]> pairs = everyPair(start.length);
        PlacementProblem problem = PlacementProblem.of(tree.edf(start, pairs), Measurements.builder().build());
        Map<String, String> placement = new java.util.LinkedHashMap<>();
        for (int v = 0; v < moved.length; v++) {
            placement.put(ThreeTierTree.vmId(v), ThreeTierTree.pmId(moved[v]));
        }
        assertEquals(tree.edf(moved, pairs), problem.edfOf(problem.placement(placement), Map.of()));
    }

    @Test
    void aFlowsPathIsItsRouteLinkForLinkWithTheirCapacities() {
        ThreeTierTree tree = ThreeTierTree.thesis(10);
        int[] start = {0, 3, 12, 25, 39, 39};
        List<int[]> pairs = everyPair(start.length);
        Edf edf = tree.edf(start, pairs);
        PlacementProblem problem = PlacementProblem.of(edf, Measurements.builder().build());
        Placement placement = problem.start();
        for (Edf.Route route : edf.routes()) {
            int[] path = problem.path(placement, route.sourceId(), route.destinationId());
            List<String> ids = new ArrayList<>();
            for (int link : path) {
                ids.add(problem.linkId(link, placement));
            }
            assertEquals(route.linkIds(), ids, route.sourceId() + " to " + route.destinationId());
        }
        // across the core: VM link up, edge, ToR and aggregation uplinks, and down again
        int[] far = problem.path(placement, "vm0001", "vm0005");
        double[] capacities = new double[far.length];
        for (int i = 0; i < far.length; i++) {
            capacities[i] = problem.linkBitsPerSecond(far[i]);
        }
        assertArrayEquals(new double[] {200e6, 100e6, 250e6, 125e6, 125e6, 250e6, 100e6, 200e6}, capacities);
        // on one PM only the two VM links
        assertEquals(2, problem.path(placement, "vm0005", "vm0006").length);
        assertEquals(5.6e9, problem.cpuCyclesPerSecond("host0001"));
        assertThrows(IllegalArgumentException.class, () -> problem.path(placement, "vm0001", "vm0001"));
    }

    /** Every ordered pair of {@code vms} VMs. */
    private static List<int[]> everyPair(int vms) {
        List<int[]> pairs = new ArrayList<>();
        for (int a = 0; a < vms; a++) {
            for (int b = 0; b < vms; b++) {
                if (a != b) {
                    pairs.add(new int[] {a, b});
                }
            }
        }
        return pairs;
    }

    private static Measurements measurements() {
        return Measurements.builder()
                .cpu("vm0001", 1.4e9).cpu("vm0002", 2.8e9).cpu("vm0003", 0.56e9)
                .traffic("vm0001", "vm0002", 1e6).traffic("vm0002", "vm0001", 30e6)
                .traffic("vm0002", "vm0003", 2e6).traffic("vm0003", "vm0002", 5e6).build();
    }
}
