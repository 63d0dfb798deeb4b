package io.heliograph.routing.internal;

import static io.heliograph.routing.internal.TestNetwork.dpid;
import static io.heliograph.routing.internal.TestNetwork.link;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;

class ShortestRouteTest {

    private static RoutingEngine engine(TestNetwork network) {
        FakeTopology topology = network.topology(1);
        return new RoutingEngine(() -> topology, port -> 0L, port -> null, System::nanoTime);
    }

    @Test
    void aLineIsWalkedEndToEndInOrder() {
        TestNetwork line = new TestNetwork().cable(1, 1, 2, 1).cable(2, 2, 3, 1).cable(3, 2, 4, 1);

        Route route = engine(line).route(dpid(1), dpid(4), Metric.HOPS);

        assertEquals(List.of(link(1, 1, 2, 1), link(2, 2, 3, 1), link(3, 2, 4, 1)), route.links());
        assertEquals(3, route.hops());
        assertEquals(3.0, route.cost());
        assertEquals(dpid(1), route.src());
        assertEquals(dpid(4), route.dst());
        Route back = engine(line).route(dpid(4), dpid(1), Metric.HOPS);
        assertEquals(List.of(link(4, 1, 3, 2), link(3, 1, 2, 2), link(2, 1, 1, 1)), back.links());
    }

    @Test
    void aRingGoesTheShortWayRound() {
        TestNetwork ring = ring(6);
        RoutingEngine engine = engine(ring);

        assertEquals(List.of(1L, 6L, 5L), switchesOf(engine.route(dpid(1), dpid(5), Metric.HOPS)));
        assertEquals(List.of(1L, 2L, 3L), switchesOf(engine.route(dpid(1), dpid(3), Metric.HOPS)));
    }

    @Test
    void tiesAreBrokenByDpidOrderTheSameWayEveryTime() {
        // Opposite points of a 4-ring: via 2 or via 4. The lower dpid wins, whatever the link order.
        for (int attempt = 0; attempt < 5; attempt++) {
            assertEquals(List.of(1L, 2L, 3L), switchesOf(engine(ring(4)).route(dpid(1), dpid(3), Metric.HOPS)));
            assertEquals(List.of(3L, 2L, 1L), switchesOf(engine(ring(4)).route(dpid(3), dpid(1), Metric.HOPS)));
        }
    }

    @Test
    void aDiamondHasTwoEqualRoutesAndTheRouteIsTheFirst() {
        TestNetwork diamond = diamond();
        RoutingEngine engine = engine(diamond);

        List<Route> both = engine.equalCostRoutes(dpid(1), dpid(4), Metric.HOPS);

        assertEquals(List.of(List.of(1L, 2L, 4L), List.of(1L, 3L, 4L)), both.stream().map(r -> switchesOf(r)).toList());
        assertEquals(both.get(0), engine.route(dpid(1), dpid(4), Metric.HOPS));
    }

    @Test
    void parallelCablesTieOnTheLowerPort() {
        TestNetwork twoCables = new TestNetwork().cable(1, 7, 2, 7).cable(1, 3, 2, 4);

        Route route = engine(twoCables).route(dpid(1), dpid(2), Metric.HOPS);

        assertEquals(List.of(link(1, 3, 2, 4)), route.links());
        assertEquals(2, engine(twoCables).equalCostRoutes(dpid(1), dpid(2), Metric.HOPS).size());
    }

    @Test
    void anUnreachableSwitchHasNoRoute() {
        TestNetwork islands = new TestNetwork().cable(1, 1, 2, 1).cable(3, 1, 4, 1).addSwitch(5);
        RoutingEngine engine = engine(islands);

        assertNull(engine.route(dpid(1), dpid(4), Metric.HOPS));
        assertNull(engine.route(dpid(1), dpid(5), Metric.HOPS));
        assertNull(engine.route(dpid(1), dpid(99), Metric.HOPS), "unknown switch");
        assertNull(engine.route(dpid(99), dpid(1), Metric.HOPS), "unknown switch");
        assertEquals(List.of(), engine.equalCostRoutes(dpid(1), dpid(4), Metric.HOPS));
        assertEquals(List.of(), engine.kShortestRoutes(dpid(1), dpid(4), 3, Metric.HOPS));
    }

    @Test
    void theSameSwitchIsAnEmptyRoute() {
        RoutingEngine engine = engine(ring(4));
        Route empty = new Route(dpid(2), dpid(2), List.of(), 0);

        assertEquals(empty, engine.route(dpid(2), dpid(2), Metric.HOPS));
        assertEquals(List.of(empty), engine.equalCostRoutes(dpid(2), dpid(2), Metric.HOPS));
        assertEquals(List.of(empty), engine.kShortestRoutes(dpid(2), dpid(2), 4, Metric.CAPACITY));
    }

    @Test
    void aUnidirectionalLinkIsNotRoutable() {
        // 1 -> 3 is seen one way only: the short cut must not be taken in either direction.
        TestNetwork network = new TestNetwork().cable(1, 1, 2, 1).cable(2, 2, 3, 1).oneWay(1, 2, 3, 2);
        RoutingEngine engine = engine(network);

        assertEquals(List.of(1L, 2L, 3L), switchesOf(engine.route(dpid(1), dpid(3), Metric.HOPS)));
        assertEquals(List.of(3L, 2L, 1L), switchesOf(engine.route(dpid(3), dpid(1), Metric.HOPS)));
        assertEquals(1, engine.kShortestRoutes(dpid(1), dpid(3), 5, Metric.HOPS).size());
        assertTrue(Double.isNaN(engine.linkCost(link(1, 2, 3, 2), Metric.HOPS)));

        // Only a one-way link reaches 4: unreachable.
        network.oneWay(3, 3, 4, 1);
        assertNull(engine(network).route(dpid(1), dpid(4), Metric.HOPS));
    }

    @Test
    void weightedSearchesFollowTheCheapestSum() {
        // 1-2 costs 1, 2-3 costs 1, 1-3 costs 5: the two-hop way is cheaper.
        TestNetwork network = new TestNetwork().cable(1, 1, 2, 1, 1).cable(2, 2, 3, 1, 1).cable(1, 2, 3, 2, 5);
        LinkGraph graph = network.graph();
        double[] cost = LinkCost.of(graph, network.cost());

        ShortestPathTree tree = Dijkstra.search(graph, cost, graph.indexOf(dpid(1)));

        assertEquals(2.0, tree.distance(graph.indexOf(dpid(3))));
        assertEquals(List.of(1L, 2L, 3L), TestNetwork.nodes(tree.firstPath(graph.indexOf(dpid(3))), graph));
    }

    @Test
    void badArgumentsAreRefusedByName() {
        RoutingEngine engine = engine(ring(4));

        assertEquals("src", assertThrows(NullPointerException.class,
                () -> engine.route(null, dpid(1), Metric.HOPS)).getMessage());
        assertEquals("metric", assertThrows(NullPointerException.class,
                () -> engine.route(dpid(1), dpid(2), null)).getMessage());
        assertEquals("k must be within 1..256, was 0", assertThrows(IllegalArgumentException.class,
                () -> engine.kShortestRoutes(dpid(1), dpid(2), 0, Metric.HOPS)).getMessage());
    }

    static TestNetwork ring(int n) {
        TestNetwork ring = new TestNetwork();
        for (int i = 1; i <= n; i++) {
            ring.cable(i, 2, i % n + 1, 1);
        }
        return ring;
    }

    static TestNetwork diamond() {
        return new TestNetwork().cable(1, 1, 2, 1).cable(1, 2, 3, 1).cable(2, 2, 4, 1).cable(3, 2, 4, 2);
    }

    static List<Long> switchesOf(Route route) {
        List<Long> switches = new java.util.ArrayList<>();
        switches.add(route.src().getLong());
        route.links().forEach(l -> switches.add(l.dst().dpid().getLong()));
        return switches;
    }
}
