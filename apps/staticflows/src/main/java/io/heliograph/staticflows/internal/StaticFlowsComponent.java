package io.heliograph.staticflows.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener;
import io.heliograph.core.MetricSource;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.Reconciliation;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;

/**
 * Wires {@link StaticFlows} into the controller: the service other bundles and the shell use, a
 * switch listener (switches announced and gone, role changes, ports), the ERROR listener
 * "staticflows" through which the switch's refusals reach the pushes, and the metrics of
 * reconciliation (switches by {@link Reconciliation.State}, attempts). The entries live in the
 * cluster's {@link SharedStore}, a mandatory reference: without it there is nowhere to keep them. A
 * legacy entry file ({@code <heliograph.data.dir>/staticflows/}, or the directory pid {@value #PID}
 * names) is imported into the store once, at the first start.
 *
 * <p>A switch is reconciled with the entries whenever this instance starts writing to it: when it is
 * announced with no role ({@link #switchAdded}), when this instance becomes its master
 * ({@link #roleChanged}), and for every connected switch once the store is followed. Always after
 * the switch is announced and on this component's thread, never in the handshake: a switch that
 * does not answer statistics requests is served all the same, and its reconciliation is retried
 * with a backoff and reported (see {@link StaticFlows}). As SLAVE this instance writes nothing.
 *
 * <p>The switch service is an optional, dynamic reference: the OpenFlow component that provides it
 * takes our listeners, so a mandatory reference back to it would make each component's activation
 * wait for the other's (SCR's circular activation, which fails). While it is absent, entries are
 * validated without a switch and stored; the switches already connected when the service appears
 * are reconciled then.
 */
@Component(service = {StaticFlowService.class, SwitchListener.class, MessageListener.class, MetricSource.class},
        configurationPid = StaticFlowsComponent.PID)
@Designate(ocd = StaticFlowsConfig.class)
public final class StaticFlowsComponent implements StaticFlowService, SwitchListener, MessageListener, MetricSource {

    public static final String PID = "io.heliograph.staticflows";
    public static final String NAME = "staticflows";
    static final String DATA_DIR_PROPERTY = "heliograph.data.dir";
    /** How often the start is tried again while the store cannot be reached. */
    static final long START_RETRY_MS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(StaticFlowsComponent.class);

    private final SharedStore store;
    private volatile SwitchService switchService;
    /** Reconciliation, bookkeeping and store writes after a switch answers, off the switch's I/O thread; retries. */
    private final ScheduledExecutorService executor = WorkerThreads.single("staticflows");
    private volatile StaticFlows flows;

    @Activate
    public StaticFlowsComponent(@Reference SharedStore store, BundleContext context, StaticFlowsConfig config) {
        this.store = store;
        configure(context.getProperty(DATA_DIR_PROPERTY), config);
    }

    /** Wired by hand, with the switch service at hand from the start (as in the unit tests). */
    StaticFlowsComponent(SharedStore store, SwitchService switchService, BundleContext context, StaticFlowsConfig config) {
        this(store, context, config);
        bindSwitchService(switchService);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
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

    @Modified
    void modified(BundleContext context, StaticFlowsConfig config) {
        configure(context.getProperty(DATA_DIR_PROPERTY), config);
    }

    @Deactivate
    void deactivate() {
        StaticFlows f = flows;
        if (f != null) {
            f.stop();
        }
        executor.shutdownNow();
        LOG.info("staticflows stopped; entries stay on the switches and in the cluster's store");
    }

    private void configure(String dataDir, StaticFlowsConfig config) {
        Path directory = config.directory().isBlank()
                ? Path.of(dataDir == null || dataDir.isBlank() ? "data" : dataDir, NAME)
                : Path.of(config.directory());
        StaticFlows next = new StaticFlows(new EntryStore(store), this::connectedSwitch, settings(config), executor,
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

    /** The configured settings; refused ones (logged) leave the defaults in force. */
    static ReconcileSettings settings(StaticFlowsConfig config) {
        try {
            return new ReconcileSettings(config.removeStale(), config.reconcileRetryFirstMs(), config.reconcileRetryMaxMs(),
                    config.reconcileNotPossibleAfter());
        } catch (IllegalArgumentException e) {
            ReconcileSettings defaults = new ReconcileSettings(config.removeStale(), ReconcileSettings.DEFAULTS.retryFirstMs(),
                    ReconcileSettings.DEFAULTS.retryMaxMs(), ReconcileSettings.DEFAULTS.notPossibleAfter());
            LOG.error("Configuration {} refused, reconciling with {}: {}", PID, defaults, e.getMessage());
            return defaults;
        }
    }

    StaticFlows flows() {
        return flows;
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

    // ---- StaticFlowService ----

    @Override
    public List<String> validate(StaticEntry entry) {
        return flows.validate(entry);
    }

    @Override
    public CompletionStage<Result> add(StaticEntry entry) {
        return flows.add(entry);
    }

    @Override
    public CompletionStage<Result> delete(DatapathId dpid, String name) {
        return flows.delete(dpid, name);
    }

    @Override
    public List<EntryStatus> list(DatapathId dpid) {
        return flows.list(dpid);
    }

    @Override
    public List<EntryStatus> list() {
        return flows.list();
    }

    @Override
    public List<Reconciliation> reconciliations() {
        return flows.reconciliations();
    }

    @Override
    public Optional<Reconciliation> reconciliation(DatapathId dpid) {
        return flows.reconciliation(dpid);
    }

    // ---- metrics ----

    @Override
    public List<Sample> samples() {
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

    // ---- switches ----

    @Override
    public String getName() {
        return NAME;
    }

    /**
     * Reconciles an announced switch. A MASTER role set during the handshake is told to
     * {@link #roleChanged} right after this (SwitchListener's contract), which reconciles then: once, not twice.
     */
    @Override
    public void switchAdded(OFSwitch sw) {
        if (sw.getRole() != Role.MASTER) {
            reconcileSoon(sw);
        }
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        flows.stoppedWriting(sw.getId());
    }

    /** A new master reconciles the switch (no flush: what is right stays); a SLAVE stops writing at once. */
    @Override
    public void roleChanged(OFSwitch sw, Role role) {
        if (role == Role.SLAVE) {
            flows.stoppedWriting(sw.getId());
        } else {
            reconcileSoon(sw);
        }
    }

    /** A new port may be the one an entry was waiting for: try again (reconciliation adds only what is missing). */
    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        StaticFlows f = flows;
        if (change == PortChange.ADDED && f.hasUnsupported(sw.getId())) {
            reconcileSoon(sw);
        }
    }

    @Override
    public Set<OFType> getTypes() {
        return Set.of(OFType.ERROR);
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        // Our refusals are reported to whoever pushed the entry; other apps' errors go on down the pipeline.
        return message instanceof OFErrorMsg error && flows.onError(sw, error) ? Command.STOP : Command.CONTINUE;
    }
}
