package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.core.json.Json;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterReportTest {

    private final Topology topology = TopologyJson.read(Json.parse(TopologyJsonTest.SMALL));

    @Test
    void anEdgeReportsItsLinksFailuresAndViewersAndItRoundTrips() {
        ClusterReport report = ClusterReport.read(Json.parse("""
                {"cluster": "E1", "links": {"R1->E1": 90000, "E1->G1": 150000}, "failed": [],
                 "viewers": [{"group": "G1", "video": "v0", "bitrateKbps": 800, "clients": 3000},
                             {"group": "G1", "video": "v0", "bitrateKbps": 200, "clients": 7}]}"""), topology);
        assertEquals(Map.of("R1->E1", 90_000L, "E1->G1", 150_000L), report.links());
        assertEquals(List.of(new ClusterReport.Viewers("G1", "v0", 800, 3000), new ClusterReport.Viewers("G1", "v0", 200, 7)),
                report.viewers());
        assertEquals(report, ClusterReport.read(Json.parse(Json.compact(report.write())), topology));

        ClusterReport reflector = ClusterReport.read(Json.parse("{\"cluster\": \"R1\", \"failed\": [\"S1->R1\"]}"), topology);
        assertEquals(Set.of("S1->R1"), reflector.failed());
    }

    @Test
    void whatIsNotTheClustersIsRefusedByPath() {
        assertProblem("$.cluster", "{\"cluster\": \"E9\"}");
        assertProblem("$.cluster", "{\"cluster\": \"G1\"}");
        assertProblem("$.links.S1->R1", "{\"cluster\": \"E1\", \"links\": {\"S1->R1\": 5}}");
        assertProblem("$.links.E1->R1", "{\"cluster\": \"E1\", \"links\": {\"E1->R1\": 5}}");
        assertProblem("$.failed[0]", "{\"cluster\": \"R1\", \"failed\": [\"R1->G1\"]}");
        assertProblem("$.viewers[0].group", """
                {"cluster": "R1", "viewers": [{"group": "G1", "video": "v", "bitrateKbps": 800, "clients": 1}]}""");
        assertProblem("$.viewers[0].clients", """
                {"cluster": "E1", "viewers": [{"group": "G1", "video": "v", "bitrateKbps": 800, "clients": 0}]}""");
        assertProblem("$.viewers[1]", """
                {"cluster": "E1", "viewers": [{"group": "G1", "video": "v", "bitrateKbps": 800, "clients": 1},
                                              {"group": "G1", "video": "v", "bitrateKbps": 800, "clients": 2}]}""");
    }

    private void assertProblem(String path, String document) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ClusterReport.read(Json.parse(document), topology));
        assertTrue(refused.getMessage().startsWith(path + ":"), refused.getMessage());
    }
}
