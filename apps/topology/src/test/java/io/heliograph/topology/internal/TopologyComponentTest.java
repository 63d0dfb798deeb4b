package io.heliograph.topology.internal;

import static io.heliograph.topology.internal.Fabric.end;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.Role;
import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.topology.Link;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyEvent.Type;

/** The DS component with its real topology thread; waits poll a condition with a deadline. */
class TopologyComponentTest {

    private final FakeSwitchService switchService = new FakeSwitchService();
    private TopologyComponent component;

    private void start(TopologyConfig config) {
        component = new TopologyComponent(config);
        component.setSwitchService(switchService);
    }

    @AfterEach
    void stop() {
        if (component != null) {
            component.deactivate();
        }
    }

    static TopologyConfig config(long interval, long timeout, long maxAge) {
        return new TopologyConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return TopologyConfig.class;
            }

            @Override
            public long lldpIntervalMs() {
                return interval;
            }

            @Override
            public long linkTimeoutMs() {
                return timeout;
            }

            @Override
            public long lldpMaxAgeMs() {
                return maxAge;
            }
        };
    }

    @Test
    void itIsThePacketInListenerNamedTopology() {
        start(config(5_000, 15_000, 3_000));
        assertEquals("topology", component.getName());
        assertEquals(Set.of(OFType.PACKET_IN), component.getTypes());
        assertEquals(0, component.getTopology().links().size());
    }

    @Test
    void badConfigurationIsRefusedAndTheLastGoodOneKept() {
        start(config(5_000, 4_000, 3_000));
        assertEquals(TopologySettings.DEFAULTS, component.diagnostics().settings(),
                "a timeout shorter than the interval");
        component.modified(config(2_000, 6_000, 1_000));
        assertEquals(new TopologySettings(2_000, 6_000, 1_000), component.diagnostics().settings());
        component.modified(config(2_000, 6_000, 0));
        assertEquals(new TopologySettings(2_000, 6_000, 1_000), component.diagnostics().settings());
    }

    @Test
    void switchesConnectedBeforeItStartedAreDiscoveredAndListenersToldInOrder() {
        FakeSwitch a = new FakeSwitch(1, OFVersion.OF_13, 2);
        FakeSwitch b = new FakeSwitch(2, OFVersion.OF_10, 2);
        switchService.add(a);
        switchService.add(b);
        start(config(5_000, 15_000, 3_000));
        List<List<TopologyEvent>> events = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        component.addTopologyListener(change -> {
            throw new IllegalStateException("a broken listener must not stop the others");
        });
        component.addTopologyListener(change -> {
            threads.add(Thread.currentThread().getName());
            events.add(change);
        });
        Fabric fabric = new Fabric(component::receive);
        fabric.add(a);
        fabric.add(b);
        fabric.cable(1, 1, 2, 1);
        Set<Link> both = Set.of(new Link(end(1, 1), end(2, 1)), new Link(end(2, 1), end(1, 1)));
        waitFor(() -> {
            fabric.deliver();
            return component.getTopology().links().equals(both);
        }, "both directions discovered");
        waitFor(() -> events.stream().flatMap(List::stream).filter(e -> e.type() == Type.LINK_ADDED).count() == 2,
                "two LINK_ADDED events");
        assertEquals(Set.of("heliograph-topology"), Set.copyOf(threads));
        long version = 0;
        for (List<TopologyEvent> change : events) {
            assertTrue(change.get(0).topology().version() > version, "in order");
            version = change.get(0).topology().version();
        }
        TopologyDiagnostics diagnostics = component.diagnostics();
        List<LinkStatus> status = diagnostics.linkStatus();
        assertEquals(2, status.size());
        assertTrue(status.stream().allMatch(LinkStatus::bidirectional));
        assertTrue(TopologyCommands.render(status, diagnostics.nowMs(), diagnostics.topology(),
                diagnostics.lldpCounts())
                .contains("2 switches, 2 links (0 one-way), 1 islands"));

        // A switch leaving is handed to the topology thread too.
        component.switchRemoved(b);
        waitFor(() -> component.getTopology().links().isEmpty()
                && component.getTopology().switches().equals(Set.of(DatapathId.of(1))), "switch 2 gone");
    }

    @Test
    void aShorterIntervalTakesEffectWithoutARestart() {
        FakeSwitch a = new FakeSwitch(1, OFVersion.OF_13, 1);
        switchService.add(a);
        start(config(3_600_000, 3_600_001, 3_000));
        waitFor(() -> a.take().size() == 1, "the probe sent when the component starts");
        component.modified(config(100, 300, 100));
        for (int round = 0; round < 3; round++) {
            waitFor(() -> !a.take().isEmpty(), "probe round " + round + " at the new interval");
        }
    }

    private static void waitFor(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /**
     * Two components as two instances of a cluster: each masters one of two cabled switches. With the
     * store and cluster bound they sign probes with one key, so each verifies the other's, each finds
     * the link into its own switch, and both show the cable through the store. Without the shared key
     * neither would find anything (the probes would come from "another controller").
     */
    @Test
    void twoInstancesOfAClusterFindTheCableBetweenTheirSwitchesAndBothShowIt() {
        InMemorySharedStore storeA = new InMemorySharedStore();
        FakeClusterService clusterA = new FakeClusterService("a");
        FakeClusterService clusterB = clusterA.anotherInstance("b");
        start(config(3_600_000, 3_600_001, 3_000));
        TopologyComponent a = component;
        a.setSharedStore(storeA);
        a.setClusterService(clusterA);
        TopologyComponent b = new TopologyComponent(config(3_600_000, 3_600_001, 3_000));
        try {
            b.setSharedStore(storeA.anotherInstance("b"));
            b.setClusterService(clusterB);
            waitFor(() -> a.clusterSharing().current() != null && b.clusterSharing().current() != null, "both share");
            waitFor(() -> storeA.get(ClusterProbeKey.KEY).isPresent() && a.diagnostics().sharing() != null,
                    "the cluster's key");
            Map<String, TopologyComponent> byInstance = Map.of("a", a, "b", b);
            // switch 1: a is master; switch 2: b is master; each connected to both
            Map<String, FakeSwitch> one = connect(1, "a", byInstance);
            Map<String, FakeSwitch> two = connect(2, "b", byInstance);
            Set<Link> cable = Set.of(new Link(end(1, 1), end(2, 1)), new Link(end(2, 1), end(1, 1)));
            waitFor(() -> {
                a.roleChanged(one.get("a"), Role.MASTER); // probes at once: no round for an hour
                b.roleChanged(two.get("b"), Role.MASTER);
                carry(one.get("a"), two.get("b"), b);
                carry(two.get("b"), one.get("a"), a);
                return a.getTopology().links().equals(cable) && b.getTopology().links().equals(cable);
            }, "both directions in both views");
            assertEquals(List.of(), one.get("b").take(), "b is SLAVE of 1: it never probes it");
            assertEquals(List.of(), two.get("a").take(), "a is SLAVE of 2: it never probes it");
            TopologyDiagnostics diagnostics = a.diagnostics();
            assertTrue(diagnostics.sharing().startsWith("shared with the cluster as a"), diagnostics.sharing());
            assertTrue(TopologyCommands.render(diagnostics.linkStatus(), diagnostics.nowMs(), diagnostics.topology(),
                    diagnostics.lldpCounts())
                    .contains("by b"), "the link into 2 is b's");

            // b's link is kept for the link timeout (an hour here) while 2's new master finds it again
            a.instanceLeft(clusterA.leave("b"));
            assertEquals(cable, a.getTopology().links(), "b's link stays in a's view after b left");
        } finally {
            b.deactivate();
        }
    }

    /** Connects switch {@code dpid} (one port) to every instance, {@code master} as MASTER. */
    private static Map<String, FakeSwitch> connect(long dpid, String master, Map<String, TopologyComponent> instances) {
        Map<String, FakeSwitch> connections = new java.util.HashMap<>();
        instances.forEach((id, instance) -> {
            FakeSwitch sw = new FakeSwitch(dpid, OFVersion.OF_13, 1);
            sw.requestRole(id.equals(master) ? Role.MASTER : Role.SLAVE, 1);
            connections.put(id, sw);
            instance.switchAdded(sw);
        });
        return connections;
    }

    /** The probes written to {@code from} cross the cable and come in at {@code to}, on port 1. */
    private static void carry(FakeSwitch from, FakeSwitch to, TopologyComponent master) {
        for (org.projectfloodlight.openflow.protocol.OFMessage m : from.take()) {
            if (m instanceof org.projectfloodlight.openflow.protocol.OFPacketOut out) {
                master.receive(to, Fabric.packetIn(to.getFactory(), org.projectfloodlight.openflow.types.OFPort.of(1),
                        out.getData()));
            }
        }
    }

    @Test
    void theLinksCommandSaysWhenNothingIsKnown() {
        String out = TopologyCommands.render(List.of(), 0, TopologyGraph.EMPTY, Map.of());
        assertTrue(out.startsWith("no links"), out);
        assertTrue(out.contains("refused: none"), out);
    }

    @Test
    void theLinksCommandShowsAgeDirectionAndRefusals() {
        Link link = new Link(end(1, 1), end(2, 1));
        TopologyGraph graph = new TopologyGraph(7, Set.of(DatapathId.of(1), DatapathId.of(2)), Set.of(link));
        String out = TopologyCommands.render(List.of(new LinkStatus(link, 1_000, 9_000, false, "c2")), 10_000, graph,
                Map.of(LldpProbeCodec.Outcome.ACCEPTED, 5L, LldpProbeCodec.Outcome.BAD_SIGNATURE, 2L));
        assertTrue(out.contains("age     9.0s"), out);
        assertTrue(out.contains("seen   1.0s ago"), out);
        assertTrue(out.contains("ONE-WAY (reverse not seen)  by c2"), out);
        assertTrue(out.contains("1 links (1 one-way)"), out);
        assertTrue(out.contains("LLDP accepted 5, refused: bad_signature 2"), out);
    }

    @Test
    void theIslandsCommandShowsEachIslandsTreePorts() {
        TopologyGraph graph = new Graphs().cable(1, 1, 2, 1).cable(2, 2, 3, 1).cable(3, 2, 1, 2).switches(9).build();
        String out = TopologyCommands.renderIslands(graph);
        assertTrue(out.startsWith("island 1: 3 switches, root 00:00:00:00:00:00:00:01"), out);
        assertTrue(out.contains("00:00:00:00:00:00:00:01  tree ports: 1,2"), out);
        assertTrue(out.contains("00:00:00:00:00:00:00:02  tree ports: 1\n"), out);
        assertTrue(out.contains("island 2: 1 switches, root 00:00:00:00:00:00:00:09"), out);
        assertTrue(out.endsWith("00:00:00:00:00:00:00:09  tree ports: none"), out);
        assertEquals("no switches", TopologyCommands.renderIslands(TopologyGraph.EMPTY));
    }
}
