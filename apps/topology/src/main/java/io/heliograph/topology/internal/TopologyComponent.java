package io.heliograph.topology.internal;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
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
import io.heliograph.core.PeriodicTask;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharingComponent;
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
 * through {@link SharedLinks}, opened and reopened by a {@link ClusterSharing} as the services come
 * and go, and probes are signed with the cluster's key ({@link ClusterProbeKey}) so every instance
 * verifies the others'. The sharing's thread, "heliograph-topology-store", does the store's work,
 * which waits on ZooKeeper and must not hold up discovery. Both references are optional: without
 * them (no cluster bundle) the app discovers alone, as before.
 */
@Component(service = {TopologyService.class, MessageListener.class, SwitchListener.class,
    TopologyDiagnostics.class, ClusterListener.class}, configurationPid = TopologyComponent.PID, immediate = true)
@Designate(ocd = TopologyConfig.class)
public final class TopologyComponent implements TopologyService, MessageListener, SwitchListener,
        TopologyDiagnostics, SharingComponent {

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
    private final ClusterSharing<SharedLinks> sharing;
    private final LldpProbeCodec codec;
    private final LinkDiscovery discovery;
    private final ProbeReceiver receiver;
    private volatile TopologySettings settings;
    private final PeriodicTask rounds;

    /** The store whose key signs the probes; changed only on the sharing's thread. */
    private volatile SharedStore keyFrom;

    @Activate
    public TopologyComponent(TopologyConfig config) {
        settings = parse(config, TopologySettings.DEFAULTS);
        codec = LldpProbeCodec.random();
        discovery = new LinkDiscovery(codec, settings, CLOCK, STAMP_CLOCK, this::deliver, this::onTopologyThread);
        receiver = new ProbeReceiver(codec, STAMP_CLOCK, () -> settings, topologyThread, discovery);
        // A sharing that ended takes the others' links out of the topology, behind the changes queued.
        sharing = new ClusterSharing<>(NAME, this::share, ended -> onTopologyThread(discovery::unshare));
        sharing.start();
        rounds = new PeriodicTask(topologyThread, "topology round", this::round);
        schedule(settings);
        LOG.info("topology active ({}, instance {})", settings, Integer.toHexString(codec.instance()));
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setSharedStore(SharedStore service) {
        sharing.bindStore(service);
        sharing.execute(this::adoptClusterKey);
    }

    void unsetSharedStore(SharedStore service) {
        sharing.unbindStore(service);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setClusterService(ClusterService service) {
        sharing.bindCluster(service);
        sharing.execute(this::adoptClusterKey);
    }

    void unsetClusterService(ClusterService service) {
        sharing.unbindCluster(service);
    }

    /**
     * On the sharing's thread: this instance's links go to the new sharing (on the topology thread,
     * behind the changes queued there) before it starts watching the others'.
     */
    private SharedLinks share(SharedStore store, ClusterService cluster, ScheduledExecutorService storeThread) {
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

    @Override
    public ClusterSharing<?> clusterSharing() {
        return sharing;
    }

    /** A session back may bring the key that was out of reach. */
    @Override
    public void connectionChanged(boolean connected) {
        SharingComponent.super.connectionChanged(connected);
        if (connected) {
            sharing.execute(this::adoptClusterKey);
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
        sharing.stop(); // this instance's links leave the store with the app
        // The state belongs to the topology thread: let a task already running finish before it is cleared.
        WorkerThreads.stop(topologyThread, "heliograph-topology", Duration.ofSeconds(2));
        discovery.clear();
        LOG.info("topology stopped");
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
        } catch (java.util.concurrent.RejectedExecutionException e) {
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
        SharedLinks current = sharing.current();
        return current == null ? null : "shared with the cluster as " + current.self() + ", " + current.writes()
                + " store writes since the app started sharing";
    }

    /** The sharing now, or null (tests). */
    SharedLinks sharingNow() {
        return sharing.current();
    }
}
