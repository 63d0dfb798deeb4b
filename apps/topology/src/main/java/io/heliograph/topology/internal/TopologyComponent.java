package io.heliograph.topology.internal;

import java.util.List;
import java.util.Set;

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

import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.MessageListener;
import io.heliograph.core.MetricSource;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharingComponent;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyListener;
import io.heliograph.topology.TopologyService;

/**
 * Wires link discovery ({@link TopologyRuntime}) into the controller: PACKET_IN listener "topology",
 * switch listener, the {@link TopologyService}, the whiteboard of {@link TopologyListener}s, and the
 * runtime's {@link TopologyDiagnostics} for the shell and REST, its size as metrics, configured by pid {@value #PID}. The
 * store and cluster references ({@link SharingComponent}) are handed to the runtime's
 * {@link ClusterSharing}: without them (no cluster bundle) the app discovers alone.
 */
@Component(service = {TopologyService.class, MessageListener.class, SwitchListener.class,
    TopologyDiagnostics.Source.class, ClusterListener.class, MetricSource.class}, configurationPid = TopologyComponent.PID,
    immediate = true)
@Designate(ocd = TopologyConfig.class)
public final class TopologyComponent extends SharingComponent implements TopologyService, MessageListener,
        SwitchListener, TopologyDiagnostics.Source, MetricSource {

    public static final String PID = "io.heliograph.topology";
    public static final String NAME = "topology";

    private static final Logger LOG = LoggerFactory.getLogger(TopologyComponent.class);
    private static final Set<OFType> TYPES = Set.of(OFType.PACKET_IN);

    private final TopologyRuntime runtime;

    @Activate
    public TopologyComponent(TopologyConfig config) {
        runtime = new TopologyRuntime(parse(config, TopologySettings.DEFAULTS));
        LOG.info("topology active ({}, instance {})", runtime.settings(), runtime.instance());
    }

    /**
     * Optional and dynamic because the switch service's own component takes our SwitchListener: with
     * a mandatory reference each would wait for the other's activation lock.
     */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void setSwitchService(SwitchService switchService) {
        runtime.adoptSwitches(switchService);
    }

    void unsetSwitchService(SwitchService switchService) {
        // The switches leave through switchRemoved.
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addTopologyListener(TopologyListener listener) {
        runtime.addListener(listener);
    }

    void removeTopologyListener(TopologyListener listener) {
        runtime.removeListener(listener);
    }

    @Modified
    void modified(TopologyConfig config) {
        TopologySettings next = parse(config, runtime.settings());
        runtime.configure(next);
        LOG.info("topology reconfigured ({})", next);
    }

    @Deactivate
    void deactivate() {
        runtime.stop();
        LOG.info("topology stopped");
    }

    private static TopologySettings parse(TopologyConfig config, TopologySettings previous) {
        return ConfiguredSettings.orPrevious(LOG, PID, previous,
                () -> new TopologySettings(config.lldpIntervalMs(), config.linkTimeoutMs(), config.lldpMaxAgeMs()));
    }

    @Override
    protected ClusterSharing<?> clusterSharing() {
        return runtime.clusterSharing();
    }

    @Override
    public void connectionChanged(boolean connected) {
        super.connectionChanged(connected);
        if (connected) {
            runtime.adoptClusterKeySoon();
        }
    }

    @Override
    public TopologyDiagnostics diagnostics() {
        return runtime;
    }

    @Override
    public List<Sample> samples() {
        return TopologyMetrics.samples(runtime.topology());
    }

    @Override
    public Topology getTopology() {
        return runtime.topology();
    }

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
        return runtime.receive(sw, message);
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
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        runtime.portChanged(sw, port, change);
    }

    @Override
    public void roleChanged(OFSwitch sw, Role role) {
        runtime.roleChanged(sw, role);
    }
}
