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
import java.util.function.Consumer;

import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MetricSource.Sample;
import io.heliograph.core.MetricSource.Type;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.staticflows.Reconciliation;

/**
 * The static-flow app's runtime, apart from its DS wiring ({@link StaticFlowsComponent}): the
 * {@link StaticFlows} of the configuration in force, its thread, "staticflows" (reconciliation,
 * bookkeeping and store writes after a switch answers, off the switch's I/O thread; retries), the
 * start that follows the store and retries while it cannot be reached, and the switch service, which
 * may come and go.
 */
final class StaticFlowsRuntime {

    /** How often the start is tried again while the store cannot be reached. */
    static final long START_RETRY_MS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(StaticFlowsRuntime.class);

    private final SharedStore store;
    private final Consumer<String> warn;
    private final ScheduledExecutorService executor = WorkerThreads.single("staticflows");
    private volatile SwitchService switchService;
    private volatile StaticFlows flows;

    /** @param warn where the app's warnings go (the component's log) */
    StaticFlowsRuntime(SharedStore store, Consumer<String> warn) {
        this.store = store;
        this.warn = warn;
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

    /** Replaces the app with one of these settings, which imports the legacy file in {@code directory} once. */
    void configure(Path directory, ReconcileSettings settings) {
        StaticFlows next = new StaticFlows(new EntryStore(store), this::connectedSwitch, settings, executor,
                RetryTimer.on(executor), warn::accept);
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
                warn.accept("Static entries: waiting for the cluster's shared store (" + e.getMessage()
                        + "); adds and deletes answer UNAVAILABLE until it is reached");
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
    }

    StaticFlows flows() {
        return flows;
    }

    /** Off the switch's I/O thread: reconciliation validates every entry of the switch under the app's lock. */
    void reconcileSoon(OFSwitch sw) {
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
