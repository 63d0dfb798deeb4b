package io.heliograph.routing.internal;

import static io.heliograph.routing.internal.ShortestRouteTest.switchesOf;
import static io.heliograph.routing.internal.TestNetwork.dpid;
import static io.heliograph.routing.internal.TestNetwork.port;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.heliograph.core.SwitchPort;
import io.heliograph.routing.Metric;
import io.heliograph.stats.PortRate;

class MetricTest {

    private static final long GIGABIT = 1_000_000_000L;

    private final Map<SwitchPort, Long> speeds = new HashMap<>();
    private final Map<SwitchPort, PortRate> rates = new HashMap<>();
    private final AtomicLong clock = new AtomicLong();

    private RoutingEngine engine(TestNetwork network) {
        FakeTopology topology = network.topology(1);
        return new RoutingEngine(() -> topology, p -> speeds.getOrDefault(p, 0L), rates::get, clock::get);
    }

    @Test
    void capacityPrefersTheFatLinkOverTheShortThinOne() {
        // 1-2 directly at 1 Gbit/s, or 1-3-2 at 10 Gbit/s per hop.
        TestNetwork network = new TestNetwork().cable(1, 1, 2, 1).cable(1, 2, 3, 1).cable(3, 2, 2, 2);
        speed(1, 1, GIGABIT);
        speed(2, 1, GIGABIT);
        speed(1, 2, 10 * GIGABIT);
        speed(3, 1, 10 * GIGABIT);
        speed(3, 2, 10 * GIGABIT);
        speed(2, 2, 10 * GIGABIT);
        RoutingEngine engine = engine(network);

        assertEquals(List.of(1L, 2L), switchesOf(engine.route(dpid(1), dpid(2), Metric.HOPS)));
        assertEquals(List.of(1L, 3L, 2L), switchesOf(engine.route(dpid(1), dpid(2), Metric.CAPACITY)));
        assertEquals(2.0, engine.route(dpid(1), dpid(2), Metric.CAPACITY).cost(), 1e-9);
        assertEquals(10.0, engine.linkCost(TestNetwork.link(1, 1, 2, 1), Metric.CAPACITY), 1e-9);
    }

    @Test
    void aLinkRunsAtItsSlowerEndAndUnknownSpeedsUseTheDefault() {
        TestNetwork network = new TestNetwork().cable(1, 1, 2, 1).cable(2, 2, 3, 1);
        speed(1, 1, 10 * GIGABIT);
        speed(2, 1, GIGABIT);
        // 2:2 and 3:1 report nothing: the default 1000 Mbit/s applies.
        RoutingEngine engine = engine(network);

        assertEquals(10.0, engine.linkCost(TestNetwork.link(1, 1, 2, 1), Metric.CAPACITY), 1e-9);
        assertEquals(10.0, engine.linkCost(TestNetwork.link(2, 2, 3, 1), Metric.CAPACITY), 1e-9);
        engine.configure(new RoutingSettings(Metric.HOPS, 16, 10, 1000, 40_000));
        assertEquals(0.25, engine.linkCost(TestNetwork.link(2, 2, 3, 1), Metric.CAPACITY), 1e-9);
    }

    @Test
    void utilisationAvoidsTheBusyLink() {
        TestNetwork diamond = ShortestRouteTest.diamond(); // 1-2-4 and 1-3-4, equal in hops
        allPortsAt(diamond, GIGABIT);
        RoutingEngine engine = engine(diamond);
        assertEquals(List.of(1L, 2L, 4L), switchesOf(engine.route(dpid(1), dpid(4), Metric.UTILISATION)));

        sending(port(2, 2), 800_000_000); // 2 -> 4 is 80% busy
        clock.addAndGet(1_000_000_000L);

        assertEquals(List.of(1L, 2L, 4L), switchesOf(engine.route(dpid(1), dpid(4), Metric.HOPS)));
        assertEquals(List.of(1L, 3L, 4L), switchesOf(engine.route(dpid(1), dpid(4), Metric.UTILISATION)));
        assertEquals(1 + 10 * 0.8, engine.linkCost(TestNetwork.link(2, 2, 4, 1), Metric.UTILISATION), 1e-9);
        assertEquals(List.of(List.of(1L, 3L, 4L)), engine.equalCostRoutes(dpid(1), dpid(4), Metric.UTILISATION)
                .stream().map(ShortestRouteTest::switchesOf).toList());
    }

    @Test
    void theReceivingEndCountsTooAndUtilisationIsCappedAtFull() {
        TestNetwork diamond = ShortestRouteTest.diamond();
        allPortsAt(diamond, GIGABIT);
        rates.put(port(4, 1), new PortRate(port(4, 1), Instant.EPOCH, 5e9, 0, 0, 0)); // 4 receives from 2
        RoutingEngine engine = engine(diamond);

        assertEquals(11.0, engine.linkCost(TestNetwork.link(2, 2, 4, 1), Metric.UTILISATION), 1e-9);
        assertEquals(1.0, engine.linkCost(TestNetwork.link(4, 1, 2, 2), Metric.UTILISATION), 1e-9);
    }

    @Test
    void utilisationCostsAreReusedUntilTheRefreshIntervalPasses() {
        TestNetwork diamond = ShortestRouteTest.diamond();
        allPortsAt(diamond, GIGABIT);
        RoutingEngine engine = engine(diamond);
        assertEquals(List.of(1L, 2L, 4L), switchesOf(engine.route(dpid(1), dpid(4), Metric.UTILISATION)));

        sending(port(2, 2), 900_000_000);
        clock.addAndGet(999_000_000L);
        assertEquals(List.of(1L, 2L, 4L), switchesOf(engine.route(dpid(1), dpid(4), Metric.UTILISATION)),
                "still within the 1000 ms refresh interval");

        clock.addAndGet(1_000_000L);
        assertEquals(List.of(1L, 3L, 4L), switchesOf(engine.route(dpid(1), dpid(4), Metric.UTILISATION)));
    }

    @Test
    void withoutStatisticsUtilisationIsHopCount() {
        RoutingEngine engine = engine(ShortestRouteTest.ring(5));

        assertEquals(engine.route(dpid(1), dpid(3), Metric.HOPS).links(),
                engine.route(dpid(1), dpid(3), Metric.UTILISATION).links());
        assertEquals(2.0, engine.route(dpid(1), dpid(3), Metric.UTILISATION).cost());
    }

    private void speed(long dpid, int port, long bps) {
        speeds.put(port(dpid, port), bps);
    }

    private void allPortsAt(TestNetwork network, long bps) {
        network.links().forEach(l -> {
            speeds.put(l.src(), bps);
            speeds.put(l.dst(), bps);
        });
    }

    private void sending(SwitchPort port, double bps) {
        rates.put(port, new PortRate(port, Instant.EPOCH, 0, bps, 0, 0));
    }
}
