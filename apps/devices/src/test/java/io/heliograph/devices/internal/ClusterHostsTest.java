package io.heliograph.devices.internal;

import static io.heliograph.devices.internal.TestFrames.IP_A;
import static io.heliograph.devices.internal.TestFrames.IP_B;
import static io.heliograph.devices.internal.TestFrames.MAC_A;
import static io.heliograph.devices.internal.TestFrames.MAC_B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;
import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.core.testing.ManualClock;
import io.heliograph.devices.Host;

/**
 * Device tracking on two instances of a cluster, "a" and "b", sharing one in-memory store. Each
 * tracks the hosts of the switches it masters (it gets their packet-ins); each shows the union.
 * The trackers run on the test's thread, and the store is written when the test flushes.
 */
class ClusterHostsTest {

    private static final DatapathId S1 = DatapathId.of(1);
    private static final DatapathId S2 = DatapathId.of(2);
    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00Z");

    private final ManualClock clock = new ManualClock(T0);
    private final ScheduledExecutorService storeThread = Executors.newSingleThreadScheduledExecutor();
    private final InMemorySharedStore storeA = new InMemorySharedStore();
    private final FakeClusterService clusterA = new FakeClusterService("a");
    private final Instance a = new Instance(storeA, clusterA);
    private final Instance b = new Instance(storeA.anotherInstance("b"), clusterA.anotherInstance("b"));

    ClusterHostsTest() {
        a.shared.instanceJoined(b.cluster.getLocalInstance()); // as the cluster bundle would tell a
    }

    /** One instance's device tracking, shared. */
    private final class Instance {
        final FakeClusterService cluster;
        final DeviceManager devices = new DeviceManager(TrackerSettings.DEFAULTS, clock, Runnable::run);
        final RecordingListener events = new RecordingListener();
        final SharedHosts shared;

        Instance(InMemorySharedStore store, FakeClusterService cluster) {
            this.cluster = cluster;
            devices.addListener(events);
            shared = new SharedHosts(store, cluster, devices, storeThread, 3_600_000,
                    TrackerSettings.DEFAULTS::sharedRefreshMs, 0);
            devices.share(shared);
            shared.start();
        }

        void packetIn(DatapathId dpid, int port, byte[] frame) {
            devices.packetIn(dpid, TestFrames.packetIn(OFVersion.OF_13, port, frame));
        }

        Host host(long mac) {
            return devices.getHost(MacAddress.of(mac), VlanVid.ZERO);
        }
    }

    @AfterEach
    void stop() {
        storeThread.shutdownNow();
    }

    @Test
    void aHostOneInstanceTracksIsInTheOthersView() {
        a.packetIn(S1, 3, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        assertNull(b.host(MAC_A), "nothing before a's writes");

        a.shared.flush();

        Host seen = b.host(MAC_A);
        assertEquals(a.host(MAC_A), seen);
        assertEquals(SwitchPort.of(S1, OFPort.of(3)), seen.attachmentPoints().get(0).port());
        assertEquals(List.of(seen), List.copyOf(b.devices.getHostsByIpv4(IPv4Address.of(IP_A))));
        assertEquals(List.of(seen), List.copyOf(b.devices.getHostsAt(SwitchPort.of(S1, OFPort.of(3)))));
        assertEquals(List.of(seen), List.copyOf(b.devices.getHosts()));
        assertEquals(List.of("added"), b.events.take());
    }

    @Test
    void anInstanceLeavingTakesItsHostsOutOfTheOthersView() {
        a.packetIn(S1, 3, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        b.packetIn(S2, 4, TestFrames.arpRequest(MAC_B, IP_B, IP_A));
        a.shared.flush();
        b.shared.flush();
        assertEquals(2, b.devices.getHosts().size());
        b.events.take();

        b.shared.instanceLeft(clusterA.leave("a"));

        assertNull(b.host(MAC_A));
        assertEquals(List.of(b.host(MAC_B)), List.copyOf(b.devices.getHosts()), "b's own host stays");
        assertEquals(List.of("removed"), b.events.take());
    }

    /**
     * After a fail-over both instances may know a host at one port for a while (the old master until
     * it expires, the new one from its next packet): one host, merged, and nothing announced when
     * either lets it go.
     */
    @Test
    void aHostBothInstancesKnowIsOneHostAndStaysWhileEitherKnowsIt() {
        a.packetIn(S1, 3, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        a.shared.flush();
        clock.advance(Duration.ofSeconds(10));
        b.packetIn(S1, 3, TestFrames.ping4(MAC_B, MAC_A, IP_A, IP_B));
        b.shared.flush();

        Host merged = a.host(MAC_A);
        assertEquals(1, a.devices.getHosts().size());
        assertEquals(T0, merged.firstSeen(), "first seen by a");
        assertEquals(T0.plusSeconds(10), merged.lastSeen(), "last seen by b");
        assertEquals(1, merged.attachmentPoints().size());
        assertEquals(merged, b.host(MAC_A));
        b.events.take();

        b.shared.instanceLeft(clusterA.leave("a"));

        assertEquals(SwitchPort.of(S1, OFPort.of(3)), b.host(MAC_A).attachmentPoints().get(0).port());
        assertEquals(List.of(), b.events.take(), "the host's port and addresses did not change");
    }

    /**
     * A host moves from a switch a masters to one b masters. b learns it there; a never sees it again,
     * but b's point, first seen after a's was last seen, supersedes a's at a's next sweep once the
     * move window passed, as a local move would: then every view has the host at its new port only.
     */
    @Test
    void aHostMovingToAnotherInstancesSwitchLeavesItsOldPortEverywhere() {
        a.packetIn(S1, 3, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        a.shared.flush();
        clock.advance(Duration.ofSeconds(5));
        b.packetIn(S2, 4, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        b.shared.flush();
        assertEquals(2, b.host(MAC_A).attachmentPoints().size(), "until a's sweep, both are known");
        assertEquals(SwitchPort.of(S2, OFPort.of(4)), b.host(MAC_A).attachmentPoints().get(0).port(),
                "the most recent first: forwarding goes there already");
        a.events.take();
        b.events.take();

        a.devices.sweep();
        a.shared.flush();

        Set<SwitchPort> only = Set.of(SwitchPort.of(S2, OFPort.of(4)));
        assertEquals(only, HostStore.ports(a.host(MAC_A)));
        assertEquals(only, HostStore.ports(b.host(MAC_A)));
        assertEquals(List.of("updated"), a.events.take(), "a lost its point: flows toward it are deleted");
        assertEquals(List.of("updated"), b.events.take());
    }

    @Test
    void packetsThatOnlyRefreshAHostAreWrittenRarely() {
        long before = a.shared.writes();
        a.packetIn(S1, 3, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        a.shared.flush();
        assertEquals(1, a.shared.writes() - before);
        for (int second = 1; second <= 20; second++) {
            clock.advance(Duration.ofSeconds(1));
            a.packetIn(S1, 3, TestFrames.ping4(MAC_B, MAC_A, IP_A, IP_B));
            a.shared.flush();
        }
        assertEquals(1, a.shared.writes() - before, "20 s of refreshes, within the 30 s a written time may lag");
        clock.advance(Duration.ofSeconds(11));
        a.packetIn(S1, 3, TestFrames.ping4(MAC_B, MAC_A, IP_A, IP_B));
        a.shared.flush();
        assertEquals(2, a.shared.writes() - before);
        assertEquals(clock.instant(), b.host(MAC_A).lastSeen());
    }

    /**
     * 16 hosts behind a fat tree's edge switches, split over two instances, each sending a packet a
     * second for ten minutes of the tracker's clock. Printed for the report; asserted only against
     * the rule (one write per host, then one per host per refresh period).
     */
    @Test
    void theWriteRateOfSixteenBusyHosts() {
        long before = a.shared.writes() + b.shared.writes();
        int seconds = 600;
        for (int second = 0; second < seconds; second++) {
            for (int h = 0; h < 16; h++) {
                Instance owner = h % 2 == 0 ? a : b;
                long mac = 0x0200_0000_0100L + h;
                owner.packetIn(DatapathId.of(0x300 + h / 2), 3 + h % 2,
                        TestFrames.ping4(MAC_B, mac, 0x0a00_0100 + h, IP_B));
            }
            a.shared.flush();
            b.shared.flush();
            clock.advance(Duration.ofSeconds(1));
        }
        long writes = a.shared.writes() + b.shared.writes() - before;
        long refreshPeriods = seconds * 1000L / TrackerSettings.DEFAULTS.sharedRefreshMs();
        assertEquals(32, b.devices.getHosts().size() + a.devices.getHosts().size());
        assertTrue(writes <= 16 * (1 + refreshPeriods), writes + " writes");
        System.out.printf("16 hosts sending every second for %d s: %d store writes (%.2f/s); alone they would be "
                + "%d tracker refreshes%n", seconds, writes, writes / (double) seconds, 16 * seconds);
    }
}
