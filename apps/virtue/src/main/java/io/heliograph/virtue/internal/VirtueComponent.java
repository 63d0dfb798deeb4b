package io.heliograph.virtue.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
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

import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharingComponent;
import io.heliograph.solver.SolverService;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.stats.StatisticsService;

/**
 * Wires the Virtue app ({@link VirtueRuntime}) into the controller, configured by pid {@value #PID}.
 * Every service it uses is optional and dynamic, so the app runs (and its REST answers, saying what is
 * missing) whatever else is loaded: the static flows app installs the routes, the statistics app
 * measures, the solver bundle runs the Model, and the shared store and cluster (through
 * {@link SharingComponent}) keep the experiments and run the measurement and optimiser singletons.
 */
@Component(service = {Virtue.class, ClusterListener.class}, configurationPid = VirtueComponent.PID)
@Designate(ocd = VirtueConfig.class)
public final class VirtueComponent extends SharingComponent implements Virtue {

    public static final String PID = "io.heliograph.virtue";
    static final String DATA_DIR_PROPERTY = "heliograph.data.dir";
    static final String INSTANCE_PROPERTY = "heliograph.instance.id";
    private static final Logger LOG = LoggerFactory.getLogger(VirtueComponent.class);

    private final VirtueRuntime runtime;

    @Activate
    public VirtueComponent(BundleContext context, VirtueConfig config) {
        String dataDir = context.getProperty(DATA_DIR_PROPERTY);
        String instance = context.getProperty(INSTANCE_PROPERTY);
        runtime = new VirtueRuntime(settingsOr(VirtueSettings.DEFAULTS, config),
                Path.of(dataDir == null ? "." : dataDir), instance == null ? "local" : instance, Clock.systemUTC());
        runtime.start();
    }

    @Modified
    void modified(VirtueConfig config) {
        VirtueSettings next = settingsOr(runtime.settings(), config);
        if (!next.equals(runtime.settings())) {
            runtime.configure(next);
        }
    }

    @Deactivate
    void deactivate() {
        runtime.stop();
    }

    private static VirtueSettings settingsOr(VirtueSettings fallback, VirtueConfig config) {
        return ConfiguredSettings.orPrevious(LOG, PID, fallback, () -> new VirtueSettings(config.sampleSeconds(),
                config.databaseUrl(), config.databaseUser(), config.databasePassword(), config.vlanBase(),
                config.priority(), config.optimiserThreads(), config.maxPendingRows()));
    }

    @Override
    protected ClusterSharing<?> clusterSharing() {
        return runtime.clusterSharing();
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setStaticFlowService(StaticFlowService service) {
        runtime.staticFlows.bind(service);
    }

    void unsetStaticFlowService(StaticFlowService service) {
        runtime.staticFlows.unbind(service);
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
    void setSolverService(SolverService service) {
        runtime.solver.bind(service);
    }

    void unsetSolverService(SolverService service) {
        runtime.solver.unbind(service);
    }

    @Override
    public ExperimentService experiments() {
        return runtime.service();
    }

    @Override
    public MeasurementQueries measurements() {
        return runtime.queries();
    }

    @Override
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        VirtueSharing sharing = runtime.clusterSharing().current();
        status.put("measuring", sharing != null && sharing.measuring());
        status.put("optimising", sharing != null && sharing.optimising());
        status.put("staticFlows", runtime.staticFlows.get() != null);
        status.put("statistics", runtime.statistics.get() != null);
        status.put("solver", runtime.solver.get() != null);
        status.put("sampleSeconds", runtime.settings().sampleSeconds());
        status.put("database", runtime.database().status());
        return status;
    }
}
