package io.heliograph.routing.internal;

import static io.heliograph.routing.internal.TestNetwork.dpid;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.heliograph.routing.Metric;
import io.heliograph.topology.Topology;

/**
 * Prints how long routing takes to catch up with a topology change on k=4 and k=8 fat trees:
 * building the graph, the first route after a change (graph + one Dijkstra), all-pairs hop count
 * (one Dijkstra per switch), a cached lookup, every edge-to-edge ECMP set from scratch, and Yen's
 * k=8. Figures only (medians over repeated runs); the assertions check the work was really done.
 */
class RoutingFiguresTest {

    @Test
    void printFatTreeFigures() {
        for (int k : new int[] {4, 8}) {
            figures(new FatTree(k), 2, false);
            figures(new FatTree(k), 9, true);
        }
    }

    /**
     * For steadier figures than a unit test run gives, after a JIT warm-up:
     * {@code java -cp <test-classes:classes:deps> io.heliograph.routing.internal.RoutingFiguresTest [runs]}.
     */
    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 101;
        for (int k : new int[] {4, 8}) {
            figures(new FatTree(k), runs, false);
            figures(new FatTree(k), runs, true);
        }
    }

    private static void figures(FatTree tree, int runs, boolean print) {
        TestNetwork network = tree.network();
        AtomicReference<Topology> current = new AtomicReference<>(network.topology(0));
        RoutingEngine engine = new RoutingEngine(current::get, port -> 0L, port -> null, System::nanoTime);
        List<Long> edges = tree.edges();
        long src = edges.get(0);
        long dst = edges.get(edges.size() - 1);
        long[] graphBuild = new long[runs];
        long[] firstRoute = new long[runs];
        long[] allPairs = new long[runs];
        long[] cachedLookup = new long[runs];
        long[] allEcmp = new long[runs];
        long[] yen = new long[runs];
        int ecmpRoutes = 0;

        for (int run = 0; run < runs; run++) {
            long t0 = System.nanoTime();
            LinkGraph graph = LinkGraph.of(network.switches(), network.links());
            graphBuild[run] = System.nanoTime() - t0;
            assertEquals(tree.switchCount(), graph.switchCount());

            current.set(network.topology(2L * run + 1));
            t0 = System.nanoTime();
            engine.route(dpid(src), dpid(dst), Metric.HOPS);
            firstRoute[run] = System.nanoTime() - t0;

            current.set(network.topology(2L * run + 2));
            long searchesBefore = engine.searches();
            t0 = System.nanoTime();
            for (int s = 1; s <= tree.switchCount(); s++) {
                engine.route(dpid(s), dpid(dst), Metric.HOPS);
            }
            allPairs[run] = System.nanoTime() - t0;
            assertEquals(tree.switchCount() - 1, engine.searches() - searchesBefore);

            t0 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                engine.route(dpid(src), dpid(dst), Metric.HOPS);
            }
            cachedLookup[run] = (System.nanoTime() - t0) / 1000;

            current.set(network.topology(2L * runs + run + 1));
            ecmpRoutes = 0;
            t0 = System.nanoTime();
            for (long a : edges) {
                for (long b : edges) {
                    ecmpRoutes += engine.equalCostRoutes(dpid(a), dpid(b), Metric.HOPS).size();
                }
            }
            allEcmp[run] = System.nanoTime() - t0;

            t0 = System.nanoTime();
            assertEquals(8, engine.kShortestRoutes(dpid(src), dpid(dst), 8, Metric.HOPS).size());
            yen[run] = System.nanoTime() - t0;
        }
        int half = tree.k / 2;
        int interPod = edges.size() * (edges.size() - half) * half * half;
        int intraPod = edges.size() * (half - 1) * half;
        assertEquals(interPod + intraPod + edges.size(), ecmpRoutes);
        if (!print) {
            return;
        }
        int pairs = edges.size() * edges.size();
        System.out.printf(Locale.ROOT, "routing figures, k=%d fat tree (%d switches, %d directed links), "
                + "median / best of %d runs, in microseconds:%n"
                + "  graph build %s; first route after a change (graph + 1 Dijkstra) %s;%n"
                + "  all-pairs hop count (%d Dijkstras) %s; cached lookup %s;%n"
                + "  ECMP sets for all %d edge pairs from scratch (%d routes) %s; Yen k=8 between pods %s%n",
                tree.k, tree.switchCount(), network.links().size(), runs, micros(graphBuild), micros(firstRoute),
                tree.switchCount(), micros(allPairs), micros(cachedLookup), pairs, ecmpRoutes, micros(allEcmp),
                micros(yen));
    }

    /** "median / best" in microseconds: the best run shows the cost on a quiet machine. */
    private static String micros(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.2f / %.2f", sorted[sorted.length / 2] / 1000.0, sorted[0] / 1000.0);
    }
}
