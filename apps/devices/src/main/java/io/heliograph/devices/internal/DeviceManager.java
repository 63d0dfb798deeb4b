package io.heliograph.devices.internal;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.SwitchPort;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;
import io.heliograph.devices.HostListener;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyService;

/**
 * The device service: reads sightings from packet-ins on the I/O threads and hands them to the
 * {@link HostTracker} on the tracker's own thread; answers lookups from the {@link HostStore}.
 *
 * <p>Why one tracker thread rather than locks: a sighting touches several structures at once (the
 * host, the owners of an address it claims, four indexes) and must be announced in the order it was
 * applied. One writer thread makes each change atomic for the writer without any lock an I/O thread
 * could wait on; the I/O thread only parses the frame (no copies), checks the published host
 * (a concurrent map read) and, when the packet says something new, enqueues it. Packet-ins that
 * only repeat what is known are dropped before the queue, and so are (counted) new hosts where the
 * tracker refuses new hosts for now (a MAC flood on a port at its bound: see
 * {@link HostTracker#refusesNewHost}); the queue of sightings is bounded too (a burst beyond it is
 * counted and dropped, never waited for). Topology, switch and timer work
 * goes through the same thread unbounded (it is rare), so it is ordered with the sightings.
 * Readers use the store's concurrent maps of immutable hosts and never wait either.
 *
 * <p>In a cluster ({@link #share}) the hosts this instance tracks are shared through
 * {@link SharedHosts}, and the other instances' are kept, merged across owners, in a second store
 * ({@code others}), also written on the tracker thread. Lookups answer the union: a host known here
 * and elsewhere is merged (addresses and attachment points of both, times widest). Listeners hear of
 * changes to that union: a change to a host only this instance knows is announced as the tracker
 * says; any other is classified from the hosts before and after (a point lost and another gained is
 * a move). Alone, {@code others} stays empty and everything is as it was.
 */
final class DeviceManager implements DeviceService, SharedHosts.Remote {

    private static final Logger LOG = LoggerFactory.getLogger(DeviceManager.class);
    /** The bounds' refusals and drops are logged at most this often (a flood would otherwise log every sweep). */
    static final long BOUNDS_LOG_INTERVAL_MS = 10_000;

    private final HostStore store = new HostStore();
    /** The other instances' hosts, each merged across its owners; written on the tracker thread. */
    private final HostStore others = new HostStore();
    /** Each other instance's hosts: key -> owner -> host; the tracker thread only. */
    private final Map<HostKey, Map<String, Host>> byOwner = new HashMap<>();
    /** Where this instance's hosts are shared, or null when alone; the tracker thread only. */
    private SharedHosts shared;
    private final List<HostListener> listeners = new CopyOnWriteArrayList<>();
    private final HostTracker tracker;
    private final Clock clock;
    private final Executor trackerThread;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    /** New hosts' sightings the I/O threads refused for the tracker, at a port's bound and at the total. */
    private final LongAdder refusedAtPortsEarly = new LongAdder();
    private final LongAdder refusedHostsEarly = new LongAdder();
    /** What was last logged of the bounds' counts, and when; the tracker thread only. */
    private HostTracker.Counts logged = new HostTracker.Counts(0, 0, 0, 0, 0, 0);
    private long droppedLogged;
    private Instant nextBoundsLog = Instant.MIN;
    private volatile TrackerSettings settings;
    private volatile TopologyService topology;

    /** @param trackerThread runs the tracker's work, one task at a time, in order (a single thread) */
    DeviceManager(TrackerSettings settings, Clock clock, Executor trackerThread) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.trackerThread = Objects.requireNonNull(trackerThread, "trackerThread");
        this.tracker = new HostTracker(settings, store, announcer);
        tracker.setInterSwitchPorts(this::isInterSwitchPort);
        tracker.setElsewhere(this::pointsElsewhere);
        tracker.setPublished(this::publishedHere);
    }

    TrackerSettings settings() {
        return settings;
    }

    void configure(TrackerSettings newSettings) {
        settings = Objects.requireNonNull(newSettings, "settings");
        run(() -> tracker.configure(newSettings));
    }

    void addListener(HostListener listener) {
        listeners.add(listener);
    }

    void removeListener(HostListener listener) {
        listeners.remove(listener);
    }

    /** The topology to ask about inter-switch ports, or null when none runs (every port is then an edge). */
    void setTopology(TopologyService service) {
        topology = service;
        if (service != null) {
            run(tracker::revalidate);
        }
    }

    private boolean isInterSwitchPort(SwitchPort port) {
        TopologyService service = topology;
        Topology current = service == null ? null : service.getTopology();
        return current != null && current.isInterSwitchPort(port);
    }

    /** On an I/O thread: cheap, never blocks. */
    void packetIn(DatapathId dpid, OFPacketIn packetIn) {
        List<Sighting> sightings = SightingReader.read(dpid, packetIn, clock.instant());
        TrackerSettings current = settings;
        long refreshMs = current.refreshMs();
        for (Sighting sighting : sightings) {
            Host known = store.get(sighting.host());
            if (known == null && sighting.locates() && refusedEarly(sighting)) {
                continue;
            }
            if (!HostTracker.isNews(known, sighting, refreshMs, store::heldByAnother)) {
                continue;
            }
            if (sighting.locates() && isInterSwitchPort(sighting.port())) {
                continue; // the tracker would refuse it too; spare the queue
            }
            if (pending.incrementAndGet() > current.maxPending()) {
                pending.decrementAndGet();
                dropped.incrementAndGet();
                continue;
            }
            run(() -> {
                pending.decrementAndGet();
                tracker.observe(sighting);
            });
        }
    }

    /**
     * A new host where the tracker refuses new hosts for now (a port, or all, at its bound with no host
     * idle yet): counted here and kept off the queue, so a flood on one port cannot fill the queue
     * that every switch's sightings share.
     */
    private boolean refusedEarly(Sighting sighting) {
        switch (tracker.refusesNewHost(sighting.port(), sighting.at())) {
            case AT_PORT -> refusedAtPortsEarly.increment();
            case IN_ALL -> refusedHostsEarly.increment();
            default -> {
                return false;
            }
        }
        return true;
    }

    void topologyChanged(List<TopologyEvent> events) {
        List<SwitchPort> linkEnds = new ArrayList<>();
        List<DatapathId> removedSwitches = new ArrayList<>();
        for (TopologyEvent event : events) {
            switch (event.type()) {
                case LINK_ADDED, LINK_UPDATED -> {
                    Link link = event.link();
                    linkEnds.add(link.src());
                    linkEnds.add(link.dst());
                }
                case SWITCH_REMOVED -> removedSwitches.add(event.dpid());
                default -> {
                    // A removed link makes its ports edges again: hosts there are learned from their next packet.
                }
            }
        }
        if (!linkEnds.isEmpty() || !removedSwitches.isEmpty()) {
            run(() -> {
                tracker.interSwitchPortsFound(linkEnds);
                removedSwitches.forEach(tracker::switchRemoved);
            });
        }
    }

    void switchRemoved(DatapathId dpid) {
        run(() -> tracker.switchRemoved(dpid));
    }

    /** A host cannot be reached at a port that was deleted or is down. */
    void portChanged(DatapathId dpid, OFPortDesc port, PortChange change) {
        boolean down = change == PortChange.DELETED || port.getState().contains(OFPortState.LINK_DOWN)
                || port.getConfig().contains(OFPortConfig.PORT_DOWN);
        if (down) {
            SwitchPort where = SwitchPort.of(dpid, port.getPortNo());
            run(() -> tracker.portDown(where));
        }
    }

    /** Expires and confirms moves; called periodically. */
    void sweep() {
        run(() -> {
            Instant now = clock.instant();
            tracker.sweep(now);
            if (!now.isBefore(nextBoundsLog)) {
                logBounds(now);
            }
        });
    }

    /** The tracker's counts, with the refusals the I/O threads made for it. */
    private HostTracker.Counts counts() {
        HostTracker.Counts c = tracker.counts();
        return new HostTracker.Counts(c.evictedHosts(), c.refusedHosts() + refusedHostsEarly.sum(),
                c.evictedAtPorts(), c.refusedAtPorts() + refusedAtPortsEarly.sum(), c.evictedAddresses(),
                c.evictedPoints());
    }

    /** One line for what the bounds refused, evicted and dropped since the last line, if anything. */
    private void logBounds(Instant now) {
        HostTracker.Counts counts = counts();
        long lost = dropped.get();
        long refusedHosts = counts.refusedHosts() - logged.refusedHosts();
        long refusedAtPorts = counts.refusedAtPorts() - logged.refusedAtPorts();
        long evicted = counts.evictedHosts() - logged.evictedHosts() + counts.evictedAtPorts()
                - logged.evictedAtPorts();
        long lostNow = lost - droppedLogged;
        if (refusedHosts + refusedAtPorts + evicted + lostNow == 0) {
            return;
        }
        TrackerSettings current = tracker.settings();
        LOG.warn("Device tracking at its bounds: {} new hosts refused at maxHosts ({}), {} at maxHostsPerPort ({}), "
                + "{} idle hosts evicted for new ones, {} sightings dropped (more than maxPending, {}, waiting); "
                + "see /api/v1/limits", refusedHosts, current.maxHosts(), refusedAtPorts, current.maxHostsPerPort(),
                evicted, lostNow, current.maxPending());
        logged = counts;
        droppedLogged = lost;
        nextBoundsLog = now.plusMillis(BOUNDS_LOG_INTERVAL_MS);
    }

    /** The bounded tables and what they evicted and refused; from any thread. */
    List<StateBounds.Bound> bounds() {
        TrackerSettings current = settings;
        HostTracker.Counts counts = counts();
        String pid = DevicesComponent.PID + "/";
        return List.of(
                new StateBounds.Bound("devices.hosts", pid + "maxHosts", current.maxHosts(), store.size(),
                        counts.evictedHosts(), counts.refusedHosts(), "hosts tracked; at the bound a new host takes "
                        + "the place of the least recently seen if it is idle (hostIdleMs), else it is refused"),
                new StateBounds.Bound("devices.hostsPerPort", pid + "maxHostsPerPort", current.maxHostsPerPort(),
                        store.fullestPort(), counts.evictedAtPorts(), counts.refusedAtPorts(), "hosts at one edge "
                        + "port (size: the fullest); the same rule, so a flood on one port fills only its share"),
                new StateBounds.Bound("devices.addressesPerHost", pid + "maxAddressesPerHost",
                        current.maxAddressesPerHost(), store.mostAddresses(), counts.evictedAddresses(), 0,
                        "IPv4 and IPv6 addresses of one host (size: the most any has); the least recently claimed go"),
                new StateBounds.Bound("devices.attachmentPointsPerHost", pid + "maxAttachmentPoints",
                        current.maxAttachmentPoints(), store.mostAttachmentPoints(), counts.evictedPoints(), 0,
                        "attachment points of one host (size: the most any has); the least recently seen go"),
                new StateBounds.Bound("devices.pendingSightings", pid + "maxPending", current.maxPending(),
                        Math.max(0, pending.get()), 0, dropped.get(), "sightings waiting for the tracker's thread; "
                        + "beyond the bound they are dropped, never waited for"));
    }

    /** Forgets everything, on the tracker thread. */
    void clear() {
        run(tracker::clear);
    }

    // The cluster

    /**
     * Shares this instance's hosts through {@code hosts} (those tracked now, then every change) and
     * takes the other instances' from it; on the tracker thread.
     */
    void share(SharedHosts hosts) {
        run(() -> {
            shared = hosts;
            store.getHosts().forEach(host -> hosts.published(null, host));
        });
    }

    /** Stops sharing: the other instances' hosts leave the view; on the tracker thread. */
    void unshare() {
        run(() -> {
            shared = null;
            for (HostKey key : List.copyOf(byOwner.keySet())) {
                Host before = others.get(key);
                byOwner.remove(key);
                others.remove(before);
                announceView(store.get(key), before, null);
            }
        });
    }

    @Override
    public void remoteHostChanged(String owner, Host host) {
        run(() -> {
            HostKey key = HostStore.keyOf(host);
            Map<String, Host> owners = byOwner.computeIfAbsent(key, k -> new TreeMap<>());
            owners.put(owner, host);
            remoteChanged(key, owners);
        });
    }

    @Override
    public void remoteHostRemoved(String owner, HostKey key) {
        run(() -> {
            Map<String, Host> owners = byOwner.get(key);
            if (owners == null || owners.remove(owner) == null) {
                return;
            }
            if (owners.isEmpty()) {
                byOwner.remove(key);
            }
            remoteChanged(key, owners);
        });
    }

    /** The other instances' view of one host changed: publish the merge of their hosts and announce. */
    private void remoteChanged(HostKey key, Map<String, Host> owners) {
        Host before = others.get(key);
        Host after = null;
        for (Host host : owners.values()) {
            after = MergedHost.of(after, host);
        }
        if (after == null) {
            if (before != null) {
                others.remove(before);
            }
        } else {
            others.put(before, after);
        }
        announceView(store.get(key), before, after);
    }

    /** Where the other instances see a host (for the tracker: their points may supersede ours). */
    private List<AttachmentPoint> pointsElsewhere(HostKey key) {
        Host elsewhere = others.get(key);
        return elsewhere == null ? List.of() : elsewhere.attachmentPoints();
    }

    /** Every change the tracker publishes, refreshes included, goes to the store for the others. */
    private void publishedHere(Host before, Host after) {
        if (shared != null) {
            shared.published(before, after);
        }
    }

    /**
     * Announces a change of the others' view of a host, given what this instance knows of it
     * ({@code here}, unchanged): the union before and after, classified.
     */
    private void announceView(Host here, Host othersBefore, Host othersAfter) {
        Host before = MergedHost.of(here, othersBefore);
        Host after = MergedHost.of(here, othersAfter);
        MergedHost.Change change = MergedHost.classify(before, after);
        announcer.announce(change, before, after);
    }

    private void run(Runnable task) {
        try {
            trackerThread.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.error("Device tracking failed on one update; the others go on", e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("Device tracking is stopping; an update was not applied");
        }
    }

    // Lookups: this instance's hosts, merged with the others' where they know them too

    @Override
    public Collection<Host> getHosts() {
        Collection<Host> here = store.getHosts();
        return others.size() == 0 ? here : union(here, others.getHosts());
    }

    @Override
    public Host getHost(MacAddress mac, VlanVid vlan) {
        Host here = store.getHost(mac, vlan);
        return others.size() == 0 ? here : MergedHost.of(here, others.getHost(mac, vlan));
    }

    @Override
    public Collection<Host> getHostsByMac(MacAddress mac) {
        Collection<Host> here = store.getHostsByMac(mac);
        return others.size() == 0 ? here : union(here, others.getHostsByMac(mac));
    }

    @Override
    public Collection<Host> getHostsByIpv4(IPv4Address address) {
        Collection<Host> here = store.getHostsByIpv4(address);
        return others.size() == 0 ? here : union(here, others.getHostsByIpv4(address));
    }

    @Override
    public Collection<Host> getHostsByIpv6(IPv6Address address) {
        Collection<Host> here = store.getHostsByIpv6(address);
        return others.size() == 0 ? here : union(here, others.getHostsByIpv6(address));
    }

    @Override
    public Collection<Host> getHostsAt(SwitchPort port) {
        Collection<Host> here = store.getHostsAt(port);
        return others.size() == 0 ? here : union(here, others.getHostsAt(port));
    }

    /**
     * The hosts found here and those found among the others', each merged with what the other side
     * knows of it (a lookup may match a host through an address only one side has).
     */
    private List<Host> union(Collection<Host> here, Collection<Host> elsewhere) {
        Map<HostKey, Host> out = new LinkedHashMap<>();
        for (Host host : here) {
            HostKey key = HostStore.keyOf(host);
            out.put(key, MergedHost.of(host, others.get(key)));
        }
        for (Host host : elsewhere) {
            HostKey key = HostStore.keyOf(host);
            if (!out.containsKey(key)) {
                out.put(key, MergedHost.of(store.get(key), host));
            }
        }
        return List.copyOf(out.values());
    }

    private final Announcer announcer = new Announcer();

    /**
     * Tells every registered listener, on the tracker thread; one failing listener does not stop the
     * others. The tracker's changes to a host no other instance knows are announced as it says; those
     * to a host the others know too are announced as changes of the union.
     */
    private final class Announcer implements HostListener {

        @Override
        public void hostAdded(Host host) {
            if (!inView(host, null, host)) {
                each(listener -> listener.hostAdded(host));
            }
        }

        @Override
        public void hostMoved(Host before, Host after) {
            if (!inView(before, before, after)) {
                each(listener -> listener.hostMoved(before, after));
            }
        }

        @Override
        public void hostUpdated(Host before, Host after) {
            if (!inView(before, before, after)) {
                each(listener -> listener.hostUpdated(before, after));
            }
        }

        @Override
        public void hostRemoved(Host host) {
            if (!inView(host, host, null)) {
                each(listener -> listener.hostRemoved(host));
            }
        }

        /**
         * When the others know the host too, announces the change of the union instead and says so;
         * false when the tracker's own announcement stands.
         */
        private boolean inView(Host any, Host hereBefore, Host hereAfter) {
            Host elsewhere = others.get(HostStore.keyOf(any));
            if (elsewhere == null) {
                return false;
            }
            Host before = MergedHost.of(hereBefore, elsewhere);
            Host after = MergedHost.of(hereAfter, elsewhere);
            announce(MergedHost.classify(before, after), before, after);
            return true;
        }

        void announce(MergedHost.Change change, Host before, Host after) {
            switch (change) {
                case ADDED -> each(listener -> listener.hostAdded(after));
                case MOVED -> each(listener -> listener.hostMoved(before, after));
                case UPDATED -> each(listener -> listener.hostUpdated(before, after));
                case REMOVED -> each(listener -> listener.hostRemoved(before));
                default -> {
                    // only times changed
                }
            }
        }

        private void each(Consumer<HostListener> call) {
            for (HostListener listener : listeners) {
                try {
                    call.accept(listener);
                } catch (RuntimeException e) {
                    LOG.error("Host listener {} failed", listener.getClass().getName(), e);
                }
            }
        }
    }
}
