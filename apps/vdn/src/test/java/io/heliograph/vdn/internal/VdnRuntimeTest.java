package io.heliograph.vdn.internal;

import static io.heliograph.vdn.internal.VdnFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.core.Refusal;
import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.hybrid.HybridTable;
import io.heliograph.core.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The app alone on a real solver: the operator's network, the agents' reports, decisions and their RIBs. */
class VdnRuntimeTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T12:00:00Z"));
    private final VdnRuntime vdn = VdnFixture.started("alone", clock);

    @AfterEach
    void stop() {
        vdn.stop();
    }

    private Map<String, String> network() {
        vdn.putTopology(json(VdnFixture.TOPOLOGY));
        return vdn.agentKeys();
    }

    @Test
    void reportsBecomeADecisionWhoseRibsCarryNextHopsAndEachClustersEvidence() throws Exception {
        Map<String, String> keys = network();
        assertEquals(List.of("E1", "E2", "R1", "R2", "S1"), List.copyOf(keys.keySet()), "a key per cluster");
        Map<String, Object> answer = vdn.report("E1", keys.get("E1"), json(VdnFixture.E1_REPORT));
        assertEquals(0L, answer.get("ribVersion"), "no decision yet");
        assertEquals(20L, ((Map<?, ?>) answer.get("agent")).get("stalePercent"));
        vdn.report("E2", keys.get("E2"), json(VdnFixture.E2_REPORT));

        vdn.decideNow().get();
        Map<String, Object> summary = vdn.decision();
        assertEquals(1L, summary.get("version"));
        assertEquals(3L, summary.get("requests"));
        assertEquals(3L, summary.get("requestsServed"), summary.toString());
        assertEquals(43L, summary.get("clientsServed"));

        DecisionTable<String> e1 = VdnRuntime.TABLES.fromJson(vdn.rib("E1"));
        assertEquals(1, e1.version());
        assertEquals("R1", e1.lookup("news/800").orElseThrow().value(), "the cheap reflector");
        assertEquals(9000.0, e1.lookup("news/800").orElseThrow().evidence().measurements().get("R1->E1"),
                "E1's own measurement is its evidence");
        assertEquals(30.0, e1.lookup("news/800").orElseThrow().evidence().measurements().get("viewers:news/800"));
        DecisionTable<String> e2 = VdnRuntime.TABLES.fromJson(vdn.rib("E2"));
        assertEquals(Map.of("R1->E2", 10_000.0, "R2->E2", 10_000.0, "viewers:news/800", 4.0),
                e2.lookup("news/800").orElseThrow().evidence().measurements(), "its links, its own object's viewers only");
        DecisionTable<String> r1 = VdnRuntime.TABLES.fromJson(vdn.rib("R1"));
        assertEquals("S1", r1.lookup("final/4500").orElseThrow().value());

        Map<String, Object> trees = vdn.trees("news");
        @SuppressWarnings("unchecked")
        Map<String, Object> news800 = (Map<String, Object>) ((Map<String, Object>) trees.get("bitrates")).get("800");
        assertEquals(Map.of("G1", "E1", "G2", "E2"), news800.get("served"));
        assertTrue(((List<?>) news800.get("links")).contains("S1->R1"), news800.toString());
        assertEquals(List.of(), news800.get("unserved"));

        vdn.decideNow().get();
        assertEquals(2L, vdn.decision().get("version"), "each decision a new version");
        Refusal none = assertThrows(Refusal.class, () -> vdn.trees("sports"));
        assertEquals(404, none.status());
    }

    @Test
    void anAgentSpeaksForItsOwnClusterOnlyAndABadReportChangesNothing() {
        Map<String, String> keys = network();
        assertRefused(403, "X-Vdn-Agent-Key", () -> vdn.report("E1", keys.get("E2"), json(VdnFixture.E1_REPORT)));
        assertRefused(403, "X-Vdn-Agent-Key", () -> vdn.report("E1", null, json(VdnFixture.E1_REPORT)));
        assertRefused(403, "$.cluster", () -> vdn.report("E2", keys.get("E2"), json(VdnFixture.E1_REPORT)));
        assertRefused(404, "cluster", () -> vdn.report("E9", keys.get("E1"), json(VdnFixture.E1_REPORT)));
        assertRefused(400, "$.links.S1->R1", () -> vdn.report("E1", keys.get("E1"),
                json("{\"cluster\": \"E1\", \"links\": {\"S1->R1\": 5}}")));
        assertRefused(400, "$.viewers[0].clients", () -> vdn.report("E1", keys.get("E1"), json("""
                {"cluster": "E1", "viewers": [{"group": "G1", "video": "v", "bitrateKbps": 800, "clients": -3}]}""")));
        assertEquals(Map.of(), vdn.reports(), "nothing kept");

        assertRefused(400, "$.nodes[0].tier", () -> vdn.putTopology(json(VdnFixture.TOPOLOGY.replace("\"source\"", "\"sink\""))));
        assertEquals(7, ((List<?>) vdn.topology().get("nodes")).size(), "the topology in force stays");
        assertRefused(400, "$.linkCosts.S1->E1", () -> vdn.putKnobs(json("{\"linkCosts\": {\"S1->E1\": 3}}")));
        vdn.putKnobs(json("{\"linkCosts\": {\"S1->R2\": 3}}"));
        String lacking = VdnFixture.TOPOLOGY.replace("""
                {"from": "S1", "to": "R2", "capacityKbps": 10000, "cost": 30},""", "");
        assertRefused(409, "topology", () -> vdn.putTopology(json(lacking)));
    }

    @Test
    void anAgentsFibIsCheckedAndKeptWithItsServingFigures() {
        Map<String, String> keys = network();
        HybridTable<String> fib = new HybridTable<>("E1", HybridTable.Settings.withCentreTimeout(Duration.ofSeconds(60)),
                clock);
        fib.recordLocal("news/800", "R2", io.heliograph.core.hybrid.Evidence.NONE);
        Map<String, Object> body = Map.of("mode", fib.mode().name(), "shadows", List.of(),
                "table", VdnRuntime.TABLES.toJson(fib.snapshot()), "serving", Map.of("joins", 3L, "joinMillisMedian", 180L));
        vdn.putFib("E1", keys.get("E1"), body);
        assertEquals("DISTRIBUTED", vdn.fib("E1").get("mode"));
        clock.advance(Duration.ofSeconds(10));
        vdn.putFib("E1", keys.get("E1"), Map.of("mode", "CENTRAL", "table", VdnRuntime.TABLES.toJson(fib.snapshot()),
                "serving", Map.of("joins", 5L, "joinMillisMedian", 150L)));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> e1 = (List<Map<String, Object>>) ((Map<String, Object>) vdn.serving().get("clusters")).get("E1");
        assertEquals(List.of(180L, 150L), e1.stream().map(p -> p.get("joinMillisMedian")).toList());

        assertRefused(400, "$.table.partition", () -> vdn.putFib("E2", keys.get("E2"), body));
        assertRefused(400, "$.mode", () -> vdn.putFib("E1", keys.get("E1"), Map.of("mode", "HALF",
                "table", VdnRuntime.TABLES.toJson(fib.snapshot()))));
        assertRefused(403, "X-Vdn-Agent-Key", () -> vdn.putFib("E1", keys.get("R1"), body));
        assertRefused(404, "cluster", () -> vdn.fib("R2"));
    }

    @Test
    void withoutATopologyOrASolverTheDecisionInForceStaysAndSaysWhy() throws Exception {
        vdn.decideNow().get();
        assertEquals(0L, vdn.decision().get("version"));
        assertTrue(((String) vdn.decision().get("lastRound")).startsWith("no topology yet"));
        Map<String, String> keys = network();
        vdn.report("E1", keys.get("E1"), json(VdnFixture.E1_REPORT));
        vdn.decideNow().get();
        assertEquals(1L, vdn.decision().get("version"));
        vdn.solver.unbind(VdnFixture.solver());
        vdn.decideNow().get();
        assertEquals(1L, vdn.decision().get("version"));
        assertTrue(((String) vdn.decision().get("lastRound")).startsWith("no solver"));
        assertEquals("R1", VdnRuntime.TABLES.fromJson(vdn.rib("E1")).lookup("news/800").orElseThrow().value());
    }

    private static void assertRefused(int status, String field, Runnable call) {
        Refusal refusal = assertThrows(Refusal.class, call::run);
        assertEquals(status, refusal.status(), refusal.getMessage());
        assertEquals(field, refusal.field(), refusal.getMessage());
    }
}
