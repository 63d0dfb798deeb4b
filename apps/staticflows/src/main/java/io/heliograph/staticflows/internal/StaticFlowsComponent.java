package io.heliograph.staticflows.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
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
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchInitializer;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;

/**
 * Wires {@link StaticFlows} into the controller: the service other bundles and the shell use, a
 * switch initializer (entries are in place before a switch is announced), a switch listener (role
 * changes, ports), and the ERROR listener "staticflows" through which the switch's refusals reach
 * the pushes. The entries live in the cluster's {@link SharedStore}, a mandatory reference: without
 * it there is nowhere to keep them. A legacy entry file ({@code <heliograph.data.dir>/staticflows/},
 * or the directory pid {@value #PID} names) is imported into the store once, at the first start.
 *
 * <p>A switch is reconciled with the entries whenever this instance starts writing to it: when it
 * connects with no role (the initializer), when this instance becomes its master
 * ({@link #roleChanged}), and for every connected switch once the store is followed. As SLAVE this
 * instance writes nothing.
 *
 * <p>The switch service is an optional, dynamic reference: the OpenFlow component that provides it
 * takes our initializer and listener, so a mandatory reference back to it would make each
 * component's activation wait for the other's (SCR's circular activation, which fails). While it is
 * absent, entries are validated without a switch and stored; a switch that connects gets them
 * through {@link #initialize}, and the switches already connected when the service appears are
 * reconciled then.
 */
@Component(service = {StaticFlowService.class, SwitchInitializer.class, SwitchListener.class, MessageListener.class},
        configurationPid = StaticFlowsComponent.PID)
@Designate(ocd = StaticFlowsConfig.class)
public final class StaticFlowsComponent implements StaticFlowService, SwitchInitializer, SwitchListener, MessageListener {

    public static final String PID = "io.heliograph.staticflows";
    public static final String NAME = "staticflows";
    static final String DATA_DIR_PROPERTY = "heliograph.data.dir";
    /** How often the start is tried again while the store cannot be reached. */
    static final long START_RETRY_MS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(StaticFlowsComponent.class);

    private final SharedStore store;
    private volatile SwitchService switchService;
    /** Bookkeeping and store writes after a switch answers, off the switch's I/O thread; start retries. */
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "staticflows");
        t.setDaemon(true);
        return t;
    });
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
        StaticFlows next = new StaticFlows(new EntryStore(store), this::connectedSwitch, config.removeStale(), executor);
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

    StaticFlows flows() {
        return flows;
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

    // ---- switches ----

    @Override
    public String getName() {
        return NAME;
    }

    /**
     * Reconciles a connecting switch before it is announced. A role an earlier initializer set is
     * told to {@link #roleChanged} right after the announcement (SwitchListener's contract), which
     * reconciles a MASTER then: once, not twice.
     */
    @Override
    public CompletionStage<Void> initialize(OFSwitch sw) {
        StaticFlows f = flows;
        return f == null || sw.getRole() == Role.MASTER ? CompletableFuture.completedFuture(null) : f.reconcile(sw);
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        flows.stoppedWriting(sw.getId());
    }

    /** A new master reconciles the switch (no flush: what is right stays); a SLAVE stops writing at once. */
    @Override
    public void roleChanged(OFSwitch sw, Role role) {
        StaticFlows f = flows;
        if (role == Role.SLAVE) {
            f.stoppedWriting(sw.getId());
        } else {
            f.reconcile(sw);
        }
    }

    /** A new port may be the one an entry was waiting for: try again (reconciliation adds only what is missing). */
    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        StaticFlows f = flows;
        if (change == PortChange.ADDED && f.hasUnsupported(sw.getId())) {
            f.reconcile(sw);
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
