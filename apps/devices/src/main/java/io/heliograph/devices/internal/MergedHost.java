package io.heliograph.devices.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;

import io.heliograph.core.SwitchPort;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.Host;

/**
 * One host as several instances of a cluster see it, made one: the addresses of all, their
 * attachment points (one per port, first seen at the earliest and last seen at the latest any
 * instance says, the most recently seen first), first seen at the earliest and last seen at the
 * latest. And what a change of such a host is, told from the hosts before and after.
 */
final class MergedHost {

    /** What a change of a merged host is; NONE when only times changed. */
    enum Change { ADDED, UPDATED, MOVED, REMOVED, NONE }

    private static final Comparator<AttachmentPoint> MOST_RECENT_FIRST = Comparator
            .comparing(AttachmentPoint::lastSeen).reversed();

    private MergedHost() {
    }

    /** The two views of one host made one; either may be null. */
    static Host of(Host a, Host b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        Set<IPv4Address> ipv4 = new LinkedHashSet<>(a.ipv4Addresses());
        ipv4.addAll(b.ipv4Addresses());
        Set<IPv6Address> ipv6 = new LinkedHashSet<>(a.ipv6Addresses());
        ipv6.addAll(b.ipv6Addresses());
        Map<SwitchPort, AttachmentPoint> points = new LinkedHashMap<>();
        for (AttachmentPoint point : a.attachmentPoints()) {
            points.put(point.port(), point);
        }
        for (AttachmentPoint point : b.attachmentPoints()) {
            points.merge(point.port(), point, (x, y) -> new AttachmentPoint(x.port(),
                    earliest(x.firstSeen(), y.firstSeen()), latest(x.lastSeen(), y.lastSeen())));
        }
        List<AttachmentPoint> sorted = new ArrayList<>(points.values());
        sorted.sort(MOST_RECENT_FIRST);
        return new Host(a.mac(), a.vlan(), ipv4, ipv6, sorted, earliest(a.firstSeen(), b.firstSeen()),
                latest(a.lastSeen(), b.lastSeen()));
    }

    /**
     * A host appearing or going is ADDED or REMOVED; one that lost an attachment point and gained
     * another MOVED; one whose points or addresses otherwise changed UPDATED; else NONE.
     */
    static Change classify(Host before, Host after) {
        if (before == null) {
            return after == null ? Change.NONE : Change.ADDED;
        }
        if (after == null) {
            return Change.REMOVED;
        }
        Set<SwitchPort> was = HostStore.ports(before);
        Set<SwitchPort> is = HostStore.ports(after);
        if (!was.equals(is)) {
            boolean lost = !is.containsAll(was);
            boolean gained = !was.containsAll(is);
            return lost && gained ? Change.MOVED : Change.UPDATED;
        }
        if (!before.ipv4Addresses().equals(after.ipv4Addresses())
                || !before.ipv6Addresses().equals(after.ipv6Addresses())) {
            return Change.UPDATED;
        }
        return Change.NONE;
    }

    private static Instant earliest(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
