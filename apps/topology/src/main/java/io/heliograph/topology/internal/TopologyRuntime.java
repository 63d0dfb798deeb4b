package io.heliograph.topology.internal;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.PeriodicTask;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyListener;
import io.heliograph.topology.internal.LldpProbeCodec.Outcome;

/**
 * The topology app's runtime, apart from its DS wiring ({@link TopologyComponent}): one thread,
 * "heliograph-topology", owns the discovery state; the I/O threads hand it switch and port changes and
 * verified probes and return at once; it runs the probe rounds and the timeout sweep, and delivers the
 * events, so listeners see changes one at a time and in order.
 *
 * <p>In a cluster the links are shared through {@link SharedLinks}, opened and reopened by a
 * {@link ClusterSharing} as the store and cluster come and go, and probes are signed with the cluster's
 * key ({@link ClusterProbeKey}) so every instance verifies the others'. The sharing's thread,
 * "heliograph-topology-store", does the store's work, which waits on ZooKeeper and must not hold up
 * discovery.
 */
final class TopologyRuntime implements TopologyDiagnostics {

    private static final Logger LOG = LoggerFactory.getLogger(TopologyRuntime.class);
    /** Monotonic, so a wall-clock step does not expire every link. */
    private static final LongSupplier CLOCK = () -> System.nanoTime() / 1_000_000;
    /**
     * What probes are stamped with and their age checked on: in a cluster the instance that receives
     * a probe is often not the one that sent it, maybe on another machine, so the wall clock. A step
     * of it only costs the probes in flight.
     */
    private static final LongSupplier STAMP_CLOCK = System::currentTimeMillis;
    /** How long a change of this instance's links waits for others before they are written together. */
    static final long STORE_FLUSH_MS = 150;

    private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService topologyThread = WorkerThreads.single("heliograph-topology");
    private final ClusterSharing<SharedLinks> sharing;
    private final LldpProbeCodec codec;
    private final LinkDiscovery discovery;
    private final ProbeReceiver receiver;
    private final PeriodicTask rounds;
    private volatile TopologySettings settings;

    /** The store whose key signs the probes; changed only on the sharing's thread. */
    private volatile SharedStore keyFrom;

    TopologyRuntime(TopologySettings initial) {
        settings = initial;
        codec = LldpProbeCodec.random();
        discovery = new LinkDiscovery(codec, settings, CLOCK, STAMP_CLOCK, this::deliver, this::onTopologyThread);
        receiver = new ProbeReceiver(codec, STAMP_CLOCK, () -> settings, topologyThread, discovery);
        // A sharing that ended takes the others' links out of the topology, behind the changes queued.
        sharing = new ClusterSharing<>(TopologyComponent.NAME, this::share,
                ended -> onTopologyThread(discovery::unshare));
        sharing.start();
        rounds = new PeriodicTask(topologyThread, "topology round", this::round);
        schedule(settings);
    }

    ClusterSharing<SharedLinks> clusterSharing() {
        return sharing;
    }

    /** This instance's id in its probes, for the log. */
    String instance() {
        return Integer.toHexString(codec.instance());
    }

    /** A session back may bring the key that was out of reach. */
    void adoptClusterKeySoon() {
        sharing.execute(this::adoptClusterKey);
    }

    /**
     * On the sharing's thread: probes are signed with the new store's key; this instance's links go to
     * the new sharing (on the topology thread, behind the changes queued there) before it starts
     * watching the others'.
     */
    private SharedLinks share(SharedStore store, ClusterService cluster, ScheduledExecutorService storeThread) {
        adoptClusterKey();
        SharedLinks next = new SharedLinks(store, cluster, discovery, this::onTopologyThread, storeThread,
                STORE_FLUSH_MS, settings.linkTimeoutMs());
        onTopologyThread(() -> discovery.share(next));
        return next;
    }

    /** Signs probes with the cluster's key, once per store; retried at the next round while the store is out of reach. */
    private void adoptClusterKey() {
        SharedStore s = sharing.store();
        if (s == null || s == keyFrom) {
            return;
        }
        try {
            byte[] key = ClusterProbeKey.getOrCreate(s, new SecureRandom());
            codec.useKey(key, ClusterProbeKey.instanceOf(key));
            keyFrom = s;
            LOG.info("topology: LLDP probes signed with the cluster's key (instance {})", instance());
        } catch (StoreUnavailableException e) {
            LOG.debug("topology: the cluster's LLDP key is out of reach for now: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("topology: the cluster's LLDP key cannot be used; probes stay signed with this instance's own, "
                    + "so links between switches of different masters are not found: {}", e.getMessage());
            keyFrom = s;
        }
    }

    /** Switches that connected before the app started (a hot-swapped bundle) get no switchAdded. */
    void adoptSwitches(SwitchService switchService) {
        for (OFSwitch sw : switchService.getSwitches().values()) {
            onTopologyThread(() -> {
                if (sw.isConnected()) {
                    discovery.switchAdded(sw);
                }
            });
        }
    }

    void configure(TopologySettings next) {
        TopologySettings previous = settings;
        settings = next;
        onTopologyThread(() -> discovery.configure(next));
        if (next.lldpIntervalMs() != previous.lldpIntervalMs()) {
            schedule(next);
        }
    }

    void stop() {
        sharing.stop(); // this instance's links leave the store with the app
        // The state belongs to the topology thread: let a task already running finish before it is cleared.
        WorkerThreads.stop(topologyThread, "heliograph-topology", Duration.ofSeconds(2));
        discovery.clear();
    }

    private void schedule(TopologySettings s) {
        rounds.every(s.lldpIntervalMs(), s.lldpIntervalMs());
    }

    /** On the topology thread: expired links go, every port is probed, a cluster key out of reach is asked again. */
    private void round() {
        discovery.sweep();
        discovery.probeAll();
        SharedStore bound = sharing.store();
        if (bound != null && bound != keyFrom) {
            sharing.execute(this::adoptClusterKey);
        }
    }

    private void onTopologyThread(Runnable task) {
        try {
            topologyThread.execute(() -> guarded(task));
        } catch (RejectedExecutionException e) {
            // Stopping: the change no longer matters.
        }
    }

    /** A failing task is logged; it must not kill the thread. */
    private static void guarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.error("topology task failed", e);
        }
    }

    private void deliver(List<TopologyEvent> events) {
        for (TopologyListener listener : listeners) {
            try {
                listener.topologyChanged(events);
            } catch (RuntimeException e) {
                LOG.warn("topology listener {} failed", listener.getClass().getName(), e);
            }
        }
    }

    void addListener(TopologyListener listener) {
        listeners.add(listener);
    }

    void removeListener(TopologyListener listener) {
        listeners.remove(listener);
    }

    // The I/O threads hand over and return

    Command receive(OFSwitch sw, OFMessage message) {
        return receiver.receive(sw, message);
    }

    void switchAdded(OFSwitch sw) {
        onTopologyThread(() -> discovery.switchAdded(sw));
    }

    void switchRemoved(OFSwitch sw) {
        onTopologyThread(() -> discovery.switchRemoved(sw));
    }

    void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        onTopologyThread(() -> discovery.portChanged(sw, port, change));
    }

    void roleChanged(OFSwitch sw, Role role) {
        onTopologyThread(() -> discovery.roleChanged(sw, role));
    }

    // TopologyDiagnostics: the shell

    @Override
    public List<LinkStatus> linkStatus() {
        try {
            return topologyThread.submit(discovery::linkStatus).get(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            throw new IllegalStateException("the topology thread did not answer: " + e, e);
        }
    }

    @Override
    public long nowMs() {
        return CLOCK.getAsLong();
    }

    @Override
    public Map<Outcome, Long> lldpCounts() {
        return receiver.counts();
    }

    @Override
    public TopologyGraph topology() {
        return discovery.topology();
    }

    @Override
    public TopologySettings settings() {
        return settings;
    }

    @Override
    public String sharing() {
        SharedLinks current = sharing.current();
        return current == null ? null : "shared with the cluster as " + current.self() + ", " + current.writes()
                + " store writes since the app started sharing";
    }
}
