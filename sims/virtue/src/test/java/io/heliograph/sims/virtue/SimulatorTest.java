package io.heliograph.sims.virtue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.virtue.engine.Measurements;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.ThreeTierTree;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The model against figures worked out by hand from {@link Costs}. */
class SimulatorTest {

    /** One rack of 4 PMs, 100 Mb/s edges, the thesis's PMs (2 x 2.8 GHz) and 200 Mb/s VM links. */
    private static final ThreeTierTree RACK = new ThreeTierTree(1, 1, 4, 100e6, 400e6, 400e6);

    private static Simulator.Outcome run(Workload workload, int... pmOf) {
        PlacementProblem problem = PlacementProblem.of(RACK.edf(pmOf, List.of()), Measurements.builder().build());
        return new Simulator(workload, problem).run(problem.start().asMap());
    }

    private static Map<String, Double> traffic(Simulator.Outcome outcome) {
        return outcome.measured().traffic().stream().collect(Collectors.toMap(
                flow -> flow.source() + ">" + flow.destination(), Measurements.Flow::bitsPerSecond));
    }

    @Test
    void aWebServiceOnThreePmsIsHeldByItsWebVmsEdge() {
        // the Web VM's edge link out carries each response and its 10 Memcached requests
        double perRequest = (Costs.RESPONSE_BYTES + Costs.CACHE_CALLS * Costs.CACHE_REQUEST_BYTES) * 8;
        Simulator.Outcome outcome = run(new Workload().web(1, 1, 1), 0, 1, 2);
        double expected = 100e6 / perRequest;
        assertEquals(expected, outcome.requestsPerSecond(), 1e-6 * expected);
        assertEquals(352.4, outcome.requestsPerSecond(), 0.1);
        assertEquals(Costs.OUTSTANDING_REQUESTS / expected, outcome.responseSeconds(), 1e-9);

        // what a controller measures is what was carried, and the CPU it cost
        Map<String, Double> traffic = traffic(outcome);
        assertEquals(expected * Costs.RESPONSE_BYTES * 8, traffic.get("vm0002>vm0001"), 1e-3);
        assertEquals(expected * Costs.REQUEST_BYTES * 8, traffic.get("vm0001>vm0002"), 1e-3);
        assertEquals(expected * Costs.CACHE_CALLS * Costs.CACHE_RESPONSE_BYTES * 8, traffic.get("vm0003>vm0002"), 1e-3);
        assertEquals(4, traffic.size());
        assertEquals(expected * Simulator.webCycles(), outcome.measured().cpu().get("vm0002"), 1e-3);
        assertEquals(expected * Costs.CACHE_CALLS * Simulator.cacheCycles(), outcome.measured().cpu().get("vm0003"), 1e-3);
        assertTrue(Double.isNaN(outcome.hadoopSeconds()));
    }

    @Test
    void onOnePmTheVmLinksHoldItTwiceAsFast() {
        // every transfer crosses only the two VMs' 200 Mb/s links; the PM's CPU is not yet full
        double perRequest = (Costs.RESPONSE_BYTES + Costs.CACHE_CALLS * Costs.CACHE_REQUEST_BYTES) * 8;
        Simulator.Outcome outcome = run(new Workload().web(1, 1, 1), 0, 0, 0);
        assertEquals(200e6 / perRequest, outcome.requestsPerSecond(), 1e-6 * outcome.requestsPerSecond());
        double cycles = Simulator.webCycles() + Simulator.clientCycles() + Costs.CACHE_CALLS * Simulator.cacheCycles();
        assertTrue(outcome.requestsPerSecond() * cycles < 5.6e9);
    }

    @Test
    void onASlowPmTheCpuItsVmsShareHoldsTheService() {
        // PMs of 2 x 1.4 GHz: client, Web and Memcached VMs on one share 2.8 GHz, less than their links allow
        ThreeTierTree slow = new ThreeTierTree(1, 1, 4, 100e6, 400e6, 400e6).parameter("CPU_SPEED", "1.4E9");
        PlacementProblem problem = PlacementProblem.of(slow.edf(new int[] {0, 0, 0}, List.of()),
                Measurements.builder().build());
        Simulator.Outcome outcome = new Simulator(new Workload().web(1, 1, 1), problem).run(problem.start().asMap());
        double cycles = Simulator.webCycles() + Simulator.clientCycles() + Costs.CACHE_CALLS * Simulator.cacheCycles();
        // the Web VM's one virtual CPU (1.4 GHz) could be the limit too: whichever is less
        double expected = Math.min(2.8e9 / cycles, 1.4e9 / Simulator.webCycles());
        assertEquals(expected, outcome.requestsPerSecond(), 1e-6 * expected);
        assertEquals(2.8e9, outcome.measured().cpu().values().stream().mapToDouble(Double::doubleValue).sum(), 1);
    }

    @Test
    void aHadoopJobIsItsCpuPhasesPlusItsShufflesPlusItsSetup() {
        double bytes = 1e9;
        Simulator.Outcome apart = run(new Workload().hadoop(2, bytes), 0, 1);
        double cpu = bytes / 2 * Costs.SORT_CYCLES_PER_BYTE / 2.8e9;
        // each burst sends a quarter of the data each way, half of each VM's share to the other
        double shuffle = 2 * (bytes / 2 / 2 / 2 * 8) / 100e6;
        assertEquals(Costs.JOB_SETUP_SECONDS + cpu + shuffle, apart.hadoopSeconds(), 1e-6);
        assertTrue(Double.isNaN(apart.responseSeconds()));

        // three VMs of one job on a PM of two cores: each CPU phase takes 3/2 as long
        Simulator.Outcome packed = run(new Workload().hadoop(3, 1.5e9), 0, 0, 0);
        double packedShuffle = 2 * (1.5e9 / 3 / 3 / 2 * 8) / (200e6 / 2);
        assertEquals(Costs.JOB_SETUP_SECONDS + 1.5 * cpu + packedShuffle, packed.hadoopSeconds(), 1e-6);
    }
}
