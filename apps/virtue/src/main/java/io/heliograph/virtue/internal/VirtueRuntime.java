package io.heliograph.virtue.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.BoundService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.ClusterSingleton;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.solver.SolverService;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.stats.StatisticsService;
import io.heliograph.virtue.engine.Algorithms;
import io.heliograph.virtue.engine.Model;
import io.heliograph.virtue.engine.PlacementAlgorithm;
import io.heliograph.virtue.live.VlanRouting;

/**
 * The Virtue app's runtime, plain Java: its threads, its database, its binding to the cluster (the
 * measurement and optimiser singletons, {@link VirtueSharing}) and the {@link ExperimentService} the
 * REST API uses. The DS component ({@link VirtueComponent}) creates it and hands it the services as
 * they come and go.
 */
final class VirtueRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(VirtueRuntime.class);
    static final String NAME = "virtue";
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    final BoundService<StaticFlowService> staticFlows = new BoundService<>();
    final BoundService<StatisticsService> statistics = new BoundService<>();
    final BoundService<SolverService> solver = new BoundService<>();

    private final Clock clock;
    private final String instance;
    private final ScheduledExecutorService thread = WorkerThreads.single("heliograph-virtue");
    private final ClusterSharing<VirtueSharing> sharing = new ClusterSharing<>(NAME, this::share, ended -> {
    });
    private final VirtueDatabaseAccess database;
    private final ExperimentService service;
    private final MeasurementQueries queries;

    private volatile VirtueSettings settings;
    private volatile VlanRouting routing;
    private volatile ExecutorService runs;
    private volatile MeasurementTask measurement;

    VirtueRuntime(VirtueSettings settings, Path dataDir, String instance, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.instance = instance;
        this.routing = new VlanRouting(settings.vlanBase(), settings.priority());
        this.runs = runs(settings.optimiserThreads());
        this.database = new VirtueDatabaseAccess(dataDir);
        this.service = new ExperimentService(sharing::store, staticFlows, database, () -> routing, clock);
        this.queries = new MeasurementQueries(service, database);
    }

    void start() {
        database.open(settings);
        sharing.start();
        LOG.info("virtue active on instance {} ({})", instance, settings);
    }

    /** Applies new settings live: the interval from the next round, routes from the next start, the database at once. */
    void configure(VirtueSettings next) {
        VirtueSettings previous = settings;
        settings = next;
        routing = new VlanRouting(next.vlanBase(), next.priority());
        MeasurementTask task = measurement;
        if (task != null && next.sampleSeconds() != previous.sampleSeconds()) {
            VirtueSharing open = sharing.current();
            task.interval(next.sampleSeconds() * 1000L, open != null && open.measuring());
        }
        if (next.optimiserThreads() != previous.optimiserThreads()) {
            ExecutorService old = runs;
            runs = runs(next.optimiserThreads());
            old.shutdown(); // what runs there finishes; new runs go to the new threads
        }
        if (next.otherDatabase(previous) || next.maxPendingRows() != previous.maxPendingRows()) {
            database.open(next);
        }
        LOG.info("virtue reconfigured ({})", next);
    }

    void stop() {
        sharing.stop();
        WorkerThreads.stop(thread, "heliograph-virtue", STOP_WAIT);
        runs.shutdownNow();
        database.close();
        LOG.info("virtue stopped");
    }

    ClusterSharing<VirtueSharing> clusterSharing() {
        return sharing;
    }

    ExperimentService service() {
        return service;
    }

    MeasurementQueries queries() {
        return queries;
    }

    VirtueDatabaseAccess database() {
        return database;
    }

    VirtueSettings settings() {
        return settings;
    }

    /** On the sharing's thread: the two singletons, competing through the store bound now. */
    private VirtueSharing share(SharedStore store, ClusterService cluster, ScheduledExecutorService storeThread) {
        String here = cluster.getLocalInstance() == null ? instance : cluster.getLocalInstance().id();
        MeasurementTask task = new MeasurementTask(() -> new ExperimentStore(store), statistics, () -> routing,
                database, clock, thread, settings.sampleSeconds() * 1000L);
        measurement = task;
        OptimiserTask optimiser = new OptimiserTask(new OptimisationStore(store), new ExperimentStore(store), here,
                this::algorithm, () -> runs, () -> settings.optimiserThreads(), thread, clock);
        return new VirtueSharing(new ClusterSingleton(store, MeasurementTask.SINGLETON, task, storeThread),
                new ClusterSingleton(store, OptimiserTask.SINGLETON, optimiser, storeThread));
    }

    /** An algorithm by name; the Model runs on the solver bundle, within the optimisation's time limit. */
    private Optional<PlacementAlgorithm> algorithm(String name, int timeLimitSeconds) {
        if (Model.NAME.equals(name)) {
            SolverService s = solver.get();
            return s == null ? Optional.empty()
                    : Optional.of(new Model(s, Duration.ofSeconds(timeLimitSeconds), Model.MAX_WORKERS));
        }
        return Algorithms.byName(name);
    }

    private static ExecutorService runs(int threads) {
        return Executors.newFixedThreadPool(threads, WorkerThreads.named("heliograph-virtue-optimiser"));
    }
}
