package io.heliograph.devices.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;

import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.SwitchPort;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.EntrySharing;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.Host;

/**
 * The hosts of the whole cluster. Those this instance tracks (it masters their edge switches, so it
 * gets their packet-ins) are kept in the shared store under {@value #PREFIX}{@code /<instance>/<mac>}
 * ({@code <mac>@<vlan>} on a VLAN), as {@link HostJson}; those the other live instances track are
 * handed to {@link Remote}. When an instance leaves, its hosts stay in the others' views for
 * {@code retainMs} while the new masters of its switches learn them again from their next packets,
 * so traffic to them is not flooded meanwhile.
 *
 * <p>What is written: a host when it appears, moves, gains or loses an attachment point or an
 * address, and when it goes. A packet that only says a host is still where it was changes its
 * last-seen times, which are written at most once per {@code refreshWriteMs}: the others need them
 * only roughly (the owner expires its hosts itself), and a busy host would otherwise cost a store
 * write per second. The attachment points' first-seen times are exact: another instance's tracker
 * compares them with its own points to tell a move.
 */
final class SharedHosts extends EntrySharing {

    private static final Logger LOG = LoggerFactory.getLogger(SharedHosts.class);

    static final String PREFIX = "devices/hosts";

    /** Hears the other instances' hosts; called on the store's or the cluster's thread, must not block. */
    interface Remote {
        void remoteHostChanged(String owner, Host host);

        void remoteHostRemoved(String owner, HostKey key);
    }

    private final Remote remote;
    private final LongSupplier refreshWriteMs;
    /** What was last given to the store for each of this instance's hosts; the tracker's thread only. */
    private final Map<HostKey, Host> written = new HashMap<>();

    /**
     * @param storeThread    writes this instance's hosts (coalesced) and sweeps the others'
     * @param refreshWriteMs the most a written last-seen time may lag behind the tracker's
     * @param retainMs       how long the hosts of an instance that left stay in view
     */
    SharedHosts(SharedStore store, ClusterService cluster, Remote remote, ScheduledExecutorService storeThread,
            long flushDelayMs, LongSupplier refreshWriteMs, long retainMs) {
        super(store, cluster, PREFIX, storeThread, flushDelayMs, retainMs);
        this.remote = Objects.requireNonNull(remote, "remote");
        this.refreshWriteMs = refreshWriteMs;
    }

    /** One of this instance's hosts changed ({@code after} null: it is gone); on the tracker's thread. */
    void published(Host before, Host after) {
        if (after == null) {
            if (before != null) {
                HostKey key = HostStore.keyOf(before);
                written.remove(key);
                entries.remove(id(key));
            }
            return;
        }
        HostKey key = HostStore.keyOf(after);
        Host last = written.get(key);
        if (last != null && sameButTimes(last, after)
                && Duration.between(last.lastSeen(), after.lastSeen()).toMillis() < refreshWriteMs.getAsLong()) {
            return;
        }
        written.put(key, after);
        entries.put(id(key), HostJson.write(after));
    }

    /** Equal but for last-seen times (and the order they put the attachment points in). */
    private static boolean sameButTimes(Host a, Host b) {
        return a.ipv4Addresses().equals(b.ipv4Addresses()) && a.ipv6Addresses().equals(b.ipv6Addresses())
                && a.firstSeen().equals(b.firstSeen()) && points(a).equals(points(b));
    }

    private static Map<SwitchPort, java.time.Instant> points(Host host) {
        Map<SwitchPort, java.time.Instant> firstSeen = new HashMap<>();
        for (AttachmentPoint point : host.attachmentPoints()) {
            firstSeen.put(point.port(), point.firstSeen());
        }
        return firstSeen;
    }

    /** The store id of a host: its MAC, and {@code @vlan} when tagged. */
    static String id(HostKey key) {
        return key.toString();
    }

    // The others' hosts, from the store

    @Override
    public void changed(String owner, String id, byte[] value) {
        Host host;
        try {
            host = HostJson.read(value);
        } catch (IllegalArgumentException e) {
            LOG.warn("{}/{}/{} is not a host: {}; ignored", PREFIX, owner, id, e.getMessage());
            return;
        }
        remote.remoteHostChanged(owner, host);
    }

    @Override
    public void removed(String owner, String id) {
        HostKey key = parseId(id);
        if (key != null) {
            remote.remoteHostRemoved(owner, key);
        }
    }

    /** The host a store id names, or null when it names none. */
    static HostKey parseId(String id) {
        try {
            int at = id.indexOf('@');
            MacAddress mac = MacAddress.of(at < 0 ? id : id.substring(0, at));
            VlanVid vlan = at < 0 ? VlanVid.ZERO : VlanVid.ofVlan(Integer.parseInt(id.substring(at + 1)));
            return new HostKey(mac, vlan);
        } catch (IllegalArgumentException e) {
            LOG.warn("{}: '{}' is not a host id (<mac> or <mac>@<vlan>); ignored", PREFIX, id);
            return null;
        }
    }
}
