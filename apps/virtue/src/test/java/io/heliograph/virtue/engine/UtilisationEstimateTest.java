package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Spec §3.5 on Appendix B, computed by hand. host0001 (vm0001, vm0002) and host0002 (vm0003) have
 * 2 x 2.8 GHz; host0001's switch reaches the physical switch over 10 Mb/s links (the printed speeds),
 * host0002's over 100 Mb/s; VM links are 200 Mb/s (INTRA_PM_LINK_SPEED).
 */
class UtilisationEstimateTest {

    private static final double EPS = 1e-12;
    static final String UP_1 = "01:00:00:00:00:00:00:01:1->00:00:00:00:00:00:00:01:1";
    static final String DOWN_1 = "00:00:00:00:00:00:00:01:1->01:00:00:00:00:00:00:01:1";
    static final String DOWN_2 = "00:00:00:00:00:00:00:01:2->01:00:00:00:00:00:00:02:1";
    static final String UP_2 = "01:00:00:00:00:00:00:02:1->00:00:00:00:00:00:00:01:2";

    static PlacementProblem appendixB() {
        Measurements measured = Measurements.builder()
                .cpu("vm0001", 1.4e9).cpu("vm0002", 2.8e9).cpu("vm0003", 0.56e9)
                .traffic("vm0001", "vm0002", 1e6)
                .traffic("vm0002", "vm0001", 30e6)
                .traffic("vm0002", "vm0003", 2e6)
                .traffic("vm0003", "vm0002", 5e6)
                .build();
        return PlacementProblem.of(EdfFormat.read(EdfFormatTest.appendixB()), measured);
    }

    @Test
    void theAppendixPlacementByHand() {
        PlacementProblem problem = appendixB();
        Utilisations u = Utilisations.estimate(problem.start(), problem, Energy.ALL);
        assertEquals(4.2 / 5.6, u.cpu().get("host0001"), EPS);
        assertEquals(0.1, u.cpu().get("host0002"), EPS);
        // VM links: what each VM sends up and receives down, over 200 Mb/s, wherever its peer is
        assertEquals(1.0 / 200, u.links().get("vm0001:0->01:00:00:00:00:00:00:01:0"), EPS);
        assertEquals(32.0 / 200, u.links().get("vm0002:0->01:00:00:00:00:00:00:01:0"), EPS);
        assertEquals(30.0 / 200, u.links().get("01:00:00:00:00:00:00:01:0->vm0001:0"), EPS);
        assertEquals(6.0 / 200, u.links().get("01:00:00:00:00:00:00:01:0->vm0002:0"), EPS);
        assertEquals(2.0 / 200, u.links().get("01:00:00:00:00:00:00:02:0->vm0003:0"), EPS);
        // only vm0002 <-> vm0003 crosses the physical switch; vm0001 <-> vm0002 stays in host0001
        assertEquals(2.0 / 10, u.links().get(UP_1), EPS);
        assertEquals(2.0 / 100, u.links().get(DOWN_2), EPS);
        assertEquals(5.0 / 100, u.links().get(UP_2), EPS);
        assertEquals(5.0 / 10, u.links().get(DOWN_1), EPS);
        assertEquals(10, u.links().size());
        assertEquals(0.75, u.minimax(), EPS);
        assertEquals("CPU of host0001", u.hottest());
        assertEquals(0.75, u.energy(), EPS);
    }

    @Test
    void eachAlgorithmsEstimateByHand() {
        PlacementProblem problem = appendixB();
        Placement start = problem.start();
        assertEquals(0.75, Utilisations.estimate(start, problem, Energy.CPU).energy(), EPS);
        // SA CN: NIC counters (here the traffic matrix's row and column sums) include intra-PM traffic:
        // host0001 receives 30 + 6 Mb/s over a 10 Mb/s NIC
        Utilisations cn = Utilisations.estimate(start, problem, Energy.CPU_NIC);
        assertEquals(3.3, cn.nicSent().get("host0001"), EPS);
        assertEquals(3.6, cn.nicReceived().get("host0001"), EPS);
        assertEquals(0.05, cn.nicSent().get("host0002"), EPS);
        assertEquals(3.6, cn.energy(), EPS);
        // SA CNTM: only what crosses PMs, 2 Mb/s out of host0001 and 5 Mb/s in
        Utilisations cntm = Utilisations.estimate(start, problem, Energy.CPU_NIC_TRAFFIC);
        assertEquals(0.2, cntm.nicSent().get("host0001"), EPS);
        assertEquals(0.5, cntm.nicReceived().get("host0001"), EPS);
        assertEquals(0.02, cntm.nicReceived().get("host0002"), EPS);
        assertEquals(0.75, cntm.energy(), EPS);
        // Greedy Net: links only, the 10 Mb/s downlink to host0001 at 5 Mb/s
        assertEquals(0.5, Utilisations.estimate(start, problem, Energy.NETWORK).energy(), EPS);
    }

    @Test
    void movingAVmReroutesItsTraffic() {
        PlacementProblem problem = appendixB();
        Placement moved = problem.placement(Map.of("vm0001", "host0001", "vm0002", "host0002", "vm0003", "host0002"));
        Utilisations u = Utilisations.estimate(moved, problem, Energy.ALL);
        assertEquals(0.25, u.cpu().get("host0001"), EPS);
        assertEquals(3.36 / 5.6, u.cpu().get("host0002"), EPS);
        assertEquals(1.0 / 10, u.links().get(UP_1), EPS);
        assertEquals(1.0 / 100, u.links().get(DOWN_2), EPS);
        assertEquals(30.0 / 100, u.links().get(UP_2), EPS);
        assertEquals(30.0 / 10, u.links().get(DOWN_1), EPS);
        assertEquals(3.0, u.minimax(), EPS);
        assertEquals("link " + DOWN_1, u.hottest());
        // vm0002's links now end at host0002's switch
        assertEquals(32.0 / 200, u.links().get("vm0002:0->01:00:00:00:00:00:00:02:0"), EPS);
        Placement together = problem.placement(Map.of("vm0001", "host0001", "vm0002", "host0001", "vm0003", "host0001"));
        Utilisations all = Utilisations.estimate(together, problem, Energy.ALL);
        assertEquals(4.76 / 5.6, all.minimax(), EPS);
        assertEquals(0.0, all.links().get(UP_1), EPS);
        assertEquals(32.0 / 200, Utilisations.estimate(together, problem, Energy.NETWORK).energy(), EPS);
        assertEquals(0.0, Utilisations.estimate(together, problem, Energy.CPU_NIC_TRAFFIC).nicSent().get("host0001"), EPS);
    }

    @Test
    void measuredNicRatesReplaceTheTrafficMatrixSums() {
        Measurements measured = Measurements.builder()
                .nic("vm0001", 4e6, 1e6).nic("vm0002", 0, 0).nic("vm0003", 0, 0)
                .traffic("vm0001", "vm0002", 1e6).build();
        PlacementProblem problem = PlacementProblem.of(EdfFormat.read(EdfFormatTest.appendixB()), measured);
        Utilisations cn = Utilisations.estimate(problem.start(), problem, Energy.CPU_NIC);
        assertEquals(0.4, cn.nicSent().get("host0001"), EPS);
        assertEquals(0.1, cn.nicReceived().get("host0001"), EPS);
        assertEquals(0.4, cn.energy(), EPS);
    }

    @Test
    void measurementsOfUnknownVmsOrImpossibleRatesAreRefused() {
        Edf edf = EdfFormat.read(EdfFormatTest.appendixB());
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> PlacementProblem.of(edf,
                Measurements.builder().cpu("vm0009", 1).cpu("vm0001", -1)
                        .traffic("vm0001", "vm0001", 5).traffic("vm0001", "vm0002", Double.NaN)
                        .traffic("vm0001", "vm0003", 1).traffic("vm0001", "vm0003", 2)
                        .nic("vm0042", 1, 1).build()));
        assertEquals(List.of("measurements.cpu.vm0009", "measurements.cpu.vm0001",
                "measurements.traffic[0]", "measurements.traffic[1].bitsPerSecond", "measurements.traffic[3]",
                "measurements.nic.vm0042"), EdfFormatTest.paths(e.problems()));
    }

    @Test
    void theThesisTreeIsAValidEdfWithTheThesisCapacities() {
        ThreeTierTree tree = ThreeTierTree.thesis(20);
        assertEquals(80, tree.pmCount());
        int[] pmOf = {0, 0, 1, 20, 79};
        Edf edf = tree.edf(pmOf, List.of(new int[] {0, 1}, new int[] {0, 2}, new int[] {0, 3}, new int[] {4, 0}));
        assertEquals(edf, EdfFormat.read(EdfFormat.write(edf)), "valid, and routes are paths");
        assertEquals(2, edf.routes().get(0).linkIds().size(), "same PM: the two VM links");
        assertEquals(4, edf.routes().get(1).linkIds().size(), "same rack");
        assertEquals(6, edf.routes().get(2).linkIds().size(), "same aggregation switch");
        assertEquals(8, edf.routes().get(3).linkIds().size(), "through the core");
        PlacementProblem problem = PlacementProblem.of(edf, Measurements.builder()
                .traffic("vm0005", "vm0001", 1e6).build());
        Utilisations u = Utilisations.estimate(problem.start(), problem, Energy.ALL);
        // 1 Mb/s through the core crosses a 250 Mb/s aggregation uplink, a 500 Mb/s ToR uplink, 100 Mb/s edges
        double[] expected = {1.0 / 200, 1.0 / 100, 1.0 / 500, 1.0 / 250, 1.0 / 250, 1.0 / 500, 1.0 / 100, 1.0 / 200};
        List<String> path = edf.routes().get(3).linkIds();
        for (int i = 0; i < path.size(); i++) {
            assertEquals(expected[i], u.links().get(path.get(i)), EPS, path.get(i));
        }
        assertEquals(1.0 / 100, u.minimax(), EPS);
    }
}
