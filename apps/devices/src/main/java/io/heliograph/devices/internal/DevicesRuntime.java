package io.heliograph.devices.internal;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.BoundService;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.PeriodicTask;
import io.heliograph.core.MetricSource;
import io.heliograph.core.StateBounds.Bound;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.HostListener;
import io.heliograph.topology.TopologyService;

/**
 * The devices app's runtime, apart from its DS wiring ({@link DevicesComponent}): the
 * {@link DeviceManager} and its thread, "heliograph-devices", which runs the sweeps; the host
 * listeners and the topology, which may be bound before the manager exists and are handed to it when
 * it does; and the {@link ClusterSharing} that shares the hosts through {@link SharedHosts} while a
 * store and a cluster are bound (its thread, "heliograph-devices-store", does the store's work, which
 * waits on ZooKeeper).
 */
final class DevicesRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(DevicesRuntime.class);

    /** How long a change of this instance's hosts waits for others before they are written together. */
    static final long STORE_FLUSH_MS = 150;
    /** How long the hosts of an instance that left stay in view: time for the new masters to hear them again. */
    static final long LEFT_INSTANCE_HOSTS_RETAIN_MS = 30_000;

    private final List<HostListener> listeners = new ArrayList<>();
    private final BoundService<TopologyService> topology = new BoundService<>();
    private ScheduledExecutorService thread;
    private PeriodicTask sweeps;
    private volatile DeviceManager manager;
    // Services bound before start are kept; it shares once the manager exists.
    private final ClusterSharing<SharedHosts> sharing = new ClusterSharing<>(DevicesComponent.NAME, this::share,
            ended -> manager.unshare());

    synchronized void start(TrackerSettings settings) {
        thread = WorkerThreads.single("heliograph-devices");
        DeviceManager created = new DeviceManager(settings, Clock.systemUTC(), thread);
        listeners.forEach(created::addListener);
        created.setTopology(topology.get());
        manager = created;
        sweeps = new PeriodicTask(thread, "devices sweep", created::sweep);
        scheduleSweeps();
        sharing.start();
    }

    /** True when the settings changed. */
    synchronized boolean configure(TrackerSettings next) {
        if (next.equals(manager.settings())) {
            return false;
        }
        manager.configure(next);
        scheduleSweeps();
        return true;
    }

    synchronized void stop() {
        sharing.stop(); // this instance's hosts leave the store with the app
        if (thread != null) {
            thread.shutdownNow();
        }
        manager = null;
    }

    ClusterSharing<SharedHosts> clusterSharing() {
        return sharing;
    }

    /** On the sharing's thread: the manager gives this instance's hosts to the new sharing before it starts. */
    private SharedHosts share(SharedStore store, ClusterService cluster, ScheduledExecutorService storeThread) {
        DeviceManager current = manager;
        SharedHosts next = new SharedHosts(store, cluster, current, storeThread, STORE_FLUSH_MS,
                () -> current.settings().sharedRefreshMs(), LEFT_INSTANCE_HOSTS_RETAIN_MS);
        current.share(next);
        return next;
    }

    private void scheduleSweeps() {
        long interval = manager.settings().sweepIntervalMs();
        sweeps.every(interval, interval);
    }

    /** The manager while the app runs, or null. */
    DeviceManager manager() {
        return manager;
    }

    /** Runs {@code change} on the manager while the app runs; nothing otherwise. */
    void whenRunning(Consumer<DeviceManager> change) {
        DeviceManager current = manager;
        if (current != null) {
            change.accept(current);
        }
    }

    /** Learns from a packet-in; a packet it cannot use is logged and left alone. */
    void learn(OFSwitch sw, OFMessage message) {
        DeviceManager current = manager;
        if (current != null && message instanceof OFPacketIn packetIn) {
            try {
                current.packetIn(sw.getId(), packetIn);
            } catch (RuntimeException e) {
                LOG.debug("Switch {}: packet-in not used for device tracking", sw.getId(), e);
            }
        }
    }

    /** What the reads go to; refused while the app does not run. */
    DeviceService reads() {
        DeviceManager current = manager;
        if (current == null) {
            throw new IllegalStateException("device tracking is not active");
        }
        return current;
    }

    /** The hosts the REST API and UI count (tracked here and shared by the cluster's others); none while inactive. */
    List<MetricSource.Sample> samples() {
        DeviceManager current = manager;
        return current == null ? List.of() : List.of(new MetricSource.Sample("heliograph_devices_hosts",
                MetricSource.Type.GAUGE, "Hosts known: tracked by this instance or shared by the cluster's others",
                Map.of(), current.getHosts().size()));
    }

    List<Bound> bounds() {
        DeviceManager current = manager;
        return current == null ? List.of() : current.bounds();
    }

    synchronized void addListener(HostListener listener) {
        listeners.add(listener);
        if (manager != null) {
            manager.addListener(listener);
        }
    }

    synchronized void removeListener(HostListener listener) {
        listeners.remove(listener);
        if (manager != null) {
            manager.removeListener(listener);
        }
    }

    synchronized void setTopology(TopologyService service) {
        topology.bind(service);
        if (manager != null) {
            manager.setTopology(service);
        }
    }

    synchronized void unsetTopology(TopologyService service) {
        if (topology.unbind(service) && manager != null) {
            manager.setTopology(null);
        }
    }
}
