package io.heliograph.circuit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.heliograph.circuit.engine.AduReport;
import io.heliograph.circuit.engine.FiveTuple;
import io.heliograph.circuit.internal.exec.ExecutorCookies;

/**
 * What the ToRs carried leaves the ADU estimate: the growth of the executor's pair counters between two
 * readings is taken off the pair's flows, so the demand is what the hosts wrote and the network has not
 * carried yet.
 */
class ServedAduTest {

    private static final String FABRIC = "circuit=16; rack0=1/1/1/2; rack1=2/2/1/2; rack2=3/3/1/2; rack3=4/4/1/2";
    private static final FiveTuple A = new FiveTuple("10.0.0.1", 40000, "10.0.1.1", 5001, 6);
    private static final FiveTuple B = new FiveTuple("10.0.0.2", 40001, "10.0.1.2", 5001, 6);

    private final ManualTimer timer = new ManualTimer(1);
    private final FakeStatistics stats = new FakeStatistics();
    private final CircuitRuntime runtime = new CircuitRuntime(CircuitSettings.read("", 80, 10, 2000, 20, 200, 1000,
            "solstice", "adu", "", 1, 0, 65_536, FABRIC), "test", timer::now, timer);

    @AfterEach
    void stop() {
        runtime.currentSetup().executor().close();
    }

    private void counters(long bytes01, Instant at) {
        stats.flows(1, at, FakeStatistics.entry(ExecutorCookies.pair(0, 1), bytes01));
        for (long tor = 2; tor <= 4; tor++) {
            stats.flows(tor, at);
        }
    }

    @Test
    void theCountersGrowthLeavesThePairsFlowsOldestFirst() {
        runtime.statistics.bind(stats);
        Instant t = Instant.parse("2026-11-29T12:00:00Z");
        counters(5_000, t);
        runtime.serveAdu(); // the baseline: what the ToR carried before counts for no flow
        runtime.currentSetup().adu().report(List.of(AduReport.written(A, 3_000), AduReport.written(B, 4_000)));
        assertEquals(7_000, runtime.currentSetup().adu().estimate()[0][1]);

        counters(9_000, t.plusSeconds(1));
        runtime.serveAdu();
        assertEquals(0, runtime.currentSetup().adu().outstanding(A), "reported first, carried first");
        assertEquals(3_000, runtime.currentSetup().adu().outstanding(B));

        counters(2_000, t.plusSeconds(2)); // the pair's entry made anew: its counter starts from 0
        runtime.serveAdu();
        assertEquals(1_000, runtime.currentSetup().adu().estimate()[0][1]);

        runtime.serveAdu(); // the same counters again: nothing more carried
        assertEquals(1_000, runtime.currentSetup().adu().estimate()[0][1]);
    }
}
