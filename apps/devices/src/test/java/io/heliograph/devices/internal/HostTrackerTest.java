package io.heliograph.devices.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPAddress;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.Host;

class HostTrackerTest {

    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00Z");
    private static final HostKey A = new HostKey(MacAddress.of("02:00:00:00:00:0a"), VlanVid.ZERO);
    private static final HostKey B = new HostKey(MacAddress.of("02:00:00:00:00:0b"), VlanVid.ZERO);
    private static final HostKey A_ON_VLAN_5 = new HostKey(A.mac(), VlanVid.ofVlan(5));
    private static final SwitchPort S1P1 = port(1, 1);
    private static final SwitchPort S1P2 = port(1, 2);
    private static final SwitchPort S2P1 = port(2, 1);
    private static final SwitchPort S3P1 = port(3, 1);
    private static final IPv4Address IP1 = IPv4Address.of("10.0.0.1");
    private static final IPv4Address IP2 = IPv4Address.of("10.0.0.2");
    private static final IPv6Address IP6 = IPv6Address.of("2001:db8::1");

    private final HostStore store = new HostStore();
    private final RecordingListener events = new RecordingListener();
    private HostTracker tracker = new HostTracker(settings(1_000), store, events);

    private static SwitchPort port(long dpid, int port) {
        return SwitchPort.of(DatapathId.of(dpid), OFPort.of(port));
    }

    /** Settings with these bounds; the per-port bound is maxHosts, the rest the defaults. */
    private static TrackerSettings limits(long timeoutMs, long windowMs, int maxPoints, int maxAddresses, int maxHosts) {
        return new TrackerSettings(timeoutMs, windowMs, maxPoints, maxAddresses, maxHosts, maxHosts, 120_000, 65_536);
    }

    private static TrackerSettings settings(long windowMs) {
        return limits(60_000, windowMs, 8, 16, 65_536);
    }

    private static Instant at(long ms) {
        return T0.plusMillis(ms);
    }

    private static Sighting seen(HostKey host, SwitchPort port, long ms, AddressClaim... claims) {
        return new Sighting(host, port, List.of(claims), at(ms));
    }

    private void see(HostKey host, SwitchPort port, long ms, AddressClaim... claims) {
        tracker.observe(seen(host, port, ms, claims));
    }

    private Host host(HostKey key) {
        return store.get(key);
    }

    private static List<SwitchPort> ports(Host host) {
        return host.attachmentPoints().stream().map(AttachmentPoint::port).toList();
    }

    private static AddressClaim arp(IPAddress<?> address) {
        return AddressClaim.authoritative(address);
    }

    private static AddressClaim source(IPAddress<?> address) {
        return AddressClaim.observed(address);
    }

    @Test
    void aFirstSightingAddsTheHostWithItsAddressAndAttachmentPoint() {
        see(A, S1P1, 0, arp(IP1), arp(IP6));

        Host host = host(A);
        assertEquals(A.mac(), host.mac());
        assertEquals(VlanVid.ZERO, host.vlan());
        assertEquals(Set.of(IP1), host.ipv4Addresses());
        assertEquals(Set.of(IP6), host.ipv6Addresses());
        assertEquals(List.of(new AttachmentPoint(S1P1, T0, T0)), host.attachmentPoints());
        assertEquals(T0, host.firstSeen());
        assertEquals(T0, host.lastSeen());
        assertEquals(List.of("added"), events.take());
    }

    @Test
    void seeingTheHostAgainRefreshesLastSeenWithoutAnEvent() {
        see(A, S1P1, 0, arp(IP1));
        events.take();
        see(A, S1P1, 500, arp(IP1));

        Host host = host(A);
        assertEquals(T0, host.firstSeen());
        assertEquals(at(500), host.lastSeen());
        assertEquals(List.of(new AttachmentPoint(S1P1, T0, at(500))), host.attachmentPoints());
        assertEquals(List.of(), events.take());
    }

    @Test
    void aNewAddressIsAnUpdate() {
        see(A, S1P1, 0, arp(IP1));
        events.take();
        see(A, S1P1, 100, source(IP6));

        assertEquals(List.of("updated"), events.take());
        assertEquals(Set.of(IP6), host(A).ipv6Addresses());
    }

    @Test
    void theSameMacOnAnotherVlanIsAnotherHost() {
        see(A, S1P1, 0, arp(IP1));
        see(A_ON_VLAN_5, S1P1, 0, arp(IP1));

        assertEquals(2, store.getHostsByMac(A.mac()).size());
        assertEquals(2, store.getHostsByIpv4(IP1).size(), "an address is per VLAN");
        assertEquals(VlanVid.ofVlan(5), store.getHost(A.mac(), VlanVid.ofVlan(5)).vlan());
    }

    @Test
    void packetsOnAnInterSwitchPortCreateNoHostAndNoAttachmentPoint() {
        tracker.setInterSwitchPorts(S2P1::equals);
        see(A, S2P1, 0, arp(IP1));
        assertNull(host(A));

        see(A, S1P1, 10);
        see(A, S2P1, 20, arp(IP1));
        assertEquals(List.of(S1P1), ports(host(A)));
        assertEquals(List.of(), store.getHostsAt(S2P1));
        assertEquals(List.of("added"), events.take());
    }

    @Test
    void attachmentPointsAtANewLinksPortsAreDroppedAndAHostLeftWithoutAnyIsRemoved() {
        see(A, S1P1, 0);
        see(B, S2P1, 0);
        see(B, S3P1, 10); // within the window: B is at both
        events.take();

        tracker.interSwitchPortsFound(List.of(S1P1, S2P1));

        assertNull(host(A));
        assertEquals(List.of(S3P1), ports(host(B)));
        assertEquals(List.of("removed", "updated"), events.take());
        assertEquals(List.of(), store.getHostsAt(S2P1));
    }

    @Test
    void aMoveToAPortThatTurnsOutToFaceASwitchIsUndone() {
        // Before the topology knows a link, the host's broadcast comes back in at the far end.
        tracker = new HostTracker(settings(0), store, events);
        see(A, S1P1, 0, arp(IP1));
        see(A, S2P1, 5);
        see(A, S3P1, 6);
        events.take();

        tracker.interSwitchPortsFound(List.of(S3P1));

        RecordingListener.Event back = events.last();
        assertEquals(List.of("moved"), events.take());
        assertEquals(List.of(S3P1), ports(back.before()));
        assertEquals(List.of(S2P1), ports(back.after()), "the most recent point it was taken from");
        tracker.interSwitchPortsFound(List.of(S2P1));
        assertEquals(List.of(S1P1), ports(host(A)), "every wrong turn undone, it is where it really is");
        assertEquals(List.of(host(A)), List.copyOf(store.getHostsAt(S1P1)));
        assertEquals(Set.of(IP1), host(A).ipv4Addresses());
        assertEquals(List.of("moved"), events.take());

        tracker.portDown(S1P1);
        assertNull(host(A), "a port going down is no wrong turn: nothing to go back to");
    }

    @Test
    void aHostWhoseFloodEchoedAtManyPortsEndsWhereItIsOnceTheLinksAreKnown() {
        tracker = new HostTracker(settings(1_000), store, events);
        see(A, S1P1, 0, arp(IP1));
        List<SwitchPort> echoes = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            SwitchPort echo = port(10 + i % 20, 1 + i / 20);
            echoes.add(echo);
            see(A, echo, 1 + i);
        }
        tracker.sweep(at(5_000)); // every point but the last echo is superseded
        assertEquals(List.of(echoes.get(39)), ports(host(A)));

        java.util.Collections.shuffle(echoes, new java.util.Random(7));
        Set<SwitchPort> links = new java.util.HashSet<>();
        tracker.setInterSwitchPorts(links::contains);
        for (SwitchPort echo : echoes) {
            links.add(echo); // the topology finds the links one by one
            tracker.interSwitchPortsFound(List.of(echo));
            assertNotNull(host(A), "never lost on the way");
        }
        assertEquals(List.of(S1P1), ports(host(A)));
        assertEquals(Set.of(IP1), host(A).ipv4Addresses());
    }

    @Test
    void withoutAMultiHomeWindowANewPortIsAMoveAtOnce() {
        tracker = new HostTracker(settings(0), store, events);
        see(A, S1P1, 0, arp(IP1));
        events.take();

        see(A, S2P1, 5);

        RecordingListener.Event move = events.last();
        assertEquals(List.of("moved"), events.take());
        assertEquals(List.of(S1P1), ports(move.before()));
        assertEquals(List.of(S2P1), ports(move.after()));
        assertEquals(Set.of(IP1), move.after().ipv4Addresses(), "addresses move with the host");
        assertEquals(List.of(), store.getHostsAt(S1P1));
        assertEquals(List.of(move.after()), List.copyOf(store.getHostsAt(S2P1)));
    }

    @Test
    void aNewPortLongAfterTheOldOneWasLastSeenIsAMove() {
        see(A, S1P1, 0);
        events.take();

        see(A, S2P1, 5_000);

        assertEquals(List.of("moved"), events.take());
        assertEquals(List.of(S2P1), ports(host(A)));
    }

    @Test
    void aNewPortWithinTheWindowKeepsBothUntilTheOldOneIsNotRefreshed() {
        see(A, S1P1, 0);
        events.take();

        see(A, S2P1, 300);
        assertEquals(List.of("updated"), events.take(), "the host may be at both");
        assertEquals(List.of(S2P1, S1P1), ports(host(A)), "most recent first");

        see(A, S2P1, 900);
        assertEquals(List.of(), events.take(), "the old point is still inside the window");

        see(A, S2P1, 1_200);
        RecordingListener.Event move = events.last();
        assertEquals(List.of("moved"), events.take());
        assertEquals(List.of(S2P1, S1P1), ports(move.before()));
        assertEquals(List.of(S2P1), ports(move.after()));
    }

    @Test
    void theSweepConfirmsAMoveWhenNoMorePacketsCome() {
        see(A, S1P1, 0);
        see(A, S2P1, 300);
        events.take();

        tracker.sweep(at(1_000));
        assertEquals(List.of(), events.take());
        tracker.sweep(at(1_001));
        assertEquals(List.of("moved"), events.take());
        assertEquals(List.of(S2P1), ports(host(A)));
    }

    @Test
    void interleavedSightingsKeepAMultiHomedHostAtEveryPort() {
        see(A, S1P1, 0);
        see(A, S2P1, 300);
        see(A, S1P1, 600);
        see(A, S2P1, 900);
        events.take();

        see(A, S1P1, 50_000);
        tracker.sweep(at(55_000));

        assertEquals(List.of(), events.take(), "no move: the host is at both");
        assertEquals(List.of(S1P1, S2P1), ports(host(A)), "most recent first");
        assertEquals(2, store.getHostsAt(S1P1).size() + store.getHostsAt(S2P1).size());
    }

    @Test
    void theMostRecentAttachmentPointComesFirst() {
        tracker = new HostTracker(limits(60_000, 60_000, 8, 16, 65_536), store, events);
        see(A, S1P1, 0);
        see(A, S2P1, 10);
        see(A, S3P1, 20);
        see(A, S1P1, 30);

        assertEquals(List.of(S1P1, S3P1, S2P1), ports(host(A)));
        assertEquals(at(30), host(A).attachmentPoints().get(0).lastSeen());
        assertEquals(T0, host(A).attachmentPoints().get(0).firstSeen());
    }

    @Test
    void beyondTheMostAttachmentPointsTheLeastRecentGoes() {
        tracker = new HostTracker(limits(60_000, 60_000, 2, 16, 65_536), store, events);
        see(A, S1P1, 0);
        see(A, S2P1, 10);
        events.take();
        see(A, S3P1, 20);

        assertEquals(List.of(S3P1, S2P1), ports(host(A)));
        assertEquals(List.of("moved"), events.take(), "it left S1P1 for S3P1");
    }

    @Test
    void aHostExpiresWhenItsAttachmentPointsTimeOut() {
        see(A, S1P1, 0, arp(IP1));
        see(B, S2P1, 30_000, arp(IP2));
        events.take();

        tracker.sweep(at(60_000));
        assertEquals(List.of(), events.take(), "exactly the timeout is not beyond it");

        tracker.sweep(at(60_001));
        assertEquals(List.of("removed"), events.take());
        assertNull(host(A));
        assertEquals(List.of(), store.getHostsByIpv4(IP1));
        assertEquals(List.of(), store.getHostsAt(S1P1));
        assertEquals(List.of(B.mac()), store.getHosts().stream().map(Host::mac).toList());
    }

    @Test
    void aTimedOutPointOfAMultiHomedHostGoesAndTheHostStays() {
        tracker = new HostTracker(limits(60_000, 60_000, 8, 16, 65_536), store, events);
        see(A, S1P1, 0);
        see(A, S2P1, 10);
        see(A, S1P1, 20);
        see(A, S2P1, 40_000);
        events.take();

        tracker.sweep(at(60_025));

        assertEquals(List.of("updated"), events.take());
        assertEquals(List.of(S2P1), ports(host(A)));
    }

    @Test
    void aRemovedSwitchTakesItsAttachmentPointsAndHostsLeftWithNone() {
        see(A, S1P1, 0);
        see(B, S1P2, 0);
        see(B, S2P1, 10);
        events.take();

        tracker.switchRemoved(DatapathId.of(1));

        assertNull(host(A));
        assertEquals(List.of(S2P1), ports(host(B)));
        assertEquals(List.of("removed", "updated"), events.take().stream().sorted().toList());
    }

    @Test
    void aPortGoingDownTakesItsAttachmentPoints() {
        see(A, S1P1, 0);
        see(B, S1P2, 0);
        events.take();

        tracker.portDown(S1P1);

        assertNull(host(A));
        assertEquals(List.of(S1P2), ports(host(B)));
        assertEquals(List.of("removed"), events.take());
    }

    @Test
    void revalidatingDropsPointsAtPortsTheTopologyNowKnowsAsInterSwitch() {
        see(A, S1P1, 0);
        see(B, S2P1, 0);
        tracker.setInterSwitchPorts(S1P1::equals);
        events.take();

        tracker.revalidate();

        assertNull(host(A));
        assertEquals(List.of(S2P1), ports(host(B)));
    }

    @Test
    void anAuthoritativeClaimTakesTheAddressFromItsFormerOwner() {
        see(A, S1P1, 0, arp(IP1));
        events.take();

        see(B, S2P1, 100, arp(IP1));

        assertEquals(Set.of(), host(A).ipv4Addresses());
        assertEquals(Set.of(IP1), host(B).ipv4Addresses());
        assertEquals(List.of(B.mac()), store.getHostsByIpv4(IP1).stream().map(Host::mac).toList());
        assertEquals(List.of("updated", "added"), events.take());
    }

    @Test
    void aPlainSourceAddressDoesNotTakeAnAddressFromAnotherHost() {
        see(A, S1P1, 0, arp(IP1));
        see(B, S2P1, 100, source(IP1)); // e.g. a router forwarding A's packets back in

        assertEquals(Set.of(IP1), host(A).ipv4Addresses());
        assertEquals(Set.of(), host(B).ipv4Addresses());
    }

    @Test
    void theLeastRecentlyClaimedAddressGoesBeyondTheLimit() {
        tracker = new HostTracker(limits(60_000, 1_000, 8, 2, 65_536), store, events);
        IPv4Address ip3 = IPv4Address.of("10.0.0.3");
        see(A, S1P1, 0, source(IP1));
        see(A, S1P1, 1, source(IP2));
        see(A, S1P1, 2, source(IP1)); // IP1 is now the more recent
        see(A, S1P1, 3, source(ip3));

        assertEquals(Set.of(IP1, ip3), host(A).ipv4Addresses());
        assertEquals(List.of(), store.getHostsByIpv4(IP2));
    }

    @Test
    void anAddressOnlySightingTeachesAKnownHostAndIgnoresAnUnknownOne() {
        tracker.observe(new Sighting(A, null, List.of(arp(IP1)), at(0)));
        assertNull(host(A), "a DHCP ACK alone does not say where its client is");

        see(A, S1P1, 10);
        tracker.observe(new Sighting(A, null, List.of(arp(IP1)), at(20)));

        assertEquals(Set.of(IP1), host(A).ipv4Addresses());
        assertEquals(at(10), host(A).lastSeen(), "the host itself was not seen");
        assertEquals(List.of(S1P1), ports(host(A)));
    }

    @Test
    void beyondTheMostHostsNewOnesAreRefusedAndKnownOnesStay() {
        tracker = new HostTracker(limits(60_000, 1_000, 8, 16, 1), store, events);
        see(A, S1P1, 0);
        see(B, S2P1, 0);
        see(A, S1P1, 5);

        assertEquals(1, store.size());
        assertEquals(at(5), host(A).lastSeen());
        assertEquals(1, tracker.counts().refusedHosts());
    }

    @Test
    void lateSightingsNeverMoveLastSeenBackwards() {
        see(A, S1P1, 100);
        see(A, S1P1, 50);

        assertEquals(at(100), host(A).lastSeen());
        assertEquals(at(100), host(A).attachmentPoints().get(0).lastSeen());
    }

    @Test
    void lookupsUseTheIndexesAndFollowChanges() {
        tracker = new HostTracker(settings(0), store, events);
        see(A, S1P1, 0, arp(IP1), arp(IP6));
        see(B, S1P2, 0, arp(IP2));

        assertEquals(A.mac(), store.getHost(A.mac(), VlanVid.ZERO).mac());
        assertNull(store.getHost(A.mac(), VlanVid.ofVlan(9)));
        assertEquals(1, store.getHostsByMac(A.mac()).size());
        assertEquals(A.mac(), store.getHostsByIpv4(IP1).iterator().next().mac());
        assertEquals(A.mac(), store.getHostsByIpv6(IP6).iterator().next().mac());
        assertEquals(B.mac(), store.getHostsAt(S1P2).iterator().next().mac());
        assertEquals(2, store.getHosts().size());

        see(A, S3P1, 10);
        assertEquals(List.of(), store.getHostsAt(S1P1));
        assertEquals(A.mac(), store.getHostsAt(S3P1).iterator().next().mac());
        assertEquals(List.of(), store.getHostsByIpv4(IPv4Address.of("10.9.9.9")));
        assertEquals(List.of(), store.getHostsByMac(MacAddress.of("02:00:00:00:00:99")));
    }

    @Test
    void isNewsOnlyForWhatWouldChangeThePublishedHost() {
        see(A, S1P1, 0, arp(IP1));
        Host published = host(A);

        assertFalse(HostTracker.isNews(published, seen(A, S1P1, 999, arp(IP1)), 1_000, store::heldByAnother));
        assertTrue(HostTracker.isNews(published, seen(A, S1P1, 1_000, arp(IP1)), 1_000, store::heldByAnother), "time to refresh");
        assertTrue(HostTracker.isNews(published, seen(A, S1P2, 1, arp(IP1)), 1_000, store::heldByAnother), "another port");
        assertTrue(HostTracker.isNews(published, seen(A, S1P1, 1, arp(IP2)), 1_000, store::heldByAnother), "another address");
        assertTrue(HostTracker.isNews(null, seen(A, S1P1, 1), 1_000, store::heldByAnother), "an unknown host");
        assertFalse(HostTracker.isNews(null, new Sighting(A, null, List.of(arp(IP1)), at(1)), 1_000, store::heldByAnother));
    }

    @Test
    void anAddressAnotherHostHoldsIsNewsOnlyWhenClaimedWithAuthority() {
        see(A, S1P1, 0, arp(IP1));
        see(B, S1P2, 0);
        Host b = host(B);
        assertFalse(HostTracker.isNews(b, seen(B, S1P2, 1, source(IP1)), 1_000, store::heldByAnother),
                "B sends with A's address as its source: the tracker would not give it to B");
        see(B, S1P2, 1, source(IP1));
        assertEquals(Set.of(), host(B).ipv4Addresses(), "and indeed does not");
        assertEquals(Set.of(IP1), host(A).ipv4Addresses());
        assertTrue(HostTracker.isNews(b, seen(B, S1P2, 1, arp(IP1)), 1_000, store::heldByAnother),
                "B speaking for the address takes it");
        assertTrue(HostTracker.isNews(b, seen(B, S1P2, 1, source(IP2)), 1_000, store::heldByAnother),
                "an address nobody holds");
        assertTrue(HostTracker.isNews(host(A), seen(A, S1P1, 1, source(IP2)), 1_000, store::heldByAnother),
                "nor does it for the holder's own other addresses");
    }

    @Test
    void settingsRefuseNonsenseByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> limits(60_000, 120_000, 8, 16, 65_536));
        assertEquals("multiHomeWindowMs must be within 0..60000, was 120000", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> limits(10, 0, 8, 16, 65_536));
        assertThrows(IllegalArgumentException.class, () -> limits(60_000, 0, 0, 16, 65_536));
        assertEquals(1_000, limits(60_000, 0, 8, 16, 1).refreshMs());
        assertEquals(250, TrackerSettings.DEFAULTS.refreshMs(), "well inside the window");
        assertEquals(100, limits(1_000, 0, 8, 16, 1).refreshMs(), "well inside the timeout");
    }
}
