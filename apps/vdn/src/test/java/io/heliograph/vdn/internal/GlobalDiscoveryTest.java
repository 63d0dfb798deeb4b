package io.heliograph.vdn.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.heliograph.core.json.Json;
import io.heliograph.vdn.engine.ClusterReport;
import io.heliograph.vdn.engine.Knobs;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TopologyJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GlobalDiscoveryTest {

    /** Two edges share client group G1; E2 also serves G2. */
    private static final Topology TOPOLOGY = TopologyJson.read(Json.parse("""
            {"nodes": [{"id": "S1", "tier": "source"}, {"id": "R1", "tier": "reflector"},
                       {"id": "E1", "tier": "edge"}, {"id": "E2", "tier": "edge"},
                       {"id": "G1", "tier": "client-group"}, {"id": "G2", "tier": "client-group"}],
             "links": [{"from": "S1", "to": "R1", "capacityKbps": 100000, "cost": 30},
                       {"from": "R1", "to": "E1", "capacityKbps": 100000, "cost": 20},
                       {"from": "R1", "to": "E2", "capacityKbps": 100000, "cost": 20},
                       {"from": "E1", "to": "G1", "capacityKbps": 150000, "cost": 0},
                       {"from": "E2", "to": "G1", "capacityKbps": 150000, "cost": 0},
                       {"from": "E2", "to": "G2", "capacityKbps": 150000, "cost": 1}]}"""));

    private static GlobalDiscovery.Received report(String json, long at) {
        return new GlobalDiscovery.Received(ClusterReport.read(Json.parse(json), TOPOLOGY), at);
    }

    @Test
    void measuredCapacitiesReplaceTheConfiguredOnesAndViewersAddUpPerGroup() {
        Map<String, GlobalDiscovery.Received> reports = Map.of(
                "E1", report("""
                        {"cluster": "E1", "links": {"R1->E1": 40000},
                         "viewers": [{"group": "G1", "video": "v", "bitrateKbps": 800, "clients": 30}]}""", 1000),
                "E2", report("""
                        {"cluster": "E2", "failed": ["R1->E2"],
                         "viewers": [{"group": "G1", "video": "v", "bitrateKbps": 800, "clients": 12},
                                     {"group": "G2", "video": "w", "bitrateKbps": 400, "clients": 5}]}""", 1000),
                "R1", report("{\"cluster\": \"R1\", \"links\": {\"R1->E1\": 99000, \"S1->R1\": 70000}}", 1000));
        Knobs knobs = new Knobs(100, 1, Knobs.Scheme.BALANCED, Map.of("w", 9L), Map.of("S1->R1", 45L));

        GlobalDiscovery.View view = GlobalDiscovery.view(TOPOLOGY, knobs, reports, 2000, 5000);
        Problem problem = view.problem();
        assertEquals(40_000, problem.topology().link("R1", "E1").orElseThrow().capacityKbps(), "the entered cluster's");
        assertEquals(0, problem.topology().link("R1", "E2").orElseThrow().capacityKbps(), "timed out");
        assertEquals(70_000, problem.topology().link("S1", "R1").orElseThrow().capacityKbps(), "the left cluster's");
        assertEquals(150_000, problem.topology().link("E1", "G1").orElseThrow().capacityKbps(), "configured");
        assertEquals(45.0, problem.topology().link("S1", "R1").orElseThrow().cost(), "the knobs' cost");
        assertEquals(List.of(new Request("G1", knobs.object("v", 800), 42), new Request("G2", knobs.object("w", 400), 5)),
                problem.requests());
        assertEquals(9.0, problem.objects().get("w/400").priority());
        assertEquals(new io.heliograph.vdn.engine.Weights(100, 1), problem.weights());

        assertEquals(Map.of("R1->E2", 0.0, "viewers:v/800", 12.0, "viewers:w/400", 5.0), view.evidence().get("E2"));
        assertEquals(Map.of("R1->E1", 99_000.0, "S1->R1", 70_000.0), view.evidence().get("R1"));
    }

    @Test
    void aSilentClustersReportIsLeftOut() {
        Map<String, GlobalDiscovery.Received> reports = Map.of("E1", report("""
                {"cluster": "E1", "links": {"R1->E1": 40000},
                 "viewers": [{"group": "G1", "video": "v", "bitrateKbps": 800, "clients": 30}]}""", 1000));
        GlobalDiscovery.View view = GlobalDiscovery.view(TOPOLOGY, Knobs.DEFAULT, reports, 1000 + 5001, 5000);
        assertEquals(List.of(), view.problem().requests());
        assertEquals(100_000, view.problem().topology().link("R1", "E1").orElseThrow().capacityKbps());
        assertEquals(Map.of(), view.evidence());
    }
}
