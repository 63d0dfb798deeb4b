package io.heliograph.circuit.internal;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.circuit.CircuitGroupsService;
import io.heliograph.circuit.CircuitScheduleService;
import io.heliograph.circuit.ReplicaPlacementService;
import io.heliograph.circuit.ScheduleView;
import io.heliograph.circuit.engine.CircuitGroups;
import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.SwitchService;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharingComponent;
import io.heliograph.stats.StatisticsService;

/**
 * Wires the circuit app ({@link CircuitRuntime}) into the controller, configured by pid {@value #PID}. Every
 * service it uses is optional and dynamic: the statistics app gives the VOQ counters, the switch service
 * the executor's switches, and the shared store and cluster (through {@link SharingComponent}) run the
 * scheduling loop as a singleton and share its weeks. It offers the schedule, the circuit groups and
 * replica placement to other apps.
 */
@Component(service = {Circuit.class, CircuitScheduleService.class, CircuitGroupsService.class,
        ReplicaPlacementService.class, ClusterListener.class}, configurationPid = CircuitComponent.PID)
@Designate(ocd = CircuitConfig.class)
public final class CircuitComponent extends SharingComponent
        implements Circuit, CircuitScheduleService, CircuitGroupsService, ReplicaPlacementService {

    public static final String PID = "io.heliograph.circuit";
    static final String INSTANCE_PROPERTY = "heliograph.instance.id";
    private static final Logger LOG = LoggerFactory.getLogger(CircuitComponent.class);

    private final CircuitRuntime runtime;

    @Activate
    public CircuitComponent(BundleContext context, CircuitConfig config) {
        String instance = context.getProperty(INSTANCE_PROPERTY);
        runtime = new CircuitRuntime(settingsOr(CircuitSettings.DEFAULTS, config), instance == null ? "local" : instance,
                CircuitRuntime::epochNanos, null);
        runtime.start();
    }

    @Modified
    void modified(CircuitConfig config) {
        CircuitSettings next = settingsOr(runtime.settings(), config);
        if (!next.equals(runtime.settings())) {
            runtime.configure(next);
        }
    }

    @Deactivate
    void deactivate() {
        runtime.stop();
    }

    static CircuitSettings settingsOr(CircuitSettings fallback, CircuitConfig config) {
        return ConfiguredSettings.orPrevious(LOG, PID, fallback, () -> CircuitSettings.read(config.groups(),
                config.circuitGbps(), config.packetGbps(), config.weekMicros(), config.nightMicros(),
                config.minDayMicros(), config.timeScale(), config.scheduler(), config.estimator(), config.fixedWeek(),
                config.replicaOffset(), config.replicaRotationMillis(), config.maxAduFlows(), config.fabric(),
                config.resizeTauMicros(), config.resizeSmallPackets(), config.resizeBigPackets(),
                config.resizeDevices(), config.resizeCommand()));
    }

    @Override
    protected ClusterSharing<?> clusterSharing() {
        return runtime.clusterSharing();
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setStatisticsService(StatisticsService service) {
        runtime.statistics.bind(service);
    }

    void unsetStatisticsService(StatisticsService service) {
        runtime.statistics.unbind(service);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setSwitchService(SwitchService service) {
        runtime.switches.bind(service);
    }

    void unsetSwitchService(SwitchService service) {
        runtime.switches.unbind(service);
    }

    // Circuit, for the REST resources

    @Override
    public Map<String, Object> schedule() {
        return runtime.schedule();
    }

    @Override
    public Map<String, Object> scheduler() {
        return runtime.scheduler();
    }

    @Override
    public Map<String, Object> choose(String body) {
        return runtime.choose(body);
    }

    @Override
    public Map<String, Object> demand() {
        return runtime.demand();
    }

    @Override
    public Map<String, Object> groupsJson() {
        return runtime.groupsJson();
    }

    @Override
    public Map<String, Object> placement(String writerRack) {
        return runtime.placement(writerRack);
    }

    @Override
    public Map<String, Object> reportAdus(String body) {
        return runtime.reportAdus(body);
    }

    // The services for other apps

    @Override
    public Optional<ScheduleView> current() {
        return runtime.current();
    }

    @Override
    public Optional<ScheduleView> next() {
        return runtime.next();
    }

    @Override
    public CircuitParameters parameters() {
        return runtime.parameters();
    }

    @Override
    public CircuitGroups groups() {
        return runtime.groups();
    }

    @Override
    public OptionalInt rackOf(String host) {
        return runtime.rackOf(host);
    }

    @Override
    public int replicaRack(int writerRack) {
        return runtime.replicaRack(writerRack);
    }
}
