package io.heliograph.staticflows.internal;

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
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.DatapathId;

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
 * Wires the static-flow app ({@link StaticFlowsRuntime}) into the controller: the service other
 * bundles and the shell use, a switch listener, the ERROR listener "staticflows" through which the
 * switch's refusals reach the pushes, and the metrics of reconciliation, configured by pid
 * {@value #PID}. The entries live in the cluster's {@link SharedStore}, a constructor reference: without
 * it there is nowhere to keep them. The switch service is optional and dynamic: the OpenFlow component
 * that provides it takes our listeners, so a mandatory reference back to it would make each
 * component's activation wait for the other's (SCR's circular activation, which fails).
 */
@Component(service = {StaticFlowService.class, SwitchListener.class, MessageListener.class, MetricSource.class},
        configurationPid = StaticFlowsComponent.PID)
@Designate(ocd = StaticFlowsConfig.class)
public final class StaticFlowsComponent implements StaticFlowService, SwitchListener, MessageListener, MetricSource {

    public static final String PID = "io.heliograph.staticflows";
    public static final String NAME = "staticflows";
    static final String DATA_DIR_PROPERTY = "heliograph.data.dir";

    private final StaticFlowsRuntime runtime;

    @Activate
    public StaticFlowsComponent(@Reference SharedStore store, BundleContext context, StaticFlowsConfig config) {
        runtime = new StaticFlowsRuntime(store);
        runtime.configure(context.getProperty(DATA_DIR_PROPERTY), config);
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
        runtime.configure(context.getProperty(DATA_DIR_PROPERTY), config);
    }

    @Deactivate
    void deactivate() {
        runtime.stop();
    }

    StaticFlows flows() {
        return runtime.flows();
    }

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

    @Override
    public List<Sample> samples() {
        return runtime.samples();
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public void switchAdded(OFSwitch sw) {
        runtime.switchAdded(sw);
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        runtime.switchRemoved(sw);
    }

    @Override
    public void roleChanged(OFSwitch sw, Role role) {
        runtime.roleChanged(sw, role);
    }

    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        runtime.portChanged(sw, change);
    }

    @Override
    public Set<OFType> getTypes() {
        return Set.of(OFType.ERROR);
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        return runtime.receive(sw, message);
    }
}
