package io.heliograph.topology.internal;

import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterInstance;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyListener;
import io.heliograph.topology.TopologyService;
import io.heliograph.topology.internal.LldpProbeCodec.Outcome;

/**
 * Wires link discovery into the controller: PACKET_IN listener "topology", switch listener, the
 * {@link TopologyService}, and the whiteboard of {@link TopologyListener}s, configured by pid
 * {@value #PID}.
 *
 * <p>One thread, "heliograph-topology", owns the discovery state: the I/O threads hand it switch
 * and port changes and verified probes and return at once; it runs the probe rounds and the
 * timeout sweep, and delivers the events, so listeners see changes one at a time and in order.
 *
 * <p>In a cluster (a {@link SharedStore} and a {@link ClusterService} are bound) the links are shared
 * through {@link SharedLinks}, and probes are signed with the cluster's key ({@link ClusterProbeKey})
 * so every instance verifies the others'. Another thread, "heliograph-topology-store", does the
 * store's work, which waits on ZooKeeper and must not hold up discovery. Both references are
 * optional: without them (no cluster bundle) the app discovers alone, as before.
 */
@Component(service = {TopologyService.class, MessageListener.class, SwitchListener.class,
    TopologyDiagnostics.class, ClusterListener.class}, configurationPid = TopologyComponent.PID, immediate = true)
@Designate(ocd = TopologyConfig.class)
public final class TopologyComponent implements TopologyService, MessageListener, SwitchListener,
        TopologyDiagnostics, ClusterListener {

    public static final String PID = "io.heliograph.topology";
    public static final String NAME = "topology";

    private static final Logger LOG = LoggerFactory.getLogger(TopologyComponent.class);
    private static final Set<OFType> TYPES = Set.of(OFType.PACKET_IN);
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
    private final ScheduledExecutorService storeThread = WorkerThreads.single("heliograph-topology-store");
    private final LldpProbeCodec codec;
    private final LinkDiscovery discovery;
    private final ProbeReceiver receiver;
    private volatile TopologySettings settings;
    private ScheduledFuture<?> rounds;

    private volatile SharedStore store;
    private volatile ClusterService cluster;
    // The sharing now, and what it was made of; changed only on the store thread.
    private volatile SharedLinks sharing;
    private SharedStore sharingStore;
    private ClusterService sharingCluster;
    private SharedStore keyFrom;

    @Activate
    public TopologyComponent(TopologyConfig config) {
        settings = parse(config, TopologySettings.DEFAULTS);
        codec = LldpProbeCodec.random();
        discovery = new LinkDiscovery(codec, settings, CLOCK, STAMP_CLOCK, this::deliver, this::onTopologyThread);
        receiver = new ProbeReceiver(codec, STAMP_CLOCK, () -> settings, topologyThread, discovery);
        schedule(settings);
        LOG.info("topology active ({}, instance {})", settings, Integer.toHexString(codec.instance()));
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setSharedStore(SharedStore service) {
        store = service;
        onStoreThread(this::reshare);
    }

    void unsetSharedStore(SharedStore service) {
        if (store == service) {
            store = null;
        }
        onStoreThread(this::reshare);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setClusterService(ClusterService service) {
        cluster = service;
        onStoreThread(this::reshare);
    }

    void unsetClusterService(ClusterService service) {
        if (cluster == service) {
            cluster = null;
        }
        onStoreThread(this::reshare);
    }

    /**
     * On the store thread: shares the links through the store and cluster bound now, after ending a
     * sharing through others. The old sharing is closed first (its watch stops and this instance's
     * links leave the old store); its remote links then leave the topology, behind any of its changes
     * already queued on the topology thread.
     */
    private void reshare() {
        SharedStore s = store;
        ClusterService c = cluster;
        if (sharing == null || s != sharingStore || c != sharingCluster) {
            SharedLinks old = sharing;
            if (old != null) {
                sharing = null;
                old.close();
                onTopologyThread(discovery::unshare);
                LOG.info("topology: links no longer shared");
            }
            sharingStore = s;
            sharingCluster = c;
            if (s != null && c != null) {
                SharedLinks next = new SharedLinks(s, c, discovery, this::onTopologyThread, storeThread, STORE_FLUSH_MS,
                        settings.linkTimeoutMs());
                onTopologyThread(() -> discovery.share(next));
                next.start();
                sharing = next;
                LOG.info("topology: links shared with the cluster as instance {}", next.self());
            }
        }
        adoptClusterKey();
    }

    /** Signs probes with the cluster's key, once per store; retried at the next round while the store is out of reach. */
    private void adoptClusterKey() {
        SharedStore s = store;
        if (s == null || s == keyFrom) {
            return;
        }
        try {
            byte[] key = ClusterProbeKey.getOrCreate(s, new SecureRandom());
            codec.useKey(key, ClusterProbeKey.instanceOf(key));
            keyFrom = s;
            LOG.info("topology: LLDP probes signed with the cluster's key (instance {})",
                    Integer.toHexString(codec.instance()));
        } catch (StoreUnavailableException e) {
            LOG.debug("topology: the cluster's LLDP key is out of reach for now: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("topology: the cluster's LLDP key cannot be used; probes stay signed with this instance's own, "
                    + "so links between switches of different masters are not found: {}", e.getMessage());
            keyFrom = s;
        }
    }

    private void onStoreThread(Runnable task) {
        try {
            storeThread.execute(() -> guarded(task));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Stopping.
        }
    }

    // ClusterListener: the cluster's thread hands over to the sharing

    @Override
    public void instanceJoined(ClusterInstance instance) {
        SharedLinks current = sharing;
        if (current != null) {
            current.instanceJoined(instance);
        }
    }

    @Override
    public void instanceLeft(ClusterInstance instance) {
        SharedLinks current = sharing;
        if (current != null) {
            current.instanceLeft(instance);
        }
    }

    @Override
    public void connectionChanged(boolean connected) {
        SharedLinks current = sharing;
        if (current != null) {
            current.connectionChanged(connected);
        }
        if (connected) {
            onStoreThread(this::adoptClusterKey);
        }
    }

    /**
     * Switches that connected before this component started (a hot-swapped topology bundle) get no
     * switchAdded, so they are taken from the switch service. The reference is optional and dynamic
     * because the switch service's own component takes our SwitchListener: with a mandatory
     * reference each would wait for the other's activation lock.
     */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void setSwitchService(SwitchService switchService) {
        for (OFSwitch sw : switchService.getSwitches().values()) {
            onTopologyThread(() -> {
                if (sw.isConnected()) {
                    discovery.switchAdded(sw);
                }
            });
        }
    }

    void unsetSwitchService(SwitchService switchService) {
        // The switches leave through switchRemoved.
    }

    @Modified
    void modified(TopologyConfig config) {
        TopologySettings previous = settings;
        TopologySettings next = parse(config, previous);
        settings = next;
        onTopologyThread(() -> discovery.configure(next));
        if (next.lldpIntervalMs() != previous.lldpIntervalMs()) {
            schedule(next);
        }
        LOG.info("topology reconfigured ({})", next);
    }

    @Deactivate
    void deactivate() {
        // A sharing being set up on the store thread is finished (and seen here) before it is closed.
        stop(storeThread, "topology store");
        SharedLinks current = sharing;
        if (current != null) {
            sharing = null;
            current.close(); // this instance's links leave the store with the app
        }
        // The state belongs to the topology thread: let a task already running finish before it is cleared.
        stop(topologyThread, "topology");
        discovery.clear();
        LOG.info("topology stopped");
    }

    private static void stop(ScheduledExecutorService thread, String name) {
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.warn("the {} thread did not stop within 2 s", name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Bad values are refused with a line that names them; the previous settings stay in force. */
    private static TopologySettings parse(TopologyConfig config, TopologySettings previous) {
        try {
            return new TopologySettings(config.lldpIntervalMs(), config.linkTimeoutMs(), config.lldpMaxAgeMs());
        } catch (IllegalArgumentException e) {
            LOG.error("Configuration {} refused, keeping {}: {}", PID, previous, e.getMessage());
            return previous;
        }
    }

    private synchronized void schedule(TopologySettings s) {
        if (rounds != null) {
            rounds.cancel(false);
        }
        rounds = topologyThread.scheduleWithFixedDelay(() -> guarded(() -> {
            discovery.sweep();
            discovery.probeAll();
            if (store != null && store != keyFrom) {
                onStoreThread(this::adoptClusterKey);
            }
        }), s.lldpIntervalMs(), s.lldpIntervalMs(), TimeUnit.MILLISECONDS);
    }

    private void onTopologyThread(Runnable task) {
        try {
            topologyThread.execute(() -> guarded(task));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Stopping: the change no longer matters.
        }
    }

    /** A failing task is logged; it must neither kill the rounds nor the thread. */
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

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addTopologyListener(TopologyListener listener) {
        listeners.add(listener);
    }

    void removeTopologyListener(TopologyListener listener) {
        listeners.remove(listener);
    }

    // TopologyService

    @Override
    public Topology getTopology() {
        return discovery.topology();
    }

    // MessageListener: the I/O threads

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Set<OFType> getTypes() {
        return TYPES;
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        return receiver.receive(sw, message);
    }

    // SwitchListener: the I/O threads hand over and return

    @Override
    public void switchAdded(OFSwitch sw) {
        onTopologyThread(() -> discovery.switchAdded(sw));
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        onTopologyThread(() -> discovery.switchRemoved(sw));
    }

    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        onTopologyThread(() -> discovery.portChanged(sw, port, change));
    }

    @Override
    public void roleChanged(OFSwitch sw, Role role) {
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
        } catch (ExecutionException | TimeoutException | java.util.concurrent.RejectedExecutionException e) {
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
        SharedLinks current = sharing;
        return current == null ? null : "shared with the cluster as " + current.self() + ", " + current.writes()
                + " store writes since the app started sharing";
    }

    /** The sharing now, or null (tests). */
    SharedLinks sharingNow() {
        return sharing;
    }
}
