package io.heliograph.devices.internal;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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

import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.SwitchPort;
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
 * only repeat what is known are dropped before the queue, and the queue of sightings is bounded
 * (a burst beyond it is counted and dropped, never waited for). Topology, switch and timer work
 * goes through the same thread unbounded (it is rare), so it is ordered with the sightings.
 * Readers use the store's concurrent maps of immutable hosts and never wait either.
 */
final class DeviceManager implements DeviceService {

    private static final Logger LOG = LoggerFactory.getLogger(DeviceManager.class);

    static final int DEFAULT_MAX_PENDING = 65_536;

    private final HostStore store = new HostStore();
    private final List<HostListener> listeners = new CopyOnWriteArrayList<>();
    private final HostTracker tracker;
    private final Clock clock;
    private final Executor trackerThread;
    private final int maxPending;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private volatile TrackerSettings settings;
    private volatile TopologyService topology;

    /**
     * @param trackerThread runs the tracker's work, one task at a time, in order (a single thread)
     * @param maxPending    the most sightings waiting for the tracker
     */
    DeviceManager(TrackerSettings settings, Clock clock, Executor trackerThread, int maxPending) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.trackerThread = Objects.requireNonNull(trackerThread, "trackerThread");
        this.maxPending = maxPending;
        this.tracker = new HostTracker(settings, store, new Announcer());
        tracker.setInterSwitchPorts(this::isInterSwitchPort);
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
        long refreshMs = settings.refreshMs();
        for (Sighting sighting : sightings) {
            if (!HostTracker.isNews(store.get(sighting.host()), sighting, refreshMs)) {
                continue;
            }
            if (sighting.locates() && isInterSwitchPort(sighting.port())) {
                continue; // the tracker would refuse it too; spare the queue
            }
            if (pending.incrementAndGet() > maxPending) {
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
            tracker.sweep(clock.instant());
            long refused = tracker.takeRefused();
            long lost = dropped.getAndSet(0);
            if (refused > 0 || lost > 0) {
                LOG.warn("Device tracking: {} new hosts refused (maxHosts {} reached), {} sightings dropped "
                        + "(more than {} waiting)", refused, tracker.settings().maxHosts(), lost, maxPending);
            }
        });
    }

    /** Forgets everything, on the tracker thread. */
    void clear() {
        run(tracker::clear);
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

    @Override
    public Collection<Host> getHosts() {
        return store.getHosts();
    }

    @Override
    public Host getHost(MacAddress mac, VlanVid vlan) {
        return store.getHost(mac, vlan);
    }

    @Override
    public Collection<Host> getHostsByMac(MacAddress mac) {
        return store.getHostsByMac(mac);
    }

    @Override
    public Collection<Host> getHostsByIpv4(IPv4Address address) {
        return store.getHostsByIpv4(address);
    }

    @Override
    public Collection<Host> getHostsByIpv6(IPv6Address address) {
        return store.getHostsByIpv6(address);
    }

    @Override
    public Collection<Host> getHostsAt(SwitchPort port) {
        return store.getHostsAt(port);
    }

    /** Tells every registered listener, on the tracker thread; one failing listener does not stop the others. */
    private final class Announcer implements HostListener {

        @Override
        public void hostAdded(Host host) {
            each(listener -> listener.hostAdded(host));
        }

        @Override
        public void hostMoved(Host before, Host after) {
            each(listener -> listener.hostMoved(before, after));
        }

        @Override
        public void hostUpdated(Host before, Host after) {
            each(listener -> listener.hostUpdated(before, after));
        }

        @Override
        public void hostRemoved(Host host) {
            each(listener -> listener.hostRemoved(host));
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
