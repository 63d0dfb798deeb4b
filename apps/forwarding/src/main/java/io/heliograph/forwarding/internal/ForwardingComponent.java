package io.heliograph.forwarding.internal;

import java.util.List;
import java.util.Set;

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
import org.projectfloodlight.openflow.protocol.OFType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.BoundService;
import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.MessageListener;
import io.heliograph.core.MetricSource;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;
import io.heliograph.devices.HostListener;
import io.heliograph.routing.RoutingService;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyListener;
import io.heliograph.topology.TopologyService;

/**
 * Wires {@link ReactiveForwarding} into the controller: PACKET_IN and FLOW_REMOVED listener
 * "forwarding" (after topology and devices in the pipeline, before the learning switch), topology
 * and host listener, its bounds and metrics as {@link StateBounds} and {@link MetricSource},
 * configured by pid {@value #PID}.
 *
 * <p>Every service reference is optional and dynamic: this component listens to the services it
 * uses, so a mandatory reference could make SCR activate it in a cycle with them. Each bind/unbind
 * pair hands the service to the {@link BoundService} that the runtime reads per packet; while one is
 * missing, packets pass on to the next listener.
 */
@Component(service = {MessageListener.class, TopologyListener.class, HostListener.class, SwitchListener.class,
    StateBounds.class, MetricSource.class}, configurationPid = ForwardingComponent.PID)
@Designate(ocd = ForwardingConfig.class)
public final class ForwardingComponent implements MessageListener, TopologyListener, HostListener, SwitchListener,
        StateBounds, MetricSource {

    public static final String PID = "io.heliograph.forwarding";

    private static final Logger LOG = LoggerFactory.getLogger(ForwardingComponent.class);

    private final BoundService<SwitchService> switches = new BoundService<>();
    private final BoundService<TopologyService> topology = new BoundService<>();
    private final BoundService<DeviceService> devices = new BoundService<>();
    private final BoundService<RoutingService> routing = new BoundService<>();
    private final ReactiveForwarding forwarding = new ReactiveForwarding(switches, topology, devices, routing,
            ForwardingSettings.DEFAULTS);

    @Activate
    void activate(ForwardingConfig config) {
        configure(config);
        LOG.info("forwarding active ({})", forwarding.settings());
    }

    @Modified
    void modified(ForwardingConfig config) {
        configure(config);
        LOG.info("forwarding reconfigured ({})", forwarding.settings());
    }

    @Deactivate
    void deactivate() {
        forwarding.forgetAll();
        LOG.info("forwarding stopped");
    }

    private void configure(ForwardingConfig config) {
        forwarding.configure(ConfiguredSettings.orPrevious(LOG, PID, forwarding.settings(),
                () -> new ForwardingSettings(config.idleTimeout(), config.hardTimeout(), config.priority(),
                        config.ecmp(), ForwardingSettings.granularity(config.matchGranularity()),
                        config.maxInstalledPaths(), config.maxHeldPackets(), config.heldTimeoutMs())));
    }

    @Reference(name = "switches", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindSwitches(SwitchService service) {
        switches.bind(service);
    }

    void unbindSwitches(SwitchService service) {
        switches.unbind(service);
    }

    @Reference(name = "topology", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindTopology(TopologyService service) {
        topology.bind(service);
    }

    void unbindTopology(TopologyService service) {
        topology.unbind(service);
    }

    @Reference(name = "devices", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindDevices(DeviceService service) {
        devices.bind(service);
    }

    void unbindDevices(DeviceService service) {
        devices.unbind(service);
    }

    @Reference(name = "routing", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindRouting(RoutingService service) {
        routing.bind(service);
    }

    void unbindRouting(RoutingService service) {
        routing.unbind(service);
    }

    ReactiveForwarding forwarding() {
        return forwarding;
    }

    @Override
    public String getName() {
        return ReactiveForwarding.NAME;
    }

    @Override
    public Set<OFType> getTypes() {
        return ReactiveForwarding.TYPES;
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        return forwarding.receive(sw, message);
    }

    @Override
    public void topologyChanged(List<TopologyEvent> events) {
        forwarding.topologyChanged(events);
    }

    @Override
    public void hostMoved(Host before, Host after) {
        forwarding.hostMoved(before, after);
    }

    @Override
    public void hostUpdated(Host before, Host after) {
        forwarding.hostUpdated(before, after);
    }

    @Override
    public void switchAdded(OFSwitch sw) {
        forwarding.switchAdded(sw);
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        forwarding.switchRemoved(sw);
    }

    @Override
    public void roleChanged(OFSwitch sw, Role role) {
        forwarding.roleChanged(sw, role);
    }

    @Override
    public void hostRemoved(Host host) {
        forwarding.hostRemoved(host);
    }

    @Override
    public List<Bound> bounds() {
        return forwarding.bounds();
    }

    @Override
    public List<Sample> samples() {
        return forwarding.samples();
    }
}
