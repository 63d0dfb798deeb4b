package io.heliograph.routing.internal;

import static io.heliograph.routing.internal.ShortestRouteTest.switchesOf;
import static io.heliograph.routing.internal.TestNetwork.dpid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.topology.Link;

class EqualCostRoutesTest {

    private final FatTree tree = new FatTree(4);
    private final RoutingEngine engine = engine(tree, RoutingSettings.DEFAULTS);

    private static RoutingEngine engine(FatTree tree, RoutingSettings settings) {
        FakeTopology topology = tree.network().topology(1);
        RoutingEngine engine = new RoutingEngine(() -> topology, port -> 0L, port -> null, System::nanoTime);
        engine.configure(settings);
        return engine;
    }

    @Test
    void theFatTreeHasTwentySwitchesAndThirtyTwoCables() {
        assertEquals(20, tree.switchCount());
        assertEquals(64, tree.network().links().size());
        assertEquals(64, tree.network().graph().edgeCount());
    }

    @Test
    void betweenPodsThereAreFourEqualFourHopRoutesOnePerCore() {
        long src = tree.edge(0, 0);
        long dst = tree.edge(3, 1);

        List<Route> routes = engine.equalCostRoutes(dpid(src), dpid(dst), Metric.HOPS);

        assertEquals(4, routes.size());
        Set<Long> cores = new HashSet<>();
        for (Route route : routes) {
            assertEquals(4, route.hops());
            assertEquals(4.0, route.cost());
            assertConnected(route);
            List<Long> switches = switchesOf(route);
            assertEquals(src, switches.get(0));
            assertEquals(dst, switches.get(4));
            assertTrue(tree.isCore(switches.get(2)), "the middle hop is a core: " + switches);
            cores.add(switches.get(2));
        }
        assertEquals(Set.of(1L, 2L, 3L, 4L), cores, "every core carries one route");
        assertEquals(4, Set.copyOf(routes).size(), "no duplicates");
    }

    @Test
    void everyPairOfEdgeSwitchesHasTheRightNumberOfRoutes() {
        for (long a : tree.edges()) {
            for (long b : tree.edges()) {
                List<Route> routes = engine.equalCostRoutes(dpid(a), dpid(b), Metric.HOPS);
                int expectedCount = a == b ? 1 : samePod(a, b) ? 2 : 4;
                int expectedHops = a == b ? 0 : samePod(a, b) ? 2 : 4;
                assertEquals(expectedCount, routes.size(), a + " -> " + b);
                routes.forEach(r -> assertEquals(expectedHops, r.hops(), a + " -> " + b));
            }
        }
    }

    @Test
    void withinAPodThereAreTwoTwoHopRoutesOnePerAggregationSwitch() {
        List<Route> routes = engine.equalCostRoutes(dpid(tree.edge(1, 0)), dpid(tree.edge(1, 1)), Metric.HOPS);

        assertEquals(List.of(List.of(tree.edge(1, 0), tree.agg(1, 0), tree.edge(1, 1)),
                List.of(tree.edge(1, 0), tree.agg(1, 1), tree.edge(1, 1))),
                routes.stream().map(ShortestRouteTest::switchesOf).toList());
    }

    @Test
    void theSameEdgeSwitchIsOneEmptyRoute() {
        long edge = tree.edge(2, 1);

        assertEquals(List.of(new Route(dpid(edge), dpid(edge), List.of(), 0)),
                engine.equalCostRoutes(dpid(edge), dpid(edge), Metric.HOPS));
    }

    @Test
    void theSetIsBoundedByMaxEcmpPathsKeepingTheFirstInOrder() {
        RoutingEngine bounded = engine(tree, new RoutingSettings(Metric.HOPS, 3, 10, 1000, 1000));

        List<Route> three = bounded.equalCostRoutes(dpid(tree.edge(0, 0)), dpid(tree.edge(3, 1)), Metric.HOPS);

        assertEquals(engine.equalCostRoutes(dpid(tree.edge(0, 0)), dpid(tree.edge(3, 1)), Metric.HOPS).subList(0, 3),
                three);
    }

    @Test
    void aLargerFatTreeHasSixteenCoreRoutesBetweenPods() {
        FatTree k8 = new FatTree(8);
        RoutingEngine engine8 = engine(k8, RoutingSettings.DEFAULTS);

        List<Route> routes = engine8.equalCostRoutes(dpid(k8.edge(0, 0)), dpid(k8.edge(7, 3)), Metric.HOPS);

        assertEquals(80, k8.switchCount());
        assertEquals(16, routes.size());
        assertEquals(16, routes.stream().map(r -> switchesOf(r).get(2)).distinct().count());
        assertEquals(4, engine8.equalCostRoutes(dpid(k8.edge(5, 0)), dpid(k8.edge(5, 2)), Metric.HOPS).size());
    }

    @Test
    void aFailedCoreLinkLeavesThreeRoutes() {
        FatTree broken = new FatTree(4);
        Link agg0ToCore1 = broken.network().links().stream()
                .filter(l -> l.src().dpid().equals(dpid(broken.agg(0, 0))) && l.dst().dpid().equals(dpid(broken.core(0))))
                .findFirst().orElseThrow();
        broken.network().remove(agg0ToCore1).remove(agg0ToCore1.reverse());

        List<Route> routes = engine(broken, RoutingSettings.DEFAULTS)
                .equalCostRoutes(dpid(broken.edge(0, 0)), dpid(broken.edge(2, 0)), Metric.HOPS);

        assertEquals(3, routes.size());
        routes.forEach(r -> assertTrue(!r.links().contains(agg0ToCore1) && !r.links().contains(agg0ToCore1.reverse())));
    }

    private boolean samePod(long a, long b) {
        return (a - 1 - 4) / tree.k == (b - 1 - 4) / tree.k;
    }

    static void assertConnected(Route route) {
        for (int i = 1; i < route.links().size(); i++) {
            assertEquals(route.links().get(i - 1).dst().dpid(), route.links().get(i).src().dpid());
        }
        Set<Object> seen = new HashSet<>();
        seen.add(route.src());
        route.links().forEach(l -> assertTrue(seen.add(l.dst().dpid()), "loop at " + l));
    }
}
