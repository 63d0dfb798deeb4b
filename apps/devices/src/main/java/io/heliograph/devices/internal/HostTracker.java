package io.heliograph.devices.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPAddress;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;

import io.heliograph.core.SwitchPort;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.Host;
import io.heliograph.devices.HostListener;

/**
 * The host tracking rules, applied on one thread (not thread-safe; the caller serialises every
 * call): learning from sightings, edge ports only, moves, multi-homing, expiry, and forgetting
 * attachment points when their port turns out to face another switch or their switch goes. Every
 * change is published to the {@link HostStore} and announced to {@code events}.
 *
 * <p>Moves: an attachment point is <em>superseded</em> when the host has appeared at another port
 * since it was last seen there, and it has not been refreshed for longer than the multi-home window.
 * Dropping a superseded point is a move (seen at a new port, left the old one). Points whose
 * sightings interleave are never superseded: the host really is at both, and each point lives until
 * it times out.
 *
 * <p>A host with no attachment point left (all timed out, or on a removed switch, or at a port that
 * now has a link) is removed: a host nobody can say where it is would only mislead forwarding, and
 * its next packet brings it back at its true place. One exception: before the topology has found
 * every link, a host's broadcasts come back in at other switches' inter-switch ports and look like a
 * move. When the links are found and those points go, the host returns to the most recent point a
 * move took it from that still looks like an edge, instead of vanishing (a fat tree converging would
 * otherwise lose hosts that have nothing more to say, or leave them at a wrong switch).
 *
 * <p>Bounds, against a MAC flood (the CAM-table overflow attack): at most {@code maxHosts} hosts, and
 * at most {@code maxHostsPerPort} at one port, so a flood on one port fills only that port's share.
 * At a bound a new host takes the place of the least recently seen one (at that port: the one least
 * recently seen there) only if that one is idle, not seen for {@code hostIdleMs}; otherwise the new
 * host is refused. Hosts that are known and active therefore stay known whatever the flood. A known
 * host seen at a port that is full is not placed there (its other points stand). Every eviction and
 * refusal is counted. The addresses and attachment points of one host are bounded too
 * ({@code maxAddressesPerHost}, {@code maxAttachmentPoints}: the least recent go), and counted.
 */
final class HostTracker {

    private final HostStore store;
    private final HostListener events;
    /** In the order they were last seen, least recent first: the first is the one to give way at the bound. */
    private final Map<HostKey, TrackedHost> hosts = new LinkedHashMap<>();
    /** At each port, the hosts attached there in the order they were last seen there, least recent first. */
    private final Map<SwitchPort, Set<HostKey>> atPort = new HashMap<>();
    /**
     * Until when new hosts are refused at a port that is full (its least recently seen host becomes
     * idle then), and at the total bound: a hint for the I/O threads ({@link #refusesNewHost}), which
     * then keep a flood's sightings off the tracker's queue. Dropped as soon as there is room again.
     */
    private final Map<SwitchPort, Instant> portsFullUntil = new ConcurrentHashMap<>();
    private volatile Instant hostsFullUntil = Instant.MIN;
    private TrackerSettings settings;
    private Predicate<SwitchPort> interSwitch = port -> false;
    private Function<HostKey, List<AttachmentPoint>> elsewhere = key -> List.of();
    private BiConsumer<Host, Host> published = (before, after) -> { };
    // Counted on the tracker's thread, read by any (one writer: volatile is enough).
    private volatile long evictedHosts;
    private volatile long refusedHosts;
    private volatile long evictedAtPorts;
    private volatile long refusedAtPorts;
    private volatile long evictedAddresses;
    private volatile long evictedPoints;

    HostTracker(TrackerSettings settings, HostStore store, HostListener events) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.store = Objects.requireNonNull(store, "store");
        this.events = Objects.requireNonNull(events, "events");
    }

    void configure(TrackerSettings newSettings) {
        settings = Objects.requireNonNull(newSettings, "settings");
        portsFullUntil.clear();
        hostsFullUntil = Instant.MIN;
    }

    TrackerSettings settings() {
        return settings;
    }

    /** Which ports face another switch (from the topology); none when there is no topology. */
    void setInterSwitchPorts(Predicate<SwitchPort> isInterSwitch) {
        interSwitch = Objects.requireNonNull(isInterSwitch, "isInterSwitch");
    }

    /**
     * Where other instances of the cluster see each host (none when alone): a point there first seen
     * after one of ours was last seen supersedes ours, as one of our own would. The host moved to a
     * switch another instance masters, whose packets we no longer get.
     */
    void setElsewhere(Function<HostKey, List<AttachmentPoint>> pointsElsewhere) {
        elsewhere = Objects.requireNonNull(pointsElsewhere, "pointsElsewhere");
    }

    /**
     * Told of every host published, refreshes included ({@code after} null when the host is removed),
     * after the store has it and before listeners hear of it.
     */
    void setPublished(BiConsumer<Host, Host> onPublished) {
        published = Objects.requireNonNull(onPublished, "onPublished");
    }

    /** Which bound refuses a new host for now: none, the port's or the total. */
    enum Refusal { NONE, AT_PORT, IN_ALL }

    /**
     * Whether a new host seen at {@code port} at {@code at} would be refused, as far as the tracker's
     * last refusals tell: the bound is reached and nothing there is idle before then. Any thread; the
     * I/O threads count such a sighting and drop it instead of queueing it for the tracker.
     */
    Refusal refusesNewHost(SwitchPort port, Instant at) {
        Instant portFull = portsFullUntil.get(port);
        if (portFull != null && !at.isAfter(portFull)) {
            return Refusal.AT_PORT;
        }
        return at.isAfter(hostsFullUntil) ? Refusal.NONE : Refusal.IN_ALL;
    }

    /** What the bounds evicted and refused since the tracker was made; read from any thread. */
    Counts counts() {
        return new Counts(evictedHosts, refusedHosts, evictedAtPorts, refusedAtPorts, evictedAddresses,
                evictedPoints);
    }

    /**
     * @param evictedHosts     idle hosts removed for new ones at {@code maxHosts}
     * @param refusedHosts     new hosts refused at {@code maxHosts}
     * @param evictedAtPorts   idle hosts' attachment points removed for new hosts at {@code maxHostsPerPort}
     * @param refusedAtPorts   hosts (new ones, or known ones at a new port) refused at {@code maxHostsPerPort}
     * @param evictedAddresses addresses dropped, the least recently claimed, at {@code maxAddressesPerHost}
     * @param evictedPoints    attachment points dropped, the least recent, at {@code maxAttachmentPoints}
     */
    record Counts(long evictedHosts, long refusedHosts, long evictedAtPorts, long refusedAtPorts,
            long evictedAddresses, long evictedPoints) {
    }

    /**
     * Whether a sighting could change what is published about {@code host} (the host as published
     * now, or null): false when it only says the host is still at its most recent port, with
     * addresses it already has or may not take (a plain source address that another host on the VLAN
     * holds, see {@link #claim}), within {@code refreshMs} of the last time we heard so. Pure but for
     * {@code heldByAnother}, a look at the published hosts, so the I/O threads call it to keep such
     * packet-ins off the tracker's queue: hosts that send with another's source address (every
     * load generator's switch does) would otherwise hand the tracker each of their packets.
     */
    static boolean isNews(Host host, Sighting sighting, long refreshMs,
            BiPredicate<HostKey, IPAddress<?>> heldByAnother) {
        if (host == null) {
            return sighting.locates();
        }
        if (sighting.locates()) {
            List<AttachmentPoint> points = host.attachmentPoints();
            if (points.isEmpty() || !points.get(0).port().equals(sighting.port())
                    || Duration.between(points.get(0).lastSeen(), sighting.at()).toMillis() >= refreshMs) {
                return true;
            }
        }
        for (AddressClaim claim : sighting.claims()) {
            IPAddress<?> address = claim.address();
            if (!host.ipv4Addresses().contains(address) && !host.ipv6Addresses().contains(address)
                    && (claim.authoritative() || !heldByAnother.test(sighting.host(), address))) {
                return true;
            }
        }
        return false;
    }

    void observe(Sighting sighting) {
        if (sighting.locates() && interSwitch.test(sighting.port())) {
            // A frame that crossed another switch says nothing about where its sender is; its edge
            // switch's packet-in already told us.
            return;
        }
        TrackedHost host = hosts.get(sighting.host());
        if (host == null) {
            if (sighting.locates()) {
                add(sighting);
            }
            return;
        }
        boolean newPort = false;
        int dropped = 0;
        if (sighting.locates() && (host.isAt(sighting.port()) || roomAt(sighting.port(), sighting.at(), null))) {
            newPort = host.see(sighting.port(), sighting.at());
            int superseded = host.dropSuperseded(sighting.at(), settings.multiHomeWindowMs(),
                    elsewhere.apply(host.key));
            int beyond = host.keepMostRecent(settings.maxAttachmentPoints());
            evictedPoints += beyond;
            dropped = superseded + beyond;
        }
        boolean addressesChanged = claim(host, sighting.claims());
        publish(host, dropped > 0 ? Change.MOVED : newPort || addressesChanged ? Change.UPDATED : Change.REFRESHED);
    }

    private void add(Sighting sighting) {
        if (!roomAt(sighting.port(), sighting.at(), sighting.host())) {
            return;
        }
        TrackedHost host = new TrackedHost(sighting.host(), sighting.at());
        hosts.put(sighting.host(), host);
        host.see(sighting.port(), sighting.at());
        claim(host, sighting.claims());
        publish(host, Change.ADDED);
    }

    /**
     * Whether a host may be placed at {@code port} (a new host, {@code newHost}, or a known one, null,
     * seen at a new port), making room if a bound is reached and the host to give way is idle. False,
     * counted, when it is not.
     */
    private boolean roomAt(SwitchPort port, Instant at, HostKey newHost) {
        Instant idleBefore = at.minusMillis(settings.hostIdleMs());
        Set<HostKey> there = atPort.getOrDefault(port, Set.of());
        TrackedHost givesWayThere = null;
        if (there.size() >= settings.maxHostsPerPort()) {
            givesWayThere = hosts.get(there.iterator().next());
            if (givesWayThere == null || !givesWayThere.lastSeenAt(port).isBefore(idleBefore)) {
                refusedAtPorts++;
                portsFullUntil.put(port, (givesWayThere == null ? at : givesWayThere.lastSeenAt(port))
                        .plusMillis(settings.hostIdleMs()));
                return false;
            }
        }
        TrackedHost givesWay = null;
        if (newHost != null && hosts.size() >= settings.maxHosts()
                && (givesWayThere == null || givesWayThere.points.size() > 1)) {
            givesWay = hosts.values().iterator().next();
            if (!givesWay.lastSeen.isBefore(idleBefore)) {
                refusedHosts++;
                hostsFullUntil = givesWay.lastSeen.plusMillis(settings.hostIdleMs());
                return false;
            }
        }
        if (givesWayThere != null) {
            givesWayThere.points.removeIf(point -> point.port.equals(port));
            publish(givesWayThere, givesWayThere.points.isEmpty() ? Change.REMOVED : Change.UPDATED);
            evictedAtPorts++;
        }
        if (givesWay != null && hosts.containsKey(givesWay.key)) {
            publish(givesWay, Change.REMOVED);
            evictedHosts++;
        }
        return true;
    }

    /** Applies address claims to {@code host}; true when its addresses changed. */
    private boolean claim(TrackedHost host, List<AddressClaim> claims) {
        boolean changed = false;
        for (AddressClaim claim : claims) {
            IPAddress<?> address = claim.address();
            Set<IPAddress<?>> own = host.addresses(address);
            if (own.remove(address)) {
                own.add(address); // now the most recently claimed
                continue;
            }
            List<TrackedHost> owners = ownersOnVlan(host, address);
            if (!owners.isEmpty()) {
                if (!claim.authoritative()) {
                    continue;
                }
                for (TrackedHost owner : owners) {
                    owner.addresses(address).remove(address);
                    publish(owner, Change.UPDATED);
                }
            }
            own.add(address);
            if (own.size() > settings.maxAddressesPerHost()) {
                Iterator<IPAddress<?>> oldest = own.iterator();
                oldest.next();
                oldest.remove();
                evictedAddresses++;
            }
            changed = true;
        }
        return changed;
    }

    private List<TrackedHost> ownersOnVlan(TrackedHost claimant, IPAddress<?> address) {
        List<TrackedHost> owners = new ArrayList<>(1);
        for (HostKey key : store.keysWith(address)) {
            if (!key.equals(claimant.key) && key.vlan().equals(claimant.key.vlan())) {
                TrackedHost owner = hosts.get(key);
                if (owner != null) {
                    owners.add(owner);
                }
            }
        }
        return owners;
    }

    /** Forgets the attachment points at both ends of a new link: they face a switch, not hosts. */
    void interSwitchPortsFound(Collection<SwitchPort> ports) {
        for (SwitchPort port : ports) {
            dropPoints(store.keysAt(port), port::equals, true);
        }
    }

    /** Forgets attachment points at a port that went down or was deleted. */
    void portDown(SwitchPort port) {
        dropPoints(store.keysAt(port), port::equals, false);
    }

    /**
     * Forgets every attachment point on a switch that left. A scan, not an index: switches leave
     * rarely, and the scan is over the tracker's own map.
     */
    void switchRemoved(DatapathId dpid) {
        dropPoints(List.copyOf(hosts.keySet()), port -> port.dpid().equals(dpid), false);
    }

    /** Checks every attachment point against the inter-switch ports again (a topology appeared). */
    void revalidate() {
        Predicate<SwitchPort> current = interSwitch;
        dropPoints(List.copyOf(hosts.keySet()), current, true);
    }

    /** @param facesSwitch the points go because their ports face switches (not because they went down) */
    private void dropPoints(Collection<HostKey> keys, Predicate<SwitchPort> where, boolean facesSwitch) {
        for (HostKey key : List.copyOf(keys)) {
            TrackedHost host = hosts.get(key);
            if (host == null || !host.points.removeIf(point -> where.test(point.port))) {
                continue;
            }
            if (!host.points.isEmpty()) {
                publish(host, Change.UPDATED);
            } else if (facesSwitch && host.returnFromWrongTurn(where.or(interSwitch))) {
                publish(host, Change.MOVED);
            } else {
                publish(host, Change.REMOVED);
            }
        }
    }

    /** Drops superseded (a move) and timed-out attachment points; removes hosts left with none. */
    void sweep(Instant now) {
        for (TrackedHost host : List.copyOf(hosts.values())) {
            int superseded = host.dropSuperseded(now, settings.multiHomeWindowMs(), elsewhere.apply(host.key));
            int expired = host.dropNotSeenSince(now.minusMillis(settings.hostTimeoutMs()));
            host.left.removeIf(point -> point.lastSeen.isBefore(now.minusMillis(settings.hostTimeoutMs())));
            if (host.points.isEmpty()) {
                publish(host, Change.REMOVED);
            } else if (superseded > 0) {
                publish(host, Change.MOVED);
            } else if (expired > 0) {
                publish(host, Change.UPDATED);
            }
        }
    }

    /** Forgets every host without announcing it (the service is stopping). */
    void clear() {
        hosts.clear();
        atPort.clear();
        portsFullUntil.clear();
        hostsFullUntil = Instant.MIN;
        store.clear();
    }

    private enum Change { ADDED, REFRESHED, UPDATED, MOVED, REMOVED }

    private void publish(TrackedHost host, Change change) {
        Host before = host.published;
        if (change == Change.REMOVED) {
            hosts.remove(host.key);
            hostsFullUntil = Instant.MIN;
            if (before != null) {
                keepOrder(host.key, before, null);
                store.remove(before);
                published.accept(before, null);
                events.hostRemoved(before);
            }
            return;
        }
        Host after = host.snapshot();
        host.published = after;
        keepOrder(host.key, before, after);
        store.put(before, after);
        published.accept(before, after);
        switch (change) {
            case ADDED -> events.hostAdded(after);
            case UPDATED -> events.hostUpdated(before, after);
            case MOVED -> events.hostMoved(before, after);
            default -> {
                // A refresh of last-seen times is published but not announced: it happens on every packet-in.
            }
        }
    }

    /**
     * Keeps {@link #hosts} and {@link #atPort} in the order hosts were last seen, from what was
     * published before and after a change ({@code after} null: removed).
     */
    private void keepOrder(HostKey key, Host before, Host after) {
        if (after != null && (before == null || after.lastSeen().isAfter(before.lastSeen()))) {
            TrackedHost host = hosts.remove(key);
            if (host != null) {
                hosts.put(key, host); // now the most recently seen
            }
        }
        if (after != null) {
            for (AttachmentPoint point : after.attachmentPoints()) {
                AttachmentPoint was = before == null ? null : pointAt(before, point.port());
                if (was == null || point.lastSeen().isAfter(was.lastSeen())) {
                    Set<HostKey> there = atPort.computeIfAbsent(point.port(), port -> new LinkedHashSet<>());
                    there.remove(key);
                    there.add(key);
                }
            }
        }
        if (before != null) {
            for (AttachmentPoint point : before.attachmentPoints()) {
                if (after == null || pointAt(after, point.port()) == null) {
                    Set<HostKey> there = atPort.get(point.port());
                    if (there != null && there.remove(key)) {
                        portsFullUntil.remove(point.port());
                        if (there.isEmpty()) {
                            atPort.remove(point.port());
                        }
                    }
                }
            }
        }
    }

    private static AttachmentPoint pointAt(Host host, SwitchPort port) {
        for (AttachmentPoint point : host.attachmentPoints()) {
            if (point.port().equals(port)) {
                return point;
            }
        }
        return null;
    }

    /** A host's mutable state, touched only by the tracker's thread. */
    private static final class TrackedHost {

        final HostKey key;
        final Instant firstSeen;
        Instant lastSeen;
        /** Insertion order is claim order: the first is the least recently claimed. */
        final Set<IPAddress<?>> ipv4 = new LinkedHashSet<>();
        final Set<IPAddress<?>> ipv6 = new LinkedHashSet<>();
        final List<Point> points = new ArrayList<>(2);
        /** The points moves took the host away from, most recently seen first. */
        final List<Point> left = new ArrayList<>(0);
        Host published;

        TrackedHost(HostKey key, Instant at) {
            this.key = key;
            this.firstSeen = at;
            this.lastSeen = at;
        }

        Set<IPAddress<?>> addresses(IPAddress<?> address) {
            return address instanceof IPv4Address ? ipv4 : ipv6;
        }

        boolean isAt(SwitchPort port) {
            for (Point point : points) {
                if (point.port.equals(port)) {
                    return true;
                }
            }
            return false;
        }

        /** When the host was last seen at {@code port}; the epoch if it is not there. */
        Instant lastSeenAt(SwitchPort port) {
            for (Point point : points) {
                if (point.port.equals(port)) {
                    return point.lastSeen;
                }
            }
            return Instant.EPOCH;
        }

        /** Records the host at {@code port}; true when the port is a new attachment point. */
        boolean see(SwitchPort port, Instant at) {
            lastSeen = max(lastSeen, at);
            for (Point point : points) {
                if (point.port.equals(port)) {
                    point.lastSeen = max(point.lastSeen, at);
                    return false;
                }
            }
            points.add(new Point(port, at));
            return true;
        }

        /** @param elsewhere where other instances see the host: their points supersede ours the same way */
        int dropSuperseded(Instant now, long windowMs, List<AttachmentPoint> elsewhere) {
            List<Point> superseded = new ArrayList<>(0);
            for (Point old : points) {
                if (Duration.between(old.lastSeen, now).toMillis() <= windowMs) {
                    continue;
                }
                boolean later = false;
                for (Point other : points) {
                    if (other != old && other.firstSeen.isAfter(old.lastSeen)) {
                        later = true;
                        break;
                    }
                }
                for (AttachmentPoint other : elsewhere) {
                    if (!later && !other.port().equals(old.port) && other.firstSeen().isAfter(old.lastSeen)) {
                        later = true;
                    }
                }
                if (later) {
                    superseded.add(old);
                }
            }
            points.removeAll(superseded);
            leave(superseded);
            return superseded.size();
        }

        /** Remembers points the host moved away from, in case the move turns out to be an echo. */
        private void leave(List<Point> gone) {
            for (Point old : gone) {
                left.removeIf(point -> point.port.equals(old.port));
                left.add(old);
            }
            left.sort(MOST_RECENT_FIRST);
            if (left.size() > LEFT_MEMORY) {
                // Keep the point first seen of all: where the host was before any echo of its frames.
                Point origin = Collections.min(left, Comparator.comparing((Point point) -> point.firstSeen));
                left.subList(LEFT_MEMORY, left.size()).clear();
                if (!left.contains(origin)) {
                    left.set(LEFT_MEMORY - 1, origin);
                }
            }
        }

        /**
         * Puts the host back at the most recent point it moved away from whose port is not
         * {@code facingSwitch}; false when there is none.
         */
        boolean returnFromWrongTurn(Predicate<SwitchPort> facingSwitch) {
            left.removeIf(point -> facingSwitch.test(point.port));
            if (left.isEmpty()) {
                return false;
            }
            points.add(left.remove(0));
            return true;
        }

        int keepMostRecent(int max) {
            if (points.size() <= max) {
                return 0;
            }
            points.sort(MOST_RECENT_FIRST);
            List<Point> extra = points.subList(max, points.size());
            leave(List.copyOf(extra));
            int count = extra.size();
            extra.clear();
            return count;
        }

        int dropNotSeenSince(Instant cutoff) {
            int before = points.size();
            points.removeIf(point -> point.lastSeen.isBefore(cutoff));
            return before - points.size();
        }

        Host snapshot() {
            points.sort(MOST_RECENT_FIRST);
            List<AttachmentPoint> attachments = new ArrayList<>(points.size());
            for (Point point : points) {
                attachments.add(new AttachmentPoint(point.port, point.firstSeen, point.lastSeen));
            }
            Set<IPv4Address> v4 = new LinkedHashSet<>();
            ipv4.forEach(address -> v4.add((IPv4Address) address));
            Set<IPv6Address> v6 = new LinkedHashSet<>();
            ipv6.forEach(address -> v6.add((IPv6Address) address));
            return new Host(key.mac(), key.vlan(), v4, v6, attachments, firstSeen, lastSeen);
        }

        private static Instant max(Instant a, Instant b) {
            return a.isAfter(b) ? a : b;
        }
    }

    /** How many points a host remembers leaving (the first of them always among them). */
    private static final int LEFT_MEMORY = 16;

    private static final Comparator<Point> MOST_RECENT_FIRST = Comparator.comparing((Point point) -> point.lastSeen)
            .reversed();

    private static final class Point {

        final SwitchPort port;
        final Instant firstSeen;
        Instant lastSeen;

        Point(SwitchPort port, Instant at) {
            this.port = port;
            this.firstSeen = at;
            this.lastSeen = at;
        }
    }
}
