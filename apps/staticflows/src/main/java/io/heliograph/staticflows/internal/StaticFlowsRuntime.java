package io.heliograph.staticflows.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.MetricSource.Sample;
import io.heliograph.core.MetricSource.Type;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.staticflows.Reconciliation;

/**
 * The static-flow app's runtime, apart from its DS wiring ({@link StaticFlowsComponent}): the
 * {@link StaticFlows} of the configuration in force, its thread, "staticflows" (reconciliation,
 * bookkeeping and store writes after a switch answers, off the switch's I/O thread; retries), the
 * start that follows the store and retries while it cannot be reached, the switch service, which
 * may come and go, and what the switches' events mean to the app.
 *
 * <p>A switch is reconciled with the entries whenever this instance starts writing to it: when it is
 * announced with no role ({@link #switchAdded}), when this instance becomes its master
 * ({@link #roleChanged}), and for every connected switch once the store is followed. Always after
 * the switch is announced and on the app's thread, never in the handshake: a switch that does not
 * answer statistics requests is served all the same, and its reconciliation is retried with a
 * backoff and reported (see {@link StaticFlows}). As SLAVE this instance writes nothing.
 */
final class StaticFlowsRuntime {

    /** How often the start is tried again while the store cannot be reached. */
    static final long START_RETRY_MS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(StaticFlowsRuntime.class);

    private final SharedStore store;
    private final ScheduledExecutorService executor = WorkerThreads.single("staticflows");
    private volatile SwitchService switchService;
    private volatile StaticFlows flows;

    StaticFlowsRuntime(SharedStore store) {
        this.store = store;
    }

    void bindSwitchService(SwitchService service) {
        switchService = service;
        // Entries added while the service was away reached no switch; reconciliation adds only what is missing.
        reconcileConnected(flows);
    }

    void unbindSwitchService(SwitchService service) {
        if (switchService == service) {
            switchService = null;
        }
    }

    /** The connected switch with this id, or null (also while there is no switch service). */
    private OFSwitch connectedSwitch(DatapathId dpid) {
        SwitchService service = switchService;
        return service == null ? null : service.getSwitch(dpid);
    }

    private void reconcileConnected(StaticFlows f) {
        SwitchService service = switchService;
        if (f == null || service == null) {
            return;
        }
        for (OFSwitch sw : service.getSwitches().values()) {
            f.reconcile(sw);
        }
    }

    /**
     * Applies a configuration: the entry directory it names, or {@code <dataDir>/staticflows} (the
     * data directory {@code data} when none is set), and its reconciliation settings.
     */
    void configure(String dataDir, StaticFlowsConfig config) {
        Path directory = config.directory().isBlank()
                ? Path.of(dataDir == null || dataDir.isBlank() ? "data" : dataDir, StaticFlowsComponent.NAME)
                : Path.of(config.directory());
        configure(directory, settings(config));
    }

    /** The configured settings; refused ones (logged) leave the defaults in force. */
    static ReconcileSettings settings(StaticFlowsConfig config) {
        try {
            return new ReconcileSettings(config.removeStale(), config.reconcileRetryFirstMs(), config.reconcileRetryMaxMs(),
                    config.reconcileNotPossibleAfter());
        } catch (IllegalArgumentException e) {
            ReconcileSettings defaults = new ReconcileSettings(config.removeStale(), ReconcileSettings.DEFAULTS.retryFirstMs(),
                    ReconcileSettings.DEFAULTS.retryMaxMs(), ReconcileSettings.DEFAULTS.notPossibleAfter());
            LOG.error("Configuration {} refused, reconciling with {}: {}", StaticFlowsComponent.PID, defaults, e.getMessage());
            return defaults;
        }
    }

    /** Replaces the app with one of these settings, which imports the legacy file in {@code directory} once. */
    void configure(Path directory, ReconcileSettings settings) {
        StaticFlows next = new StaticFlows(new EntryStore(store), this::connectedSwitch, settings, executor,
                RetryTimer.on(executor), LOG::warn);
        StaticFlows previous = flows;
        flows = next;
        if (previous != null) {
            previous.stop();
        }
        // At once, so the entries are there when the component's services are: the store answers or fails fast.
        start(next, new EntryFile(directory, Clock.systemUTC()), true);
    }

    /** Follows the store, retrying while it cannot be reached; then reconciles the connected switches. */
    private void start(StaticFlows f, EntryFile legacy, boolean first) {
        if (flows != f) {
            return; // reconfigured meanwhile
        }
        try {
            f.start(legacy);
        } catch (StoreUnavailableException e) {
            if (first) {
                LOG.warn("Static entries: waiting for the cluster's shared store ({}); adds and deletes answer "
                        + "UNAVAILABLE until it is reached", e.getMessage());
            }
            executor.schedule(() -> start(f, legacy, false), START_RETRY_MS, TimeUnit.MILLISECONDS);
            return;
        }
        reconcileConnected(f);
    }

    void stop() {
        StaticFlows f = flows;
        if (f != null) {
            f.stop();
        }
        executor.shutdownNow();
        LOG.info("staticflows stopped; entries stay on the switches and in the cluster's store");
    }

    StaticFlows flows() {
        return flows;
    }

    // ---- the switches' events ----

    /**
     * Reconciles an announced switch. A MASTER role set during the handshake is told to
     * {@link #roleChanged} right after this (SwitchListener's contract), which reconciles then: once, not twice.
     */
    void switchAdded(OFSwitch sw) {
        if (sw.getRole() != Role.MASTER) {
            reconcileSoon(sw);
        }
    }

    void switchRemoved(OFSwitch sw) {
        flows.stoppedWriting(sw.getId());
    }

    /** A new master reconciles the switch (no flush: what is right stays); a SLAVE stops writing at once. */
    void roleChanged(OFSwitch sw, Role role) {
        if (role == Role.SLAVE) {
            flows.stoppedWriting(sw.getId());
        } else {
            reconcileSoon(sw);
        }
    }

    /** A new port may be the one an entry was waiting for: try again (reconciliation adds only what is missing). */
    void portChanged(OFSwitch sw, PortChange change) {
        if (change == PortChange.ADDED && flows.hasUnsupported(sw.getId())) {
            reconcileSoon(sw);
        }
    }

    /** An ERROR from a switch: our refusals are reported to whoever pushed the entry; other apps' errors go on down the pipeline. */
    Command receive(OFSwitch sw, OFMessage message) {
        return message instanceof OFErrorMsg error && flows.onError(sw, error) ? Command.STOP : Command.CONTINUE;
    }

    /** Off the switch's I/O thread: reconciliation validates every entry of the switch under the app's lock. */
    private void reconcileSoon(OFSwitch sw) {
        StaticFlows f = flows;
        try {
            executor.execute(() -> f.reconcile(sw));
        } catch (RejectedExecutionException e) {
            LOG.debug("staticflows stopped: {} not reconciled", sw.getId());
        }
    }

    /** Switches by the state of their reconciliation, and the attempts. */
    List<Sample> samples() {
        StaticFlows f = flows;
        Map<Reconciliation.State, Integer> byState = new EnumMap<>(Reconciliation.State.class);
        for (Reconciliation.State state : Reconciliation.State.values()) {
            if (state != Reconciliation.State.SLAVE) {
                byState.put(state, 0);
            }
        }
        f.reconciliations().forEach(r -> byState.merge(r.state(), 1, Integer::sum));
        List<Sample> samples = new ArrayList<>();
        byState.forEach((state, n) -> samples.add(new Sample("heliograph_staticflows_switches", Type.GAUGE,
                "Switches this instance writes to, by the state of their reconciliation with the static entries "
                        + "(NOT_POSSIBLE: their tables cannot be read; entries pushed unverified)",
                Map.of("reconciliation", state.name()), n)));
        long[] attempts = f.attempts();
        String help = "Reconciliation attempts since the app started, by whether they reconciled the switch "
                + "(failed: the switch's tables could not be read, or it did not confirm the push)";
        samples.add(new Sample("heliograph_staticflows_reconciliation_attempts_total", Type.COUNTER, help,
                Map.of("result", "reconciled"), attempts[0]));
        samples.add(new Sample("heliograph_staticflows_reconciliation_attempts_total", Type.COUNTER, help,
                Map.of("result", "failed"), attempts[1]));
        return samples;
    }
}
