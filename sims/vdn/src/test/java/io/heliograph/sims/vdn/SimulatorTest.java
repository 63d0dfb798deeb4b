package io.heliograph.sims.vdn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.heliograph.vdn.engine.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {

    @Test
    void unservedClientsReRequestLowerAndTheMetricsAreTheHandComputedOnes() {
        Topology topology = Lines.line(1_500, 20, 0, 2);
        Trace trace = new Trace("hand", 60, List.of(new Trace.City(0, 0, 0)),
                List.of(new Trace.Group("g0", 0), new Trace.Group("g1", 0)), new int[] {500, 1000}, 2, 3,
                List.of(new Trace.Arrival(1, 0, "v1", 1000, 1), new Trace.Arrival(2, 0, "v1", 1000, 1),
                        new Trace.Arrival(3, 1, "v2", 1000, 1)));
        Simulator.Setup setup = new Simulator.Setup(trace, topology, Priorities.BALANCED, 1, 0);
        Simulator.Metrics m = Simulator.run(setup, Strategy.of("stand-in", new CheapestPaths()), line -> { });
        // g0's two clients get v1 at 1000; v2 at 1000 finds 500 kbit/s left at the source and g1's client
        // re-requests it at 500, which fits
        assertEquals(1, m.windows());
        assertEquals((2 * 1000 + 500) / 3.0, m.averageKbps(), 1e-9);
        assertEquals(2 / 3.0, m.atRequested(), 1e-9);
        // s0->r0 and r0->e0 carry 1500, e0->g0 1000 for free, e0->g1 500 at 2; over 2 satisfied clients
        assertEquals((10 * 1500 + 20 * 1500 + 2 * 500) / 2.0, m.costPerSatisfied(), 1e-9);
        assertEquals(1000, m.requestedKbps(), 1e-9);
        // the source tier's 1500 kbit/s: v1 whole (2 clients), half of v2 (half a client), of 3
        assertEquals(2.5 / 3, m.bound(), 1e-9);
    }

    @Test
    void aRequestUnservedAtTheLowestRungGetsNothing() {
        Topology topology = Lines.line(400, 20, 0);
        Trace trace = new Trace("hand", 60, List.of(new Trace.City(0, 0, 0)), List.of(new Trace.Group("g0", 0)),
                new int[] {500, 1000}, 1, 1, List.of(new Trace.Arrival(1, 0, "v1", 1000, 1)));
        Simulator.Metrics m = Simulator.run(new Simulator.Setup(trace, topology, Priorities.BALANCED, 1, 0),
                Strategy.of(new CheapestPaths()), line -> { });
        assertEquals(0, m.averageKbps());
        assertEquals(0, m.atRequested());
        assertEquals(Double.POSITIVE_INFINITY, m.costPerSatisfied());
    }
}
