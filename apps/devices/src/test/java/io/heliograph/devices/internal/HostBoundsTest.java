package io.heliograph.devices.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;
import io.heliograph.devices.AttachmentPoint;

/**
 * The tracker's bounds under a MAC flood (the CAM-table overflow attack): in all and per edge port,
 * hosts that are known and active stay known, idle ones give way, the rest is refused, and all of it
 * is counted.
 */
class HostBoundsTest {

    private static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
    private static final long IDLE_MS = 30_000;
    private static final SwitchPort FLOODED = port(1, 1);
    private static final HostKey A = host(0x0200_0000_000aL);
    private static final HostKey B = host(0x0200_0000_000bL);

    private final HostStore store = new HostStore();
    private final RecordingListener events = new RecordingListener();
    private HostTracker tracker;

    private static SwitchPort port(long dpid, int port) {
        return SwitchPort.of(DatapathId.of(dpid), OFPort.of(port));
    }

    private static HostKey host(long mac) {
        return new HostKey(MacAddress.of(mac), VlanVid.ZERO);
    }

    private static HostKey flooder(int i) {
        return host(0x0600_0000_0000L | i);
    }

    private HostTracker tracker(int maxHosts, int maxHostsPerPort) {
        tracker = new HostTracker(new TrackerSettings(600_000, 1_000, 2, 2, maxHosts, maxHostsPerPort, IDLE_MS,
                65_536), store, events);
        return tracker;
    }

    private void see(HostKey host, SwitchPort port, long ms, AddressClaim... claims) {
        tracker.observe(new Sighting(host, port, List.of(claims), T0.plusMillis(ms)));
    }

    private List<SwitchPort> ports(HostKey host) {
        return store.get(host).attachmentPoints().stream().map(AttachmentPoint::port).toList();
    }

    @Test
    void aFloodOnOnePortFillsOnlyThatPortsShareAndNeverPushesOutHostsElsewhere() {
        tracker(1_000, 256);
        see(A, port(2, 1), 0);
        for (int i = 1; i <= 100_000; i++) {
            see(flooder(i), FLOODED, i / 100); // 100,000 source MACs in one second
            if (i % 10_000 == 0) {
                see(host(0x0200_0000_1000L | i), port(3, i / 10_000), i / 100); // hosts keep arriving elsewhere
            }
        }
        assertEquals(256, store.getHostsAt(FLOODED).size());
        assertEquals(1 + 256 + 10, store.size());
        assertNotNull(store.get(A));
        HostTracker.Counts counts = tracker.counts();
        assertEquals(100_000 - 256, counts.refusedAtPorts());
        assertEquals(0, counts.evictedAtPorts(), "every flooded host was seen within the idle time");
        assertEquals(0, counts.refusedHosts());
        assertEquals(256, store.fullestPort());
    }

    @Test
    void atTheBoundActiveHostsStayIdleOnesGiveWayAndTheRestIsRefused() {
        tracker(100, 100);
        List<HostKey> active = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            active.add(host(0x0200_0000_0000L | i));
            see(active.get(i - 1), port(i, 1), 0);
        }
        int n = 0;
        for (long ms = 0; ms <= 5 * IDLE_MS; ms += 10) { // a flood over many ports, for five idle times
            n++;
            see(flooder(n), port(100 + n % 50, 1), ms);
            if (ms % 10_000 == 0) {
                for (HostKey host : active) {
                    see(host, ports(host).get(0), ms); // each real host talks every 10 s
                }
            }
        }
        for (HostKey host : active) {
            assertNotNull(store.get(host), "active host " + host + " stays known");
        }
        assertEquals(100, store.size());
        HostTracker.Counts counts = tracker.counts();
        assertTrue(counts.evictedHosts() > 0, "idle flooded hosts gave way to newer ones");
        assertTrue(counts.refusedHosts() > counts.evictedHosts(), counts.toString());
        assertEquals(n, 80 + counts.refusedHosts() + counts.evictedHosts(), "each flooded host was either taken "
                + "(80 first, then one per eviction) or refused");
        assertTrue(events.events.stream().anyMatch(e -> e.type().equals("removed")), "evictions are announced");
    }

    @Test
    void theLeastRecentlySeenHostGivesWayFirst() {
        tracker(3, 3);
        see(A, port(1, 1), 0);
        see(B, port(2, 1), 1_000);
        HostKey c = host(0x0200_0000_000cL);
        see(c, port(3, 1), 2_000);
        see(A, port(1, 1), 3_000); // A talks again: B is now the least recently seen

        HostKey d = host(0x0200_0000_000dL);
        see(d, port(4, 1), 1_000 + IDLE_MS - 1);
        assertNull(store.get(d), "B was seen within the idle time: the newcomer is refused");
        assertEquals(1, tracker.counts().refusedHosts());

        see(d, port(4, 1), 1_000 + IDLE_MS + 1);
        assertNotNull(store.get(d));
        assertNull(store.get(B), "the least recently seen, idle, gave way");
        assertNotNull(store.get(A));
        assertNotNull(store.get(c));
        assertEquals(1, tracker.counts().evictedHosts());
    }

    @Test
    void atAFullPortAnIdleHostsPointGivesWayAndAMultiHomedHostKeepsItsOtherPoint() {
        tracker(1_000, 2);
        see(A, FLOODED, 0);
        see(A, port(2, 1), 1); // multi-homed
        see(B, FLOODED, 0);
        see(B, FLOODED, 20_000); // B talks; A is idle at the flooded port from here on

        see(flooder(1), FLOODED, IDLE_MS + 1);

        assertNotNull(store.get(flooder(1)));
        assertEquals(List.of(port(2, 1)), ports(A), "A's idle point went; A stays, at its other port");
        assertEquals(List.of(FLOODED), ports(B));
        assertEquals(1, tracker.counts().evictedAtPorts());

        see(flooder(2), FLOODED, IDLE_MS + 2);
        assertNull(store.get(flooder(2)), "B and flooder 1 are active: refused");
        assertEquals(1, tracker.counts().refusedAtPorts());
    }

    @Test
    void aKnownHostSeenAtAFullPortIsNotPlacedThereAndKeepsItsPoint() {
        tracker(1_000, 2);
        see(flooder(1), FLOODED, 0);
        see(flooder(2), FLOODED, 0);
        see(A, port(2, 1), 0);

        see(A, FLOODED, 10);

        assertEquals(List.of(port(2, 1)), ports(A));
        assertEquals(2, store.getHostsAt(FLOODED).size());
        assertEquals(1, tracker.counts().refusedAtPorts());
    }

    @Test
    void addressesAndAttachmentPointsBeyondAHostsBoundsAreCountedAsTheyGo() {
        tracker(1_000, 1_000);
        see(A, port(1, 1), 0, AddressClaim.observed(IPv4Address.of("10.0.0.1")));
        see(A, port(1, 1), 1, AddressClaim.observed(IPv4Address.of("10.0.0.2")));
        see(A, port(1, 1), 2, AddressClaim.observed(IPv4Address.of("10.0.0.3")));
        assertEquals(2, store.get(A).ipv4Addresses().size());
        assertEquals(1, tracker.counts().evictedAddresses());

        see(A, port(2, 1), 3);
        see(A, port(3, 1), 4); // a third point within the multi-home window: beyond maxAttachmentPoints (2)
        assertEquals(2, store.get(A).attachmentPoints().size());
        assertEquals(1, tracker.counts().evictedPoints());
        assertEquals(2, store.mostAddresses());
        assertEquals(2, store.mostAttachmentPoints());
    }

    @Test
    void settingsNameABadBoundAndAPerPortBoundAboveTheTotalIsTheTotal() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new TrackerSettings(60_000, 0, 8, 16, 100, 10, 10, 65_536));
        assertEquals("hostIdleMs must be within 1000..604800000, was 10", e.getMessage());
        assertEquals(100, new TrackerSettings(60_000, 0, 8, 16, 100, 1_024, 120_000, 65_536).maxHostsPerPort(),
                "a small maxHosts alone is not refused for the per-port default");
    }
}
