package io.heliograph.routing.internal;

import static io.heliograph.routing.internal.TestNetwork.dpid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;

class YenKShortestPathsTest {

    /**
     * Six switches; every loop-free path from 1 to 6 and its cost, worked out by hand:
     * 1-3-4-6 = 2+2+1 = 5; 1-2-3-4-6 = 3+1+2+1 = 7; 1-3-5-6 = 2+3.25+2.3 = 7.55;
     * 1-3-5-4-6 = 2+3.25+2.1+1 = 8.35; 1-3-4-5-6 = 2+2+2.1+2.3 = 8.4; 1-2-4-6 = 3+4.5+1 = 8.5 and
     * 1-3-2-4-6 = 2+1+4.5+1 = 8.5 (a tie: 1->2 comes before 1->3); 1-2-3-5-6 = 9.55; then 10.35,
     * 10.4, 11.9, 11.9 and 15.05: thirteen in all.
     */
    private static TestNetwork known() {
        return new TestNetwork().cable(1, 2, 3).cable(1, 3, 2).cable(2, 4, 4.5).cable(3, 2, 1).cable(3, 4, 2)
                .cable(3, 5, 3.25).cable(4, 5, 2.1).cable(4, 6, 1).cable(5, 6, 2.3);
    }

    @Test
    void theKnownGraphGivesItsPathsInOrderOfCostWithTiesInDpidOrder() {
        TestNetwork network = known();
        LinkGraph graph = network.graph();

        List<Path> paths = yen(network, graph, 1, 6, 8);

        assertEquals(List.of(List.of(1L, 3L, 4L, 6L), List.of(1L, 2L, 3L, 4L, 6L), List.of(1L, 3L, 5L, 6L),
                List.of(1L, 3L, 5L, 4L, 6L), List.of(1L, 3L, 4L, 5L, 6L), List.of(1L, 2L, 4L, 6L),
                List.of(1L, 3L, 2L, 4L, 6L), List.of(1L, 2L, 3L, 5L, 6L)),
                paths.stream().map(p -> TestNetwork.nodes(p, graph)).toList());
        assertEquals(List.of(5.0, 7.0, 7.55, 8.35, 8.4, 8.5, 8.5, 9.55),
                paths.stream().map(p -> Math.round(p.cost() * 100) / 100.0).toList());
    }

    @Test
    void askingForMorePathsThanExistGivesThemAllOnce() {
        TestNetwork network = known();
        LinkGraph graph = network.graph();

        List<Path> paths = yen(network, graph, 1, 6, 50);

        assertEquals(13, paths.size());
        assertEquals(13, Set.copyOf(paths).size());
        assertEquals(15.05, paths.get(12).cost(), 1e-9);
        paths.forEach(p -> assertLoopFree(p, graph));
    }

    @Test
    void randomGraphsAgreeWithEveryPathEnumerated() {
        Random random = new Random(20261121);
        for (int round = 0; round < 200; round++) {
            TestNetwork network = new TestNetwork();
            int switches = 4 + random.nextInt(4);
            for (int n = 1; n <= switches; n++) {
                network.addSwitch(n);
            }
            for (int a = 1; a <= switches; a++) {
                for (int b = a + 1; b <= switches; b++) {
                    if (random.nextInt(100) < 45) {
                        network.cable(a, b, 1 + random.nextInt(4));
                        if (random.nextInt(10) == 0) {
                            network.cable(a, b, 1 + random.nextInt(4)); // a parallel cable
                        }
                    }
                }
            }
            LinkGraph graph = network.graph();
            double[] cost = LinkCost.of(graph, network.cost());
            int src = graph.indexOf(dpid(1));
            int dst = graph.indexOf(dpid(switches));
            if (src < 0 || dst < 0) {
                continue;
            }
            List<Double> all = allLoopFreeCosts(graph, cost, src, dst);
            int k = 1 + random.nextInt(12);

            List<Path> paths = yen(network, graph, 1, switches, k);

            String context = "round " + round;
            assertEquals(all.subList(0, Math.min(k, all.size())), paths.stream().map(Path::cost).toList(), context);
            assertEquals(paths.size(), Set.copyOf(paths).size(), context + ": duplicates");
            paths.forEach(p -> assertLoopFree(p, graph));
            paths.forEach(p -> assertEquals(dst, p.node(graph, p.length()), context));
        }
    }

    @Test
    void theServiceGivesKRoutesOnTheFatTreeShortestFirst() {
        FatTree tree = new FatTree(4);
        FakeTopology topology = tree.network().topology(1);
        RoutingEngine engine = new RoutingEngine(() -> topology, port -> 0L, port -> null, System::nanoTime);

        List<Route> routes = engine.kShortestRoutes(dpid(tree.edge(0, 0)), dpid(tree.edge(1, 0)), 8, Metric.HOPS);

        assertEquals(8, routes.size());
        assertEquals(List.of(4, 4, 4, 4, 6, 6, 6, 6), routes.stream().map(Route::hops).toList());
        assertEquals(engine.equalCostRoutes(dpid(tree.edge(0, 0)), dpid(tree.edge(1, 0)), Metric.HOPS),
                routes.subList(0, 4), "the equal-cost set comes first, in the same order");
        routes.forEach(EqualCostRoutesTest::assertConnected);
        assertEquals(8, new HashSet<>(routes).size());
    }

    private static List<Path> yen(TestNetwork network, LinkGraph graph, long src, long dst, int k) {
        double[] cost = LinkCost.of(graph, network.cost());
        int from = graph.indexOf(dpid(src));
        int to = graph.indexOf(dpid(dst));
        Path shortest = Dijkstra.search(graph, cost, from).firstPath(to);
        return YenKShortestPaths.search(graph, cost, shortest, to, k);
    }

    private static void assertLoopFree(Path path, LinkGraph graph) {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i <= path.length(); i++) {
            assertTrue(seen.add(path.node(graph, i)), "loop in " + path);
        }
        for (int i = 1; i < path.length(); i++) {
            assertEquals(graph.to(path.edge(i - 1)), graph.from(path.edge(i)), "broken " + path);
        }
    }

    /** Every loop-free path's cost, by exhaustive search, sorted. */
    private static List<Double> allLoopFreeCosts(LinkGraph graph, double[] cost, int src, int dst) {
        List<Double> costs = new ArrayList<>();
        walk(graph, cost, src, dst, new boolean[graph.switchCount()], 0, costs);
        costs.sort(null);
        return costs;
    }

    private static void walk(LinkGraph graph, double[] cost, int node, int dst, boolean[] onPath, double sum,
            List<Double> costs) {
        if (node == dst) {
            costs.add(sum);
            return;
        }
        onPath[node] = true;
        for (int edge : graph.outEdges(node)) {
            if (!onPath[graph.to(edge)]) {
                walk(graph, cost, graph.to(edge), dst, onPath, sum + cost[edge], costs);
            }
        }
        onPath[node] = false;
    }
}
