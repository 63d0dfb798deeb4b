package io.heliograph.routing.internal;

import static io.heliograph.routing.internal.ShortestRouteTest.switchesOf;
import static io.heliograph.routing.internal.TestNetwork.dpid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.topology.Topology;

/** I/O threads query while the topology flips between two versions: every answer fits one of them. */
class ConcurrentQueriesTest {

    @Test
    void everyAnswerComesFromOneWholeSnapshot() throws Exception {
        TestNetwork ring = ShortestRouteTest.ring(6);
        Topology whole = ring.topology(1);
        TestNetwork broken = ShortestRouteTest.ring(6);
        broken.remove(TestNetwork.link(1, 2, 2, 1)).remove(TestNetwork.link(2, 1, 1, 2));
        AtomicReference<Topology> current = new AtomicReference<>(whole);
        RoutingEngine engine = new RoutingEngine(current::get, port -> 0L, port -> null, System::nanoTime);
        Set<List<Long>> valid = Set.of(List.of(1L, 2L, 3L), List.of(1L, 6L, 5L, 4L, 3L));
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> readers = List.of(reader(threads, engine, valid, stop),
                    reader(threads, engine, valid, stop), reader(threads, engine, valid, stop),
                    reader(threads, engine, valid, stop));
            for (int version = 2; version < 2000; version++) {
                current.set(version % 2 == 0 ? broken.topology(version) : ring.topology(version));
                engine.topologyChanged();
            }
            stop.set(true);
            for (Future<Integer> reader : readers) {
                assertTrue(reader.get(30, TimeUnit.SECONDS) > 0);
            }
        } finally {
            threads.shutdownNow();
        }
        current.set(ring.topology(5000));
        assertEquals(List.of(1L, 2L, 3L), switchesOf(engine.route(dpid(1), dpid(3), Metric.HOPS)));
    }

    private static Future<Integer> reader(ExecutorService threads, RoutingEngine engine, Set<List<Long>> valid,
            AtomicBoolean stop) {
        return threads.submit(() -> {
            int answers = 0;
            while (!stop.get() || answers == 0) {
                Route route = engine.route(dpid(1), dpid(3), Metric.HOPS);
                assertTrue(valid.contains(switchesOf(route)), "not from either snapshot: " + route);
                List<Route> equal = engine.equalCostRoutes(dpid(1), dpid(3), Metric.HOPS);
                assertEquals(1, equal.size());
                assertTrue(valid.contains(switchesOf(equal.get(0))));
                answers++;
            }
            return answers;
        });
    }
}
