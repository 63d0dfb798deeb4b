package io.heliograph.routing.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import io.heliograph.routing.Metric;

class PathCommandsTest {

    private final TestNetwork diamond = ShortestRouteTest.diamond();
    private final RoutingManager manager = new RoutingManager(RoutingManagerTest.config(Metric.HOPS, 16));
    private final PathCommands commands = new PathCommands(manager, manager);

    PathCommandsTest() {
        // No switch service: every port speed is unknown and the default 1000 Mbit/s applies.
        manager.bindTopology(() -> diamond.topology(1));
    }

    @Test
    void showsEveryEqualCostRouteWithItsHopsAndCosts() {
        assertEquals("""
                00:00:00:00:00:00:00:01 -> 00:00:00:00:00:00:00:04, metric HOPS: 2 equal-cost routes
                #1: 2 hops, cost 2
                    00:00:00:00:00:00:00:01/1 -> 00:00:00:00:00:00:00:02/1  cost 1
                    00:00:00:00:00:00:00:02/2 -> 00:00:00:00:00:00:00:04/1  cost 1
                #2: 2 hops, cost 2
                    00:00:00:00:00:00:00:01/2 -> 00:00:00:00:00:00:00:03/1  cost 1
                    00:00:00:00:00:00:00:03/2 -> 00:00:00:00:00:00:00:04/2  cost 1""",
                commands.path("1", "00:00:00:00:00:00:00:04"));
    }

    @Test
    void showsTheKShortestUnderANamedMetric() {
        String out = commands.path("0x4", "1", "1", "capacity");

        assertEquals("""
                00:00:00:00:00:00:00:04 -> 00:00:00:00:00:00:00:01, metric CAPACITY: 1 shortest route
                #1: 2 hops, cost 20
                    00:00:00:00:00:00:00:04/1 -> 00:00:00:00:00:00:00:02/2  cost 10
                    00:00:00:00:00:00:00:02/1 -> 00:00:00:00:00:00:00:01/1  cost 10""", out);
    }

    @Test
    void saysWhenThereIsNoRouteOrTheSameSwitch() {
        assertEquals("00:00:00:00:00:00:00:01 -> 00:00:00:00:00:00:00:09, metric HOPS: no route",
                commands.path("1", "9"));
        assertEquals("""
                00:00:00:00:00:00:00:02 -> 00:00:00:00:00:00:00:02, metric HOPS: 1 equal-cost route
                #1: 0 hops, cost 0
                    same switch""", commands.path("2", "2"));
    }

    @Test
    void badArgumentsGetAMessageThatNamesThem() {
        assertEquals("'s1' is not a datapath id (e.g. 00:00:00:00:00:00:00:01, 0x1 or 1)", commands.path("s1", "2"));
        assertEquals("k must be a number within 1..256, was 'many'", commands.path("1", "2", "many"));
        assertEquals("k must be a number within 1..256, was '0'", commands.path("1", "2", "0"));
        assertEquals("'fast' is not a metric (HOPS, CAPACITY or UTILISATION)", commands.path("1", "2", "2", "fast"));
    }
}
