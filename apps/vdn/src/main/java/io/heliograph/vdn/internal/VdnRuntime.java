package io.heliograph.vdn.internal;

import io.heliograph.core.BoundService;
import io.heliograph.core.Refusal;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.hybrid.DecisionTableJson;
import io.heliograph.solver.SolverService;
import io.heliograph.vdn.engine.ClusterReport;
import io.heliograph.vdn.engine.Knobs;
import io.heliograph.vdn.engine.Node;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TopologyJson;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The VDN app's runtime, plain Java: what the operator set ({@link Network}), the agents' reports and
 * FIBs, the latest decision, and the central optimiser's rounds on the app's own thread. Alone (no store
 * or cluster bound) the rounds run here and everything is this instance's; shared, the operator's
 * settings, the reports and FIBs go through the store ({@link VdnSharing}), the rounds run on the one
 * instance that leads the singleton {@value VdnSharing#SINGLETON}, and every instance serves the
 * decision the store holds.
 */
final class VdnRuntime implements Vdn {

    private static final Logger LOG = LoggerFactory.getLogger(VdnRuntime.class);
    static final String NAME = "vdn";
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);
    static final DecisionTableJson<String> TABLES = DecisionTableJson.ofStrings();

    final BoundService<SolverService> solver = new BoundService<>();

    private final String instance;
    private final Clock clock;
    private final ScheduledExecutorService thread;
    private final ClusterSharing<VdnSharing> sharing;
    private final Map<String, GlobalDiscovery.Received> reports = new ConcurrentHashMap<>();
    private final Map<String, PublishedFib> fibs = new ConcurrentHashMap<>();
    private final ServingHistory serving = new ServingHistory(ServingHistory.DEFAULT_POINTS);

    private volatile VdnSettings settings;
    private volatile Network network = Network.EMPTY;
    private volatile VdnDecision decision = VdnDecision.NONE;
    private volatile String lastRound = "none yet";
    private ScheduledFuture<?> localRounds; // guarded by this

    /** A FIB an agent published, and when. */
    record PublishedFib(Map<String, Object> fib, long atMillis) {
    }

    VdnRuntime(VdnSettings settings, String instance, Clock clock) {
        this.settings = settings;
        this.instance = instance;
        this.clock = clock;
        this.thread = WorkerThreads.single("heliograph-vdn");
        this.sharing = new ClusterSharing<>(NAME, this::share, ended -> startLocal());
    }

    void start() {
        startLocal();
        sharing.start();
        LOG.info("vdn active on instance {} (a decision every {} s)", instance, settings.periodSeconds());
    }

    void stop() {
        sharing.stop();
        stopLocal();
        WorkerThreads.stop(thread, "heliograph-vdn", STOP_WAIT);
    }

    VdnSettings settings() {
        return settings;
    }

    void configure(VdnSettings next) {
        settings = next;
        VdnSharing shared = sharing.current();
        if (shared != null) {
            shared.restartRounds();
        } else {
            stopLocal();
            startLocal();
        }
    }

    ClusterSharing<VdnSharing> clusterSharing() {
        return sharing;
    }

    ScheduledExecutorService thread() {
        return thread;
    }

    long now() {
        return clock.millis();
    }

    Clock clock() {
        return clock;
    }

    // ---- the operator's network

    @Override
    public Map<String, Object> topology() {
        Topology topology = network.topology();
        if (topology == null) {
            throw Refusal.notFound("topology", "no topology yet: PUT one to /api/v1/vdn/topology");
        }
        return TopologyJson.write(topology);
    }

    @Override
    public Map<String, Object> putTopology(Object body) {
        Topology topology;
        try {
            topology = TopologyJson.read(body);
        } catch (IllegalArgumentException e) {
            throw Refusal.badDocument(e);
        }
        Network current = network;
        try {
            current.knobs().costsOn(topology);
        } catch (IllegalArgumentException e) {
            throw Refusal.conflict("topology", "the knobs set a cost on a link this topology lacks (" + e.getMessage()
                    + "): put knobs without it first");
        }
        Network next = current.withTopology(topology);
        commit(next);
        Map<String, Object> answer = new LinkedHashMap<>();
        for (Tier tier : Tier.values()) {
            answer.put(TopologyJson.name(tier) + "s", topology.tier(tier).size());
        }
        answer.put("links", topology.links().size());
        return answer;
    }

    @Override
    public Map<String, Object> knobs() {
        return network.knobs().write();
    }

    @Override
    public Map<String, Object> putKnobs(Object body) {
        Knobs knobs;
        try {
            knobs = Knobs.read(body);
            Network current = network;
            if (current.topology() != null) {
                knobs.costsOn(current.topology());
            }
        } catch (IllegalArgumentException e) {
            throw Refusal.badDocument(e);
        }
        commit(network.withKnobs(knobs));
        return knobs.write();
    }

    @Override
    public Map<String, String> agentKeys() {
        return network.keys().asMap();
    }

    private void commit(Network next) {
        VdnSharing shared = sharing.current();
        if (shared != null) {
            shared.storeNetwork(next);
        }
        network = next;
    }

    /** The network another instance stored. */
    void sharedNetwork(Network stored) {
        network = stored;
    }

    Network network() {
        return network;
    }

    // ---- the agents

    @Override
    public Map<String, Object> report(String cluster, String agentKey, Object body) {
        Network current = network;
        current.keys().check(cluster, agentKey);
        ClusterReport report;
        try {
            report = ClusterReport.read(body, current.topology());
        } catch (IllegalArgumentException e) {
            throw Refusal.badDocument(e);
        }
        if (!report.cluster().equals(cluster)) {
            throw Refusal.forbidden("$.cluster", "the agent of " + cluster + " reports as " + report.cluster()
                    + ": an agent speaks for its own cluster only");
        }
        GlobalDiscovery.Received received = new GlobalDiscovery.Received(report, now());
        VdnSharing shared = sharing.current();
        if (shared != null) {
            shared.storeReport(received);
        }
        reports.put(cluster, received);
        VdnSettings now = settings;
        Map<String, Object> agent = new LinkedHashMap<>();
        agent.put("stalePercent", (long) now.stalePercent());
        agent.put("controllerTimeoutSeconds", now.controllerTimeoutSeconds());
        agent.put("shadowVersions", (long) now.shadowVersions());
        agent.put("periodSeconds", now.periodSeconds());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("cluster", cluster);
        answer.put("ribVersion", decision.version());
        answer.put("agent", agent);
        return answer;
    }

    /** A report another instance received (null: removed). */
    void sharedReport(String cluster, GlobalDiscovery.Received received) {
        if (received == null) {
            reports.remove(cluster);
        } else {
            reports.put(cluster, received);
        }
    }

    Map<String, GlobalDiscovery.Received> reports() {
        return Map.copyOf(reports);
    }

    @Override
    public Map<String, Object> fib(String cluster) {
        requireCluster(cluster);
        PublishedFib fib = fibs.get(cluster);
        if (fib == null) {
            throw Refusal.notFound("cluster", "the agent of " + cluster + " has published no FIB");
        }
        Map<String, Object> answer = new LinkedHashMap<>(fib.fib());
        answer.put("publishedAtMillis", fib.atMillis());
        return answer;
    }

    @Override
    public Map<String, Object> putFib(String cluster, String agentKey, Object body) {
        network.keys().check(cluster, agentKey);
        Map<String, Object> fib;
        try {
            fib = FibReport.read(body, cluster);
        } catch (IllegalArgumentException e) {
            throw Refusal.badDocument(e);
        }
        PublishedFib published = new PublishedFib(fib, now());
        VdnSharing shared = sharing.current();
        if (shared != null) {
            shared.storeFib(cluster, published);
        }
        fibs.put(cluster, published);
        serving.add(cluster, published);
        return Map.of("cluster", cluster, "entries", FibReport.entries(fib));
    }

    /** A FIB another instance received (null: removed). */
    void sharedFib(String cluster, PublishedFib fib) {
        if (fib == null) {
            fibs.remove(cluster);
        } else {
            fibs.put(cluster, fib);
            serving.add(cluster, fib);
        }
    }

    @Override
    public Map<String, Object> serving() {
        return serving.toJson();
    }

    @Override
    public List<Map<String, Object>> clusters() {
        Network current = network;
        List<Map<String, Object>> clusters = new ArrayList<>();
        if (current.topology() == null) {
            return clusters;
        }
        VdnDecision latest = decision;
        for (Node node : current.topology().nodes()) {
            if (node.tier() == Tier.CLIENT_GROUP) {
                continue;
            }
            Map<String, Object> cluster = new LinkedHashMap<>();
            cluster.put("id", node.id());
            cluster.put("tier", TopologyJson.name(node.tier()));
            GlobalDiscovery.Received report = reports.get(node.id());
            cluster.put("reportedAtMillis", report == null ? null : report.atMillis());
            cluster.put("viewers", report == null ? 0
                    : report.report().viewers().stream().mapToLong(ClusterReport.Viewers::clients).sum());
            DecisionTable<String> rib = latest.ribs().get(node.id());
            cluster.put("ribVersion", rib == null ? null : rib.version());
            cluster.put("ribEntries", rib == null ? 0 : rib.decisions().size());
            PublishedFib fib = fibs.get(node.id());
            cluster.put("fibPublishedAtMillis", fib == null ? null : fib.atMillis());
            cluster.put("fibMode", fib == null ? null : fib.fib().get("mode"));
            clusters.add(cluster);
        }
        return clusters;
    }

    private void requireCluster(String cluster) {
        Topology topology = network.topology();
        if (topology == null || topology.node(cluster).filter(n -> n.tier() != Tier.CLIENT_GROUP).isEmpty()) {
            throw Refusal.notFound("cluster", "no cluster " + cluster + " in the topology");
        }
    }

    // ---- decisions

    @Override
    public Map<String, Object> rib(String cluster) {
        requireCluster(cluster);
        DecisionTable<String> rib = decision.ribs().get(cluster);
        if (rib == null) {
            throw Refusal.notFound("cluster", "no decision has given " + cluster + " a RIB yet");
        }
        return TABLES.toJson(rib);
    }

    @Override
    public Map<String, Object> trees(String video) {
        Map<String, Object> trees = decision.trees().get(video);
        if (trees == null) {
            throw Refusal.notFound("video", "the latest decision (version " + decision.version() + ") carries no video "
                    + video);
        }
        return trees;
    }

    @Override
    public Map<String, Object> decision() {
        Map<String, Object> summary = new LinkedHashMap<>(decision.summary());
        summary.put("lastRound", lastRound);
        VdnSharing shared = sharing.current();
        summary.put("decidingHere", shared == null || shared.deciding());
        return summary;
    }

    VdnDecision latestDecision() {
        return decision;
    }

    /** A decision made here or stored by the instance that decides; an older one than in force is ignored. */
    void accept(VdnDecision next) {
        if (next.version() >= decision.version()) {
            decision = next;
        }
    }

    // ---- rounds

    private VdnSharing share(SharedStore store, ClusterService cluster, ScheduledExecutorService storeThread) {
        stopLocal();
        return new VdnSharing(store, instance, this, storeThread);
    }

    private synchronized void startLocal() {
        if (localRounds == null) {
            localRounds = thread.scheduleWithFixedDelay(this::decideAlone, 0, settings.periodSeconds(), TimeUnit.SECONDS);
        }
    }

    private synchronized void stopLocal() {
        if (localRounds != null) {
            localRounds.cancel(false);
            localRounds = null;
        }
    }

    /**
     * A round now where rounds run (here alone, on the singleton's instance shared), rather than at the
     * next period; completes when its decision is in force here (at once where this instance does not
     * decide).
     */
    CompletableFuture<Void> decideNow() {
        VdnSharing shared = sharing.current();
        if (shared != null) {
            return shared.decideNow();
        }
        return CompletableFuture.runAsync(this::decideAlone, thread);
    }

    /** A round alone: its decision takes the next version here. */
    private void decideAlone() {
        round().ifPresent(r -> accept(r.stamp(decision.version() + 1, Instant.ofEpochMilli(now()))));
    }

    /**
     * A round from what is known now; none (the decision in force stays, and {@code lastRound} says why)
     * without a topology or a solver, or when the optimiser fails.
     */
    Optional<OptimiserRound> round() {
        Network current = network;
        SolverService service = solver.get();
        if (current.topology() == null) {
            lastRound = "no topology yet: PUT one to /api/v1/vdn/topology";
            return Optional.empty();
        }
        if (service == null) {
            lastRound = "no solver: the solver bundle is not running";
            return Optional.empty();
        }
        try {
            OptimiserRound round = OptimiserRound.decide(current, reports(), settings, service, now());
            lastRound = "decided at " + Instant.ofEpochMilli(now());
            return Optional.of(round);
        } catch (RuntimeException e) {
            LOG.warn("vdn: a decision failed, the previous one stays in force", e);
            lastRound = "failed: " + e;
            return Optional.empty();
        }
    }
}
