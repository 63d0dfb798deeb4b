package io.heliograph.devices.internal;

import static io.heliograph.devices.internal.TestFrames.IP_A;
import static io.heliograph.devices.internal.TestFrames.IP_B;
import static io.heliograph.devices.internal.TestFrames.IP_SERVER;
import static io.heliograph.devices.internal.TestFrames.MAC_A;
import static io.heliograph.devices.internal.TestFrames.MAC_B;
import static io.heliograph.devices.internal.TestFrames.MAC_SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.testing.ManualClock;
import io.heliograph.devices.Host;
import io.heliograph.devices.HostListener;
import io.heliograph.topology.Link;
import io.heliograph.topology.TopologyEvent;

/** From packet-ins to lookups and events, with the tracker's thread replaced by a queue the test drains. */
class DeviceManagerTest {

    private static final DatapathId S1 = DatapathId.of(1);
    private static final DatapathId S2 = DatapathId.of(2);
    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00Z");

    private final ManualClock clock = new ManualClock(T0);
    private final Queue<Runnable> trackerQueue = new ArrayDeque<>();
    private final RecordingListener events = new RecordingListener();
    private final FakeTopology topology = new FakeTopology();
    private DeviceManager devices = manager(TrackerSettings.DEFAULTS, trackerQueue::add, 1_000);

    private DeviceManager manager(TrackerSettings s, Executor executor, int maxPending) {
        TrackerSettings settings = new TrackerSettings(s.hostTimeoutMs(), s.multiHomeWindowMs(),
                s.maxAttachmentPoints(), s.maxAddressesPerHost(), s.maxHosts(), s.maxHostsPerPort(), s.hostIdleMs(),
                maxPending);
        DeviceManager manager = new DeviceManager(settings, clock, executor);
        manager.addListener(events);
        return manager;
    }

    /** Runs what the tracker thread would have run, in order. */
    private int drain() {
        int ran = 0;
        for (Runnable task; (task = trackerQueue.poll()) != null; ran++) {
            task.run();
        }
        return ran;
    }

    private void packetIn(DatapathId dpid, int port, byte[] frame) {
        devices.packetIn(dpid, TestFrames.packetIn(OFVersion.OF_13, port, frame));
    }

    private Host hostA() {
        return devices.getHost(MacAddress.of(MAC_A), VlanVid.ZERO);
    }

    @Test
    void learnsFromAnArpPacketInOnTheTrackerThreadNotTheIoThread() {
        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        assertNull(hostA(), "nothing is applied on the I/O thread");

        assertEquals(1, drain());
        Host host = hostA();
        assertEquals(Set.of(IPv4Address.of(IP_A)), host.ipv4Addresses());
        assertEquals(SwitchPort.of(S1, OFPort.of(1)), host.attachmentPoints().get(0).port());
        assertEquals(List.of(host), List.copyOf(devices.getHostsByIpv4(IPv4Address.of(IP_A))));
        assertEquals(List.of("added"), events.take());
    }

    @Test
    void learnsFromIpv4NdpAndDhcpPacketIns() {
        IPv6Address linkLocal = IPv6Address.of("fe80::a");
        packetIn(S1, 1, TestFrames.ping4(MAC_B, MAC_A, IP_A, IP_B));
        packetIn(S1, 1, TestFrames.ndp(135, MAC_A, linkLocal, IPv6Address.of("ff02::1:ff00:b"),
                IPv6Address.of("fe80::b"), 255));
        packetIn(S2, 7, TestFrames.dhcpAck(MAC_SERVER, IP_SERVER, MAC_B, IP_B));
        packetIn(S1, 2, TestFrames.dhcpRequest(MAC_B, IP_B));
        drain();
        packetIn(S2, 7, TestFrames.dhcpAck(MAC_SERVER, IP_SERVER, MAC_B, IP_B)); // now B is known
        drain();

        assertEquals(Set.of(IPv4Address.of(IP_A)), hostA().ipv4Addresses());
        assertEquals(Set.of(linkLocal), hostA().ipv6Addresses());
        assertEquals(List.of(hostA()), List.copyOf(devices.getHostsByIpv6(linkLocal)));
        Host b = devices.getHost(MacAddress.of(MAC_B), VlanVid.ZERO);
        assertEquals(Set.of(IPv4Address.of(IP_B)), b.ipv4Addresses());
        assertEquals(SwitchPort.of(S1, OFPort.of(2)), b.attachmentPoints().get(0).port(), "placed by its own REQUEST");
        Host server = devices.getHost(MacAddress.of(MAC_SERVER), VlanVid.ZERO);
        assertEquals(SwitchPort.of(S2, OFPort.of(7)), server.attachmentPoints().get(0).port());
        assertEquals(3, devices.getHosts().size());
    }

    @Test
    void repeatedPacketInsThatSayNothingNewStayOffTheQueue() {
        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        drain();
        for (int i = 0; i < 100; i++) {
            packetIn(S1, 1, TestFrames.ping4(MAC_B, MAC_A, IP_A, IP_B));
        }
        assertEquals(0, drain());

        clock.advance(Duration.ofMillis(TrackerSettings.DEFAULTS.refreshMs()));
        packetIn(S1, 1, TestFrames.ping4(MAC_B, MAC_A, IP_A, IP_B));
        assertEquals(1, drain(), "a refresh is due");
        assertEquals(clock.instant(), hostA().lastSeen());

        packetIn(S1, 3, TestFrames.ping4(MAC_B, MAC_A, IP_A, IP_B));
        assertEquals(1, drain(), "another port is news");
    }

    @Test
    void aBurstBeyondTheQueueBoundIsDroppedNotWaitedFor() {
        devices = manager(TrackerSettings.DEFAULTS, trackerQueue::add, 10);
        for (int i = 0; i < 50; i++) {
            packetIn(S1, 1, TestFrames.arpRequest(0x0200_0000_1000L + i, 0x0a00_1000 + i, IP_B));
        }
        assertEquals(10, drain());
        assertEquals(10, devices.getHosts().size());

        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        drain();
        assertNotNull(hostA(), "the bound counts what is waiting, not what was ever queued");
        StateBounds.Bound pending = devices.bounds().stream().filter(b -> b.table().equals("devices.pendingSightings"))
                .findFirst().orElseThrow();
        assertEquals(10, pending.limit());
        assertEquals(40, pending.refused(), "the dropped sightings, counted");
        assertEquals(0, pending.size());
    }

    @Test
    void packetInsAtInterSwitchPortsTeachNothingAndANewLinkDropsAttachmentPoints() {
        devices.setTopology(topology);
        topology.add(new Link(SwitchPort.of(S1, OFPort.of(9)), SwitchPort.of(S2, OFPort.of(9))));
        packetIn(S2, 9, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        assertEquals(1, drain(), "only the revalidation ran");
        assertNull(hostA());

        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        drain();
        assertEquals(SwitchPort.of(S1, OFPort.of(1)), hostA().attachmentPoints().get(0).port());

        Link found = new Link(SwitchPort.of(S1, OFPort.of(1)), SwitchPort.of(S2, OFPort.of(4)));
        topology.add(found);
        devices.topologyChanged(List.of(new TopologyEvent(TopologyEvent.Type.LINK_ADDED, found, null, topology)));
        drain();
        assertNull(hostA(), "its only attachment point faces a switch");
        assertEquals(List.of("added", "removed"), events.take());
    }

    @Test
    void aTopologyArrivingLaterDropsPointsLearnedAtItsInterSwitchPorts() {
        packetIn(S2, 9, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        drain();
        assertNotNull(hostA(), "without a topology every port is an edge");

        topology.add(new Link(SwitchPort.of(S1, OFPort.of(9)), SwitchPort.of(S2, OFPort.of(9))));
        devices.setTopology(topology);
        drain();
        assertNull(hostA());
    }

    /**
     * A MAC flood on a port at its bound: once the tracker has refused a new host there, the I/O side
     * counts and drops the next ones itself, so they never fill the queue every switch shares; when
     * the port's least recently seen host turns idle, a new host reaches the tracker again.
     */
    @Test
    void aFloodAtAFullPortIsRefusedBeforeTheQueue() {
        devices = manager(new TrackerSettings(600_000, 0, 8, 16, 65_536, 2, 30_000, 65_536), trackerQueue::add,
                1_000);
        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        packetIn(S1, 1, TestFrames.arpRequest(MAC_B, IP_B, IP_A));
        packetIn(S1, 1, TestFrames.arpRequest(0x0600_0000_0001L, 0x0a00_0101, IP_A)); // the first refusal
        assertEquals(3, drain());
        for (int i = 2; i <= 1_000; i++) {
            packetIn(S1, 1, TestFrames.arpRequest(0x0600_0000_0000L + i, 0x0a00_0100 + i, IP_A));
        }
        assertEquals(0, drain(), "the flood never reached the queue");
        packetIn(S2, 1, TestFrames.arpRequest(0x0200_0000_0c00L, 0x0a00_0003, IP_A));
        assertEquals(1, drain(), "a new host at another port goes on as ever");
        StateBounds.Bound perPort = devices.bounds().stream().filter(b -> b.table().equals("devices.hostsPerPort"))
                .findFirst().orElseThrow();
        assertEquals(1_000, perPort.refused(), "every flooded host counted, before the queue or in the tracker");
        assertEquals(2, perPort.size());

        clock.advance(Duration.ofMillis(30_001)); // A and B are idle now
        packetIn(S1, 1, TestFrames.arpRequest(0x0600_0000_0000L + 1_001, 0x0a00_0500, IP_A));
        assertEquals(1, drain());
        assertNotNull(devices.getHost(MacAddress.of(0x0600_0000_0000L + 1_001), VlanVid.ZERO),
                "took an idle one's place");
        assertEquals(2, devices.getHostsAt(SwitchPort.of(S1, OFPort.of(1))).size());
    }

    @Test
    void aHostMovesAndListenersHearItWithBeforeAndAfter() {
        devices = manager(new TrackerSettings(60_000, 0, 8, 16, 100, 100, 120_000, 65_536), trackerQueue::add, 1_000);
        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        drain();
        clock.advance(Duration.ofMillis(10));
        packetIn(S2, 3, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        drain();

        RecordingListener.Event move = events.last();
        assertEquals(List.of("added", "moved"), events.take());
        assertEquals(SwitchPort.of(S1, OFPort.of(1)), move.before().attachmentPoints().get(0).port());
        assertEquals(List.of(SwitchPort.of(S2, OFPort.of(3))),
                move.after().attachmentPoints().stream().map(p -> p.port()).toList());
        assertEquals(List.of(), devices.getHostsAt(SwitchPort.of(S1, OFPort.of(1))));
    }

    @Test
    void theSweepExpiresHostsByTheInjectedClock() {
        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        drain();
        clock.advance(Duration.ofMillis(TrackerSettings.DEFAULTS.hostTimeoutMs()));
        devices.sweep();
        drain();
        assertNotNull(hostA());

        clock.advance(Duration.ofMillis(1));
        devices.sweep();
        drain();
        assertNull(hostA());
        assertEquals(List.of("added", "removed"), events.take());
    }

    @Test
    void aSwitchLeavingOrAPortGoingDownTakesItsHosts() {
        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        packetIn(S2, 2, TestFrames.arpRequest(MAC_B, IP_B, IP_A));
        drain();

        OFPortDesc.Builder port = OFFactories.getFactory(OFVersion.OF_13).buildPortDesc().setPortNo(OFPort.of(2))
                .setName("s2-eth2");
        devices.portChanged(S2, port.setState(Set.of()).setConfig(Set.of()).build(), PortChange.MODIFIED);
        drain();
        assertEquals(2, devices.getHosts().size(), "a port that is up keeps its hosts");
        devices.portChanged(S2, port.setState(Set.of(OFPortState.LINK_DOWN)).build(), PortChange.MODIFIED);
        drain();
        assertNull(devices.getHost(MacAddress.of(MAC_B), VlanVid.ZERO));

        devices.switchRemoved(S1);
        drain();
        assertNull(hostA());
        assertTrue(devices.getHosts().isEmpty());
        devices.portChanged(S1, port.setState(Set.of()).setConfig(Set.of(OFPortConfig.PORT_DOWN)).build(),
                PortChange.MODIFIED);
        assertEquals(1, drain(), "an administratively downed port counts as down too");
    }

    @Test
    void aFailingListenerDoesNotStopTheOthersOrTheTracker() {
        devices.addListener(new HostListener() {
            @Override
            public void hostAdded(Host host) {
                throw new IllegalStateException("listener bug");
            }
        });
        RecordingListener second = new RecordingListener();
        devices.addListener(second);

        packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));
        drain();

        assertEquals(List.of("added"), second.take());
        assertNotNull(hostA());
    }

    @Test
    void malformedPacketInsAreIgnoredSafely() {
        packetIn(S1, 1, new byte[0]);
        packetIn(S1, 1, new byte[] {1, 2, 3});
        byte[] arp = TestFrames.arpRequest(MAC_A, IP_A, IP_B);
        packetIn(S1, 1, java.util.Arrays.copyOf(arp, 20));
        drain();

        assertEquals(Set.of(), hostA().ipv4Addresses(), "the Ethernet header was whole, the ARP not");
        assertEquals(1, devices.getHosts().size());
    }

    @Test
    void withARealTrackerThreadEventsComeOnItAndLookupsSeeTheResult() throws Exception {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "tracker-under-test"));
        try {
            CountDownLatch added = new CountDownLatch(1);
            String[] threadName = new String[1];
            devices = manager(TrackerSettings.DEFAULTS, thread, 1_000);
            devices.addListener(new HostListener() {
                @Override
                public void hostAdded(Host host) {
                    threadName[0] = Thread.currentThread().getName();
                    added.countDown();
                }
            });

            packetIn(S1, 1, TestFrames.arpRequest(MAC_A, IP_A, IP_B));

            assertTrue(added.await(5, TimeUnit.SECONDS));
            assertEquals("tracker-under-test", threadName[0]);
            assertNotNull(hostA(), "published before it is announced");
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void manyIoThreadsAtOnceNeverLoseOrCorruptAHost() throws Exception {
        ExecutorService tracker = Executors.newSingleThreadExecutor();
        ExecutorService io = Executors.newFixedThreadPool(4);
        try {
            devices = new DeviceManager(TrackerSettings.DEFAULTS, java.time.Clock.systemUTC(), tracker);
            int perThread = 250;
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < 4; t++) {
                int thread = t;
                io.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        int n = thread * perThread + i;
                        // each host twice from its port: the second is a repeat the I/O thread keeps off the queue
                        for (int repeat = 0; repeat < 2; repeat++) {
                            devices.packetIn(DatapathId.of(1 + thread), TestFrames.packetIn(OFVersion.OF_13, 1 + i,
                                    TestFrames.arpRequest(0x0200_0000_0000L + n, 0x0a01_0000 + n, IP_B)));
                        }
                    }
                    return null;
                });
            }
            start.countDown();
            io.shutdown();
            assertTrue(io.awaitTermination(10, TimeUnit.SECONDS));

            long deadline = System.nanoTime() + 10_000_000_000L;
            while (devices.getHosts().size() < 4 * perThread && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            assertEquals(4 * perThread, devices.getHosts().size());
            for (int n = 0; n < 4 * perThread; n += 37) {
                IPv4Address ip = IPv4Address.of(0x0a01_0000 + n);
                Host host = devices.getHostsByIpv4(ip).iterator().next();
                assertEquals(MacAddress.of(0x0200_0000_0000L + n), host.mac());
                assertEquals(List.of(host), List.copyOf(devices.getHostsAt(host.attachmentPoints().get(0).port())));
            }
        } finally {
            io.shutdownNow();
            tracker.shutdownNow();
        }
    }
}
