package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyJsonTest {

    static final String SMALL = """
            {"nodes": [{"id": "S1", "tier": "source"}, {"id": "R1", "tier": "reflector", "x": 3, "y": 4},
                       {"id": "E1", "tier": "edge"}, {"id": "G1", "tier": "client-group", "x": -2}],
             "links": [{"from": "S1", "to": "R1", "capacityKbps": 100000, "cost": 30},
                       {"from": "R1", "to": "E1", "capacityKbps": 100000, "cost": 20},
                       {"from": "E1", "to": "G1", "capacityKbps": 150000, "cost": 0}]}
            """;

    @Test
    void readsTiersLinksAndCoordinatesAndWritesThemBack() {
        Topology topology = TopologyJson.read(Json.parse(SMALL));
        assertEquals(1, topology.tier(Tier.REFLECTOR).size());
        assertEquals(5.0, topology.node("R1").orElseThrow().distanceTo(topology.node("S1").orElseThrow()));
        assertEquals(30.0, topology.link("S1", "R1").orElseThrow().cost());
        assertEquals(150_000, topology.link("E1", "G1").orElseThrow().capacityKbps());
        assertEquals(List.of("R1->E1"), topology.in("E1").stream().map(Link::name).toList());

        Object written = Json.parse(Json.compact(TopologyJson.write(topology)));
        assertEquals(TopologyJson.write(topology), TopologyJson.write(TopologyJson.read(written)));
    }

    @Test
    void aBadDocumentIsRefusedWithThePathOfItsProblem() {
        assertProblem("$.nodes[1].tier", SMALL.replace("\"reflector\"", "\"router\""));
        assertProblem("$.links[1]", SMALL.replace("\"from\": \"R1\", \"to\": \"E1\"", "\"from\": \"S1\", \"to\": \"E1\""));
        assertProblem("$.links[2]", SMALL.replace("\"to\": \"G1\"", "\"to\": \"G9\""));
        assertProblem("$.links[0].capacityKbps", SMALL.replace("100000, \"cost\": 30", "-1, \"cost\": 30"));
        assertProblem("$.links[0].speed", SMALL.replace("\"cost\": 30", "\"speed\": 30"));
        assertProblem("$.nodes[2]", SMALL.replace("{\"id\": \"E1\", \"tier\": \"edge\"}",
                "{\"id\": \"R1\", \"tier\": \"edge\"}"));
        assertProblem("$.nodes[0].id", SMALL.replace("\"S1\", \"tier\"", "\"S->1\", \"tier\""));
    }

    private static void assertProblem(String path, String document) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> TopologyJson.read(Json.parse(document)));
        assertTrue(refused.getMessage().startsWith(path + ":"), refused.getMessage());
    }
}
