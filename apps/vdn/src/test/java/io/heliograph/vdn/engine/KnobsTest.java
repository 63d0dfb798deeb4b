package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.core.json.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KnobsTest {

    @Test
    void overridesByVideoAndBitrateWinOverTheVideoAndTheScheme() {
        Knobs knobs = Knobs.read(Json.parse("""
                {"priorityScheme": "quality", "priorities": {"final": 100, "final/4500": 300}}"""));
        assertEquals(300, knobs.priority("final", 4500));
        assertEquals(100, knobs.priority("final", 400));
        assertEquals(4.5, knobs.priority("news", 4500));
        assertEquals(Knobs.DEFAULT.serviceWeight(), knobs.serviceWeight());

        Knobs quantity = Knobs.read(Json.parse("{\"priorityScheme\": \"quantity\"}"));
        assertTrue(quantity.priority("a", 400) > quantity.priority("a", 30_000));
        assertEquals(1.0, Knobs.DEFAULT.priority("a", 30_000));
    }

    @Test
    void linkCostsReplaceTheTopologysAndAnUnknownLinkIsNamed() {
        Topology topology = TopologyJson.read(Json.parse(TopologyJsonTest.SMALL));
        Knobs knobs = new Knobs(10, 1, Knobs.Scheme.BALANCED, Map.of(), Map.of("R1->E1", 45L));
        Topology costed = knobs.costsOn(topology);
        assertEquals(45.0, costed.link("R1", "E1").orElseThrow().cost());
        assertEquals(30.0, costed.link("S1", "R1").orElseThrow().cost());
        assertSame(topology, Knobs.DEFAULT.costsOn(topology));

        Knobs wrong = new Knobs(10, 1, Knobs.Scheme.BALANCED, Map.of(), Map.of("R1->E9", 45L));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> wrong.costsOn(topology));
        assertTrue(refused.getMessage().startsWith("$.linkCosts.R1->E9:"), refused.getMessage());
    }

    @Test
    void roundTripsAndRefusesBadValuesByPath() {
        Knobs knobs = new Knobs(1000, 3, Knobs.Scheme.QUANTITY, Map.of("v/400", 7L), Map.of("S1->R1", 2L));
        assertEquals(knobs, Knobs.read(Json.parse(Json.compact(knobs.write()))));

        assertProblem("$.costWeight", "{\"costWeight\": -1}");
        assertProblem("$", "{\"costWeight\": 0, \"serviceWeight\": 0}");
        assertProblem("$.priorityScheme", "{\"priorityScheme\": \"fair\"}");
        assertProblem("$.priorities.v/abc", "{\"priorities\": {\"v/abc\": 2}}");
        assertProblem("$.priorities.v", "{\"priorities\": {\"v\": 0}}");
        assertProblem("$.linkCosts.S1", "{\"linkCosts\": {\"S1\": 2}}");
        assertProblem("$.weights", "{\"weights\": 2}");
    }

    private static void assertProblem(String path, String document) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> Knobs.read(Json.parse(document)));
        assertTrue(refused.getMessage().startsWith(path + ":"), refused.getMessage());
    }
}
