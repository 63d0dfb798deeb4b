package io.heliograph.vdn.internal;

import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharingComponent;
import io.heliograph.solver.SolverService;
import java.time.Clock;
import java.util.List;
import java.util.Map;
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

/**
 * Wires the VDN app ({@link VdnRuntime}) into the controller, configured by pid {@value #PID}. The solver
 * (the central optimiser's OR-Tools) is optional and dynamic: without it decisions wait and say so; the
 * shared store and cluster (through {@link SharingComponent}) run the optimiser as a singleton and share
 * the operator's settings, the agents' reports and the decisions.
 */
@Component(service = {Vdn.class, ClusterListener.class}, configurationPid = VdnComponent.PID)
@Designate(ocd = VdnConfig.class)
public final class VdnComponent extends SharingComponent implements Vdn {

    public static final String PID = "io.heliograph.vdn";
    static final String INSTANCE_PROPERTY = "heliograph.instance.id";
    private static final Logger LOG = LoggerFactory.getLogger(VdnComponent.class);

    private final VdnRuntime runtime;

    @Activate
    public VdnComponent(BundleContext context, VdnConfig config) {
        String instance = context.getProperty(INSTANCE_PROPERTY);
        runtime = new VdnRuntime(settingsOr(VdnSettings.DEFAULTS, config), instance == null ? "local" : instance,
                Clock.systemUTC());
        runtime.start();
    }

    @Modified
    void modified(VdnConfig config) {
        VdnSettings next = settingsOr(runtime.settings(), config);
        if (!next.equals(runtime.settings())) {
            runtime.configure(next);
        }
    }

    @Deactivate
    void deactivate() {
        runtime.stop();
    }

    static VdnSettings settingsOr(VdnSettings fallback, VdnConfig config) {
        return ConfiguredSettings.orPrevious(LOG, PID, fallback, () -> new VdnSettings(config.periodSeconds(),
                config.timeLimitSeconds(), config.gapPercent(), config.workers(), config.stalePercent(),
                config.controllerTimeoutSeconds(), config.shadowVersions(), config.reportTimeoutSeconds()));
    }

    @Override
    protected ClusterSharing<?> clusterSharing() {
        return runtime.clusterSharing();
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setSolverService(SolverService service) {
        runtime.solver.bind(service);
    }

    void unsetSolverService(SolverService service) {
        runtime.solver.unbind(service);
    }

    // Vdn, for the REST resources

    @Override
    public Map<String, Object> topology() {
        return runtime.topology();
    }

    @Override
    public Map<String, Object> putTopology(Object body) {
        return runtime.putTopology(body);
    }

    @Override
    public Map<String, Object> knobs() {
        return runtime.knobs();
    }

    @Override
    public Map<String, Object> putKnobs(Object body) {
        return runtime.putKnobs(body);
    }

    @Override
    public Map<String, String> agentKeys() {
        return runtime.agentKeys();
    }

    @Override
    public List<Map<String, Object>> clusters() {
        return runtime.clusters();
    }

    @Override
    public Map<String, Object> report(String cluster, String agentKey, Object body) {
        return runtime.report(cluster, agentKey, body);
    }

    @Override
    public Map<String, Object> rib(String cluster) {
        return runtime.rib(cluster);
    }

    @Override
    public Map<String, Object> fib(String cluster) {
        return runtime.fib(cluster);
    }

    @Override
    public Map<String, Object> putFib(String cluster, String agentKey, Object body) {
        return runtime.putFib(cluster, agentKey, body);
    }

    @Override
    public Map<String, Object> serving() {
        return runtime.serving();
    }

    @Override
    public Map<String, Object> trees(String video) {
        return runtime.trees(video);
    }

    @Override
    public Map<String, Object> decision() {
        return runtime.decision();
    }
}
