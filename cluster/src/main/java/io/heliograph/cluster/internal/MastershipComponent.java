package io.heliograph.cluster.internal;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.apache.curator.framework.state.ConnectionState;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.MetricSource;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchInitializer;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.cluster.Mastership;
import io.heliograph.core.cluster.MastershipService;

/**
 * The OSGi shell of {@link MastershipElection}: a switch initializer (a connecting switch is
 * announced once its role is decided through ZooKeeper and asked of the switch, without waiting for
 * the switch's answer), a switch listener (a disconnect withdraws the candidacy), the
 * {@link MastershipService}, and as a {@link MetricSource} how many switches this instance masters. Its
 * settings are in pid {@value ClusterSettings#PID}:
 * {@code mastership.balance} (true), {@code mastership.takeoverGraceMs} (200: how long each
 * candidate in line waits for the one before it to take a masterless switch),
 * {@code mastership.balanceDelayMs} (1000: changes of candidates gathered before re-balancing) and
 * {@code mastership.handOverTimeoutMs} (2000: the longest a stop waits for its switches' new masters).
 */
@Component(service = {MastershipService.class, SwitchInitializer.class, SwitchListener.class, MetricSource.class},
        configurationPid = ClusterSettings.PID, immediate = true)
public final class MastershipComponent implements MastershipService, SwitchInitializer, SwitchListener, MetricSource {

    static final String NAME = "mastership";

    private final MastershipElection election;
    private final String instanceId;
    private final ZooKeeperSession.Registration registration;
    private final long handOverTimeoutMs;
    private final BundleContext context;
    private final SynchronousBundleListener frameworkStopping;

    @Activate
    public MastershipComponent(@Reference ZooKeeperSession session, Map<String, Object> config, BundleContext context)
            throws Exception {
        boolean balance = bool(config, "mastership.balance", true);
        long grace = millis(config, "mastership.takeoverGraceMs", 200);
        long delay = millis(config, "mastership.balanceDelayMs", 1000);
        handOverTimeoutMs = millis(config, "mastership.handOverTimeoutMs", 2000);
        instanceId = session.instanceId();
        election = new MastershipElection(session.client(), instanceId, grace, balance, delay);
        election.start();
        registration = session.addListener(state -> election.connectionChanged(connected(state)));
        election.connectionChanged(session.isConnected());
        // A stopping controller hands its switches over first, while its apps still run: the
        // framework stops the apps, then the OpenFlow layer (its switches disconnect), before this
        // component would be deactivated.
        this.context = context;
        this.frameworkStopping = event -> {
            if (event.getBundle().getBundleId() == 0 && event.getType() == BundleEvent.STOPPING) {
                election.handOverAll(handOverTimeoutMs);
            }
        };
        context.addBundleListener(frameworkStopping);
    }

    private static boolean bool(Map<String, Object> config, String name, boolean fallback) {
        Object v = config.get(name);
        if (v == null || String.valueOf(v).isBlank()) {
            return fallback;
        }
        String text = String.valueOf(v).trim();
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(name + " must be true or false, got '" + v + "'");
        }
        return Boolean.parseBoolean(text);
    }

    private static boolean connected(ConnectionState state) {
        return state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED;
    }

    private static long millis(Map<String, Object> config, String name, long fallback) {
        Object v = config.get(name);
        if (v == null || String.valueOf(v).isBlank()) {
            return fallback;
        }
        long ms;
        try {
            ms = Long.parseLong(String.valueOf(v).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number of milliseconds, got '" + v + "'");
        }
        if (ms < 0) {
            throw new IllegalArgumentException(name + " must not be negative, got " + ms);
        }
        return ms;
    }

    /** A stop hands this instance's switches to the others before the session closes. */
    @Deactivate
    void deactivate() {
        try {
            context.removeBundleListener(frameworkStopping);
        } catch (IllegalStateException e) {
            // the bundle is stopping: its listeners go with it
        }
        election.handOverAll(handOverTimeoutMs);
        registration.close();
        election.close();
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public CompletionStage<Void> initialize(OFSwitch sw) {
        return election.switchConnected(sw);
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        election.switchDisconnected(sw);
    }

    @Override
    public Map<DatapathId, Mastership> getMasterships() {
        return election.getMasterships();
    }

    @Override
    public Optional<Mastership> getMastership(DatapathId switchId) {
        return election.getMastership(switchId);
    }

    @Override
    public CompletableFuture<Mastership> moveMastership(DatapathId switchId, String instanceId) {
        return election.moveMastership(switchId, instanceId);
    }

    @Override
    public CompletableFuture<Map<DatapathId, Mastership>> rebalance() {
        return election.rebalance();
    }

    @Override
    public List<Sample> samples() {
        return samples(instanceId, election.getMasterships().values());
    }

    /** The cluster's switches (those some instance is connected to) and how many of them {@code me} masters. */
    static List<Sample> samples(String me, Collection<Mastership> masterships) {
        long here = masterships.stream().filter(m -> me.equals(m.master())).count();
        return List.of(
                new Sample("heliograph_cluster_switches", MetricSource.Type.GAUGE,
                        "Switches some instance of the cluster is connected to", Map.of(), masterships.size()),
                new Sample("heliograph_cluster_switches_mastered", MetricSource.Type.GAUGE,
                        "Switches this instance is master of, as ZooKeeper decided", Map.of(), here));
    }
}
