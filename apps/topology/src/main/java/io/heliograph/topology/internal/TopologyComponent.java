package io.heliograph.topology.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
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
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;
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
 */
@Component(service = {TopologyService.class, MessageListener.class, SwitchListener.class,
    TopologyDiagnostics.class}, configurationPid = TopologyComponent.PID, immediate = true)
@Designate(ocd = TopologyConfig.class)
public final class TopologyComponent implements TopologyService, MessageListener, SwitchListener,
        TopologyDiagnostics {

    public static final String PID = "io.heliograph.topology";
    public static final String NAME = "topology";

    private static final Logger LOG = LoggerFactory.getLogger(TopologyComponent.class);
    private static final Set<OFType> TYPES = Set.of(OFType.PACKET_IN);
    /** Monotonic, so a wall-clock step neither expires every link nor makes every probe look stale. */
    private static final LongSupplier CLOCK = () -> System.nanoTime() / 1_000_000;

    private final List<TopologyListener> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService topologyThread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "heliograph-topology");
        t.setDaemon(true);
        return t;
    });
    private final LinkDiscovery discovery;
    private final ProbeReceiver receiver;
    private volatile TopologySettings settings;
    private ScheduledFuture<?> rounds;

    @Activate
    public TopologyComponent(TopologyConfig config) {
        settings = parse(config, TopologySettings.DEFAULTS);
        LldpProbeCodec codec = LldpProbeCodec.random();
        discovery = new LinkDiscovery(codec, settings, CLOCK, this::deliver, this::onTopologyThread);
        receiver = new ProbeReceiver(codec, CLOCK, () -> settings, topologyThread, discovery);
        schedule(settings);
        LOG.info("topology active ({}, instance {})", settings, Integer.toHexString(codec.instance()));
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
        topologyThread.shutdownNow();
        try {
            // The state belongs to that thread: let a task already running finish before it is cleared.
            if (!topologyThread.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.warn("the topology thread did not stop within 2 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

    private synchronized void schedule(TopologySettings s) {
        if (rounds != null) {
            rounds.cancel(false);
        }
        rounds = topologyThread.scheduleWithFixedDelay(() -> guarded(() -> {
            discovery.sweep();
            discovery.probeAll();
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
}
