package io.heliograph.devices.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.devices.Host;

class DevicesComponentTest {

    private final DevicesComponent component = new DevicesComponent();
    private final OFSwitch sw = new FakeSwitch(1);

    @AfterEach
    void stop() {
        component.deactivate();
    }

    @Test
    void joinsThePacketInPipelineAsDevices() {
        assertEquals("devices", component.getName());
        assertEquals(Set.of(OFType.PACKET_IN), component.getTypes());
    }

    @Test
    void learnsFromPacketInsAndAlwaysContinues() {
        component.activate(config(300_000, 1_000));

        assertEquals(Command.CONTINUE, component.receive(sw,
                TestFrames.packetIn(OFVersion.OF_13, 1, TestFrames.arpRequest(TestFrames.MAC_A, TestFrames.IP_A,
                        TestFrames.IP_B))));
        assertEquals(Command.CONTINUE, component.receive(sw, TestFrames.packetIn(OFVersion.OF_13, 1, new byte[5])));
        assertEquals(Command.CONTINUE, component.receive(sw, OFFactories.getFactory(OFVersion.OF_13).echoRequest(
                new byte[0])));

        Host host = waitFor(() -> component.getHost(MacAddress.of(TestFrames.MAC_A), VlanVid.ZERO));
        assertEquals(DatapathId.of(1), host.attachmentPoints().get(0).port().dpid());
        assertEquals(List.of("heliograph_devices_hosts 1.0"),
                component.samples().stream().map(s -> s.name() + " " + s.value()).toList(), "the metric counts it");
    }

    @Test
    void itHasNoMetricsWhileInactive() {
        assertEquals(List.of(), component.samples());
    }

    @Test
    void aBadConfigurationIsRefusedAndThePreviousOneStays() {
        component.activate(config(300_000, 1_000));
        component.modified(config(60_000, 0));
        component.modified(config(60_000, 120_000));

        assertEquals(new TrackerSettings(60_000, 0, 8, 16, 65_536, 1_024, 120_000, 65_536), component.settings());
    }

    @Test
    void itReportsItsBoundsUnderTheirSettingsWhileActive() {
        assertEquals(List.of(), component.bounds(), "nothing before it runs");
        component.activate(config(300_000, 1_000));
        assertEquals(List.of("devices.hosts io.heliograph.devices/maxHosts 65536",
                "devices.hostsPerPort io.heliograph.devices/maxHostsPerPort 1024",
                "devices.addressesPerHost io.heliograph.devices/maxAddressesPerHost 16",
                "devices.attachmentPointsPerHost io.heliograph.devices/maxAttachmentPoints 8",
                "devices.pendingSightings io.heliograph.devices/maxPending 65536"),
                component.bounds().stream().map(b -> b.table() + " " + b.setting() + " " + b.limit()).toList());
    }

    /**
     * Two components as two instances of a cluster: with the store and cluster bound, a host one
     * learns is in the other's view within the write delay, and leaves it when its instance leaves.
     */
    @Test
    void aHostOneInstanceLearnsIsSharedWithTheOtherAndStaysForAWhileAfterItLeaves() {
        InMemorySharedStore store = new InMemorySharedStore();
        FakeClusterService clusterA = new FakeClusterService("a");
        FakeClusterService clusterB = clusterA.anotherInstance("b");
        DevicesComponent other = new DevicesComponent();
        try {
            component.activate(config(300_000, 1_000));
            component.setSharedStore(store);
            component.setClusterService(clusterA);
            other.activate(config(300_000, 1_000));
            other.setClusterService(clusterB);
            other.setSharedStore(store.anotherInstance("b"));
            waitFor(() -> component.clusterSharing().current() != null && other.clusterSharing().current() != null
                    ? true : null);

            component.receive(sw, TestFrames.packetIn(OFVersion.OF_13, 1, TestFrames.arpRequest(TestFrames.MAC_A,
                    TestFrames.IP_A, TestFrames.IP_B)));

            Host shared = waitFor(() -> other.getHost(MacAddress.of(TestFrames.MAC_A), VlanVid.ZERO));
            assertEquals(DatapathId.of(1), shared.attachmentPoints().get(0).port().dpid());
            assertNotNull(store.get("devices/hosts/a/" + MacAddress.of(TestFrames.MAC_A)).orElse(null));

            // kept for 30 s while the new master of a's switches hears the host again
            other.instanceLeft(clusterB.leave("a"));
            assertNotNull(other.getHost(MacAddress.of(TestFrames.MAC_A), VlanVid.ZERO), "a's host stays after a left");
        } finally {
            other.deactivate();
        }
    }

    @Test
    void lookupsBeforeActivationSayItIsNotActive() {
        IllegalStateException e = assertThrows(IllegalStateException.class, component::getHosts);
        assertEquals("device tracking is not active", e.getMessage());
        assertEquals(Command.CONTINUE, component.receive(sw, TestFrames.packetIn(OFVersion.OF_13, 1, new byte[60])));
    }

    private static <T> T waitFor(Supplier<T> value) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        T result;
        while ((result = value.get()) == null && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        assertNotNull(result, "not there within 5 s");
        return result;
    }

    private static DevicesConfig config(long timeoutMs, long windowMs) {
        return new DevicesConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return DevicesConfig.class;
            }

            @Override
            public long hostTimeoutMs() {
                return timeoutMs;
            }

            @Override
            public long multiHomeWindowMs() {
                return windowMs;
            }

            @Override
            public int maxAttachmentPoints() {
                return 8;
            }

            @Override
            public int maxAddressesPerHost() {
                return 16;
            }

            @Override
            public int maxHosts() {
                return 65_536;
            }

            @Override
            public int maxHostsPerPort() {
                return 1_024;
            }

            @Override
            public long hostIdleMs() {
                return 120_000;
            }

            @Override
            public int maxPending() {
                return 65_536;
            }
        };
    }
}
