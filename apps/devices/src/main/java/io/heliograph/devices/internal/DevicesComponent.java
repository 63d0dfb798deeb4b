package io.heliograph.devices.internal;

import java.util.Collection;
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
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.MetricSource;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharingComponent;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;
import io.heliograph.devices.HostListener;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyListener;
import io.heliograph.topology.TopologyService;

/**
 * Wires {@link DeviceManager} into the controller: PACKET_IN listener "devices" (always CONTINUE),
 * switch and topology listener, {@link DeviceService}, HostListener whiteboard, its bounds as
 * {@link StateBounds}, its host count as {@link MetricSource}, configured by pid {@value #PID}. The
 * topology is optional: without it every port counts as an edge port.
 *
 * <p>In a cluster (the store and cluster references of {@link SharingComponent} are bound) the hosts
 * are shared through {@link SharedHosts}, opened and reopened by the {@link ClusterSharing} of its
 * {@link DevicesRuntime} as the services come and go. Without them the app tracks alone.
 */
@Component(service = {DeviceService.class, MessageListener.class, SwitchListener.class, TopologyListener.class,
    ClusterListener.class, StateBounds.class, MetricSource.class}, configurationPid = DevicesComponent.PID)
@Designate(ocd = DevicesConfig.class)
public final class DevicesComponent extends SharingComponent implements DeviceService, MessageListener,
        SwitchListener, TopologyListener, StateBounds, MetricSource {

    public static final String PID = "io.heliograph.devices";
    static final String NAME = "devices";

    private static final Logger LOG = LoggerFactory.getLogger(DevicesComponent.class);
    private static final Set<OFType> TYPES = Set.of(OFType.PACKET_IN);

    private final DevicesRuntime runtime = new DevicesRuntime();

    @Activate
    void activate(DevicesConfig config) {
        runtime.start(settingsOr(TrackerSettings.DEFAULTS, config));
        LOG.info("devices active ({})", runtime.manager().settings());
    }

    @Modified
    void modified(DevicesConfig config) {
        TrackerSettings next = settingsOr(settings(), config);
        if (runtime.configure(next)) {
            LOG.info("devices reconfigured ({})", next);
        }
    }

    @Deactivate
    void deactivate() {
        runtime.stop();
        LOG.info("devices stopped");
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addHostListener(HostListener listener) {
        runtime.addListener(listener);
    }

    void removeHostListener(HostListener listener) {
        runtime.removeListener(listener);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setTopologyService(TopologyService service) {
        runtime.setTopology(service);
    }

    void unsetTopologyService(TopologyService service) {
        runtime.unsetTopology(service);
    }

    @Override
    protected ClusterSharing<?> clusterSharing() {
        return runtime.clusterSharing();
    }

    TrackerSettings settings() {
        return runtime.manager().settings();
    }

    private static TrackerSettings settingsOr(TrackerSettings fallback, DevicesConfig config) {
        return ConfiguredSettings.orPrevious(LOG, PID, fallback, () -> new TrackerSettings(config.hostTimeoutMs(),
                config.multiHomeWindowMs(), config.maxAttachmentPoints(), config.maxAddressesPerHost(),
                config.maxHosts(), config.maxHostsPerPort(), config.hostIdleMs(), config.maxPending()));
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Set<OFType> getTypes() {
        return TYPES;
    }

    /** Learning only: the packet always goes on down the pipeline. */
    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        runtime.learn(sw, message);
        return Command.CONTINUE;
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        runtime.whenRunning(manager -> manager.switchRemoved(sw.getId()));
    }

    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        runtime.whenRunning(manager -> manager.portChanged(sw.getId(), port, change));
    }

    @Override
    public void topologyChanged(List<TopologyEvent> events) {
        runtime.whenRunning(manager -> manager.topologyChanged(events));
    }

    @Override
    public Collection<Host> getHosts() {
        return runtime.reads().getHosts();
    }

    @Override
    public Host getHost(MacAddress mac, VlanVid vlan) {
        return runtime.reads().getHost(mac, vlan);
    }

    @Override
    public Collection<Host> getHostsByMac(MacAddress mac) {
        return runtime.reads().getHostsByMac(mac);
    }

    @Override
    public Collection<Host> getHostsByIpv4(IPv4Address address) {
        return runtime.reads().getHostsByIpv4(address);
    }

    @Override
    public Collection<Host> getHostsByIpv6(IPv6Address address) {
        return runtime.reads().getHostsByIpv6(address);
    }

    @Override
    public Collection<Host> getHostsAt(SwitchPort port) {
        return runtime.reads().getHostsAt(port);
    }

    @Override
    public List<Bound> bounds() {
        return runtime.bounds();
    }

    @Override
    public List<Sample> samples() {
        return runtime.samples();
    }
}
