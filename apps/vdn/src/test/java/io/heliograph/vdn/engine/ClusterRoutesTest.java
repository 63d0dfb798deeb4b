package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each cluster's next hops and the DNS mapping read off a distribution. */
class ClusterRoutesTest {

    @Test
    void givesEachClusterItsParentsAndEachGroupItsEdge() {
        Distribution trees = new GreedyTrees().optimise(OptimiserFixtures.fig49Problem(true));

        ClusterRoutes routes = ClusterRoutes.of(trees);

        assertEquals(Map.of("V1/800", "S"), routes.routes("X"));
        assertEquals(Map.of("V2/900", "S"), routes.routes("Y"));
        assertEquals(Map.of("V2/900", "Y"), routes.routes("A"));
        assertEquals(Map.of("V1/800", "X"), routes.routes("B"));
        assertEquals("X", routes.nextHop("C", "V1/800").orElseThrow());
        assertTrue(routes.nextHop("A", "V1/800").isEmpty(), "A does not receive V1/800");
        assertEquals(Map.of("X", 1, "Y", 1, "A", 1, "B", 1, "C", 1),
                Map.copyOf(routes.nextHops().entrySet().stream()
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size()))));

        assertEquals("B", routes.edge("G1", "V1/800").orElseThrow());
        assertEquals("C", routes.edge("G2", "V1/800").orElseThrow());
        assertEquals("A", routes.edge("G3", "V2/900").orElseThrow());
        assertTrue(routes.edge("G3", "V1/800").isEmpty());
        assertEquals(3, routes.dns().size());
    }

    @Test
    void anUnservedRequestHasNoEdge() {
        Problem problem = OptimiserFixtures.fig49Problem(false);
        Distribution nothing = new Distribution(problem, Map.of(), "none", Double.NaN, java.time.Duration.ZERO);

        ClusterRoutes routes = ClusterRoutes.of(nothing);

        assertTrue(routes.nextHops().isEmpty());
        assertTrue(routes.dns().isEmpty());
        assertTrue(routes.edge("G1", "V1/800").isEmpty());
    }
}
