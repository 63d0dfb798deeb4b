package io.heliograph.routing.internal;

import static io.heliograph.routing.internal.ShortestRouteTest.switchesOf;
import static io.heliograph.routing.internal.TestNetwork.dpid;
import static io.heliograph.routing.internal.TestNetwork.link;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.annotation.Annotation;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFPortFeatures;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyService;

class RoutingManagerTest {

    private volatile Topology current;
    private final FakeSwitchService switches = new FakeSwitchService();

    private RoutingManager manager(RoutingConfig config) {
        RoutingManager manager = new RoutingManager(config);
        manager.bindTopology(() -> current);
        manager.bindSwitches(switches);
        return manager;
    }

    @Test
    void routesAreCachedUntilTheTopologyChanges() {
        TestNetwork ring = ShortestRouteTest.ring(4);
        current = ring.topology(1);
        RoutingManager manager = manager(config(Metric.HOPS, 16));

        Route first = manager.getRoute(dpid(1), dpid(3), Metric.HOPS);
        manager.getEqualCostRoutes(dpid(1), dpid(3), Metric.HOPS);
        manager.getRoute(dpid(1), dpid(2), Metric.HOPS);
        assertEquals(List.of(1L, 2L, 3L), switchesOf(first));
        assertEquals(1, manager.engine().searches(), "one search from switch 1 answers every destination");

        // The cable 1-2 fails: the topology publishes a new snapshot and tells its listeners.
        Link failed = link(1, 2, 2, 1);
        ring.remove(failed).remove(failed.reverse());
        current = ring.topology(2);
        manager.topologyChanged(List.of(new TopologyEvent(TopologyEvent.Type.LINK_REMOVED, failed, null, current)));

        assertEquals(List.of(1L, 4L, 3L), switchesOf(manager.getRoute(dpid(1), dpid(3), Metric.HOPS)));
        assertEquals(2, manager.engine().searches());
        assertEquals(1, manager.getEqualCostRoutes(dpid(1), dpid(3), Metric.HOPS).size());
    }

    @Test
    void withoutATopologyServiceThereAreNoRoutesUntilOneIsBound() {
        current = ShortestRouteTest.ring(4).topology(3);
        RoutingManager manager = new RoutingManager(config(Metric.HOPS, 16));
        assertNull(manager.getRoute(dpid(1), dpid(3), Metric.HOPS));
        assertEquals(List.of(), manager.getKShortestRoutes(dpid(1), dpid(3), 2, Metric.HOPS));
        assertEquals(0, manager.getRoute(dpid(2), dpid(2), Metric.HOPS).hops());

        TopologyService service = () -> current;
        manager.bindTopology(service);
        assertEquals(List.of(1L, 2L, 3L), switchesOf(manager.getRoute(dpid(1), dpid(3), Metric.HOPS)));

        manager.unbindTopology(service);
        assertNull(manager.getRoute(dpid(1), dpid(3), Metric.HOPS));
    }

    @Test
    void aReboundTopologyServiceIsNeverAnsweredFromTheOldCache() {
        current = ShortestRouteTest.ring(4).topology(5);
        RoutingManager manager = manager(config(Metric.HOPS, 16));
        assertEquals(List.of(1L, 2L, 3L), switchesOf(manager.getRoute(dpid(1), dpid(3), Metric.HOPS)));

        // A restarted topology numbers its versions from scratch and may reach the same number.
        TestNetwork other = new TestNetwork().cable(1, 1, 4, 1).cable(4, 2, 3, 1);
        Topology restarted = other.topology(5);
        manager.bindTopology(() -> restarted);

        assertEquals(List.of(1L, 4L, 3L), switchesOf(manager.getRoute(dpid(1), dpid(3), Metric.HOPS)));
    }

    @Test
    void aNewTopologyVersionIsNoticedEvenBeforeItsEvent() {
        TestNetwork line = new TestNetwork().cable(1, 1, 2, 1);
        current = line.topology(7);
        RoutingManager manager = manager(config(Metric.HOPS, 16));
        assertNull(manager.getRoute(dpid(1), dpid(3), Metric.HOPS));

        current = line.cable(2, 2, 3, 1).topology(8);

        assertEquals(List.of(1L, 2L, 3L), switchesOf(manager.getRoute(dpid(1), dpid(3), Metric.HOPS)));
    }

    @Test
    void aPortSpeedChangeIsSeenByCapacityRouting() {
        TestNetwork network = new TestNetwork().cable(1, 1, 2, 1).cable(1, 2, 3, 1).cable(3, 2, 2, 2);
        current = network.topology(1);
        network.links().forEach(l -> {
            portAt(l.src(), OFPortFeatures.PF_10GB_FD);
            portAt(l.dst(), OFPortFeatures.PF_10GB_FD);
        });
        RoutingManager manager = manager(config(Metric.CAPACITY, 16));
        assertEquals(List.of(1L, 2L), switchesOf(manager.getRoute(dpid(1), dpid(2), Metric.CAPACITY)));

        // The direct cable renegotiates down to 1 Gbit/s: PORT_STATUS, same topology version.
        portAt(TestNetwork.port(1, 1), OFPortFeatures.PF_1GB_FD);
        manager.portChanged(switches.getSwitch(dpid(1)), switches.getSwitch(dpid(1)).getPort(OFPort.of(1)), PortChange.MODIFIED);

        assertEquals(List.of(1L, 3L, 2L), switchesOf(manager.getRoute(dpid(1), dpid(2), Metric.CAPACITY)));
        assertEquals(10.0, manager.linkCost(link(1, 1, 2, 1), Metric.CAPACITY), 1e-9);
    }

    @Test
    void statisticsAreUsedWhileBoundAndForgottenWhenTheyLeave() {
        TestNetwork diamond = ShortestRouteTest.diamond();
        current = diamond.topology(1);
        RoutingManager manager = manager(config(Metric.UTILISATION, 16));
        StatisticsService busy = statistics(port -> port.equals(TestNetwork.port(1, 1))
                ? new PortRate(port, Instant.EPOCH, 0, 9e8, 0, 0) : null);

        PortRates measured = new StatisticsPortRates(busy);
        manager.bindRates(measured);
        assertEquals(List.of(1L, 3L, 4L), switchesOf(manager.getRoute(dpid(1), dpid(4), Metric.UTILISATION)));

        manager.unbindRates(measured);
        assertEquals(List.of(1L, 2L, 4L), switchesOf(manager.getRoute(dpid(1), dpid(4), Metric.UTILISATION)));
    }

    @Test
    void configurationAppliesLiveAndABadOneIsRefused() {
        current = new FatTree(4).network().topology(1);
        RoutingManager manager = manager(config(Metric.HOPS, 16));
        FatTree tree = new FatTree(4);
        DatapathId a = dpid(tree.edge(0, 0));
        DatapathId b = dpid(tree.edge(3, 0));
        assertEquals(4, manager.getEqualCostRoutes(a, b, Metric.HOPS).size());

        manager.modified(config(Metric.CAPACITY, 2));
        assertEquals(2, manager.getEqualCostRoutes(a, b, Metric.HOPS).size());
        assertEquals(Metric.CAPACITY, manager.getDefaultMetric());

        manager.modified(config(Metric.HOPS, 0));
        assertEquals(new RoutingSettings(Metric.CAPACITY, 2, 10, 1000, 1000), manager.settings());
        manager.modified(config(null, 8));
        assertEquals(new RoutingSettings(Metric.CAPACITY, 2, 10, 1000, 1000), manager.settings(),
                "a misspelt metric is refused too");
        assertEquals(2, manager.getEqualCostRoutes(a, b, Metric.HOPS).size());
    }

    @Test
    void settingsRejectOutOfRangeValuesByName() {
        assertEquals("maxEcmpPaths must be within 1..1024, was 0", refused(
                () -> new RoutingSettings(Metric.HOPS, 0, 10, 1000, 1000)));
        assertEquals("utilisationWeight must be within 0..1000000, was NaN", refused(
                () -> new RoutingSettings(Metric.HOPS, 1, Double.NaN, 1000, 1000)));
        assertEquals("unknownSpeedMbps must be within 1..1000000000, was 0", refused(
                () -> new RoutingSettings(Metric.HOPS, 1, 1, 1000, 0)));
        assertEquals("defaultMetric must be one of HOPS, CAPACITY, UTILISATION, was 'slow'", refused(
                () -> RoutingSettings.metric("slow")));
        assertEquals(Metric.UTILISATION, RoutingSettings.metric(" Utilisation "));
    }

    private static String refused(org.junit.jupiter.api.function.Executable bad) {
        return assertThrows(IllegalArgumentException.class, bad).getMessage();
    }

    private void portAt(SwitchPort port, OFPortFeatures speed) {
        FakeSwitch sw = (FakeSwitch) switches.getSwitch(port.dpid());
        if (sw == null) {
            sw = new FakeSwitch(port.dpid().getLong(), OFVersion.OF_10);
            switches.add(sw);
        }
        sw.putPort(sw.getFactory().buildPortDesc().setPortNo(port.port()).setName("p")
                .setHwAddr(MacAddress.of(1)).setCurr(Set.of(speed)).build());
    }

    /** Statistics that answer only what routing reads: the latest rate of a port. */
    private static StatisticsService statistics(Function<SwitchPort, PortRate> rates) {
        return (StatisticsService) Proxy.newProxyInstance(StatisticsService.class.getClassLoader(),
                new Class<?>[] {StatisticsService.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getPortRate" -> rates.apply((SwitchPort) args[0]);
                    case "toString" -> "fake statistics";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    static RoutingConfig config(Metric metric, int maxEcmpPaths) {
        return config(metric, maxEcmpPaths, 1000);
    }

    static RoutingConfig config(Metric metric, int maxEcmpPaths, int refreshMs) {
        return new RoutingConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return RoutingConfig.class;
            }

            @Override
            public String defaultMetric() {
                return metric == null ? "slow" : metric.name().toLowerCase(java.util.Locale.ROOT);
            }

            @Override
            public int maxEcmpPaths() {
                return maxEcmpPaths;
            }

            @Override
            public double utilisationWeight() {
                return 10;
            }

            @Override
            public int utilisationRefreshMs() {
                return refreshMs;
            }

            @Override
            public long unknownSpeedMbps() {
                return 1000;
            }
        };
    }
}
