package io.heliograph.staticflows.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;

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
import io.heliograph.core.cluster.SharedStore;
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

    private static final Logger LOG = LoggerFactory.getLogger(StaticFlowsComponent.class);

    private final StaticFlowsRuntime runtime;

    @Activate
    public StaticFlowsComponent(@Reference SharedStore store, BundleContext context, StaticFlowsConfig config) {
        runtime = new StaticFlowsRuntime(store, LOG::warn);
        configure(context.getProperty(DATA_DIR_PROPERTY), config);
    }

    /** Wired by hand, with the switch service at hand from the start (as in the unit tests). */
    StaticFlowsComponent(SharedStore store, SwitchService switchService, BundleContext context, StaticFlowsConfig config) {
        this(store, context, config);
        bindSwitchService(switchService);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void bindSwitchService(SwitchService service) {
        runtime.bindSwitchService(service);
    }

    void unbindSwitchService(SwitchService service) {
        runtime.unbindSwitchService(service);
    }

    @Modified
    void modified(BundleContext context, StaticFlowsConfig config) {
        configure(context.getProperty(DATA_DIR_PROPERTY), config);
    }

    @Deactivate
    void deactivate() {
        runtime.stop();
        LOG.info("staticflows stopped; entries stay on the switches and in the cluster's store");
    }

    private void configure(String dataDir, StaticFlowsConfig config) {
        Path directory = config.directory().isBlank()
                ? Path.of(dataDir == null || dataDir.isBlank() ? "data" : dataDir, NAME)
                : Path.of(config.directory());
        runtime.configure(directory, settings(config));
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
        return runtime.flows();
    }

    // ---- StaticFlowService ----

    @Override
    public List<String> validate(StaticEntry entry) {
        return flows().validate(entry);
    }

    @Override
    public CompletionStage<Result> add(StaticEntry entry) {
        return flows().add(entry);
    }

    @Override
    public CompletionStage<Result> delete(DatapathId dpid, String name) {
        return flows().delete(dpid, name);
    }

    @Override
    public List<EntryStatus> list(DatapathId dpid) {
        return flows().list(dpid);
    }

    @Override
    public List<EntryStatus> list() {
        return flows().list();
    }

    @Override
    public List<Reconciliation> reconciliations() {
        return flows().reconciliations();
    }

    @Override
    public Optional<Reconciliation> reconciliation(DatapathId dpid) {
        return flows().reconciliation(dpid);
    }

    // ---- metrics ----

    @Override
    public List<Sample> samples() {
        return runtime.samples();
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
            runtime.reconcileSoon(sw);
        }
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        flows().stoppedWriting(sw.getId());
    }

    /** A new master reconciles the switch (no flush: what is right stays); a SLAVE stops writing at once. */
    @Override
    public void roleChanged(OFSwitch sw, Role role) {
        if (role == Role.SLAVE) {
            flows().stoppedWriting(sw.getId());
        } else {
            runtime.reconcileSoon(sw);
        }
    }

    /** A new port may be the one an entry was waiting for: try again (reconciliation adds only what is missing). */
    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        if (change == PortChange.ADDED && flows().hasUnsupported(sw.getId())) {
            runtime.reconcileSoon(sw);
        }
    }

    @Override
    public Set<OFType> getTypes() {
        return Set.of(OFType.ERROR);
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        // Our refusals are reported to whoever pushed the entry; other apps' errors go on down the pipeline.
        return message instanceof OFErrorMsg error && flows().onError(sw, error) ? Command.STOP : Command.CONTINUE;
    }
}
