package io.heliograph.vdn.internal;

import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.ClusterSingleton;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SplitValues;
import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.hybrid.SharedDecisionTables;
import io.heliograph.core.json.Json;
import io.heliograph.core.json.JsonPath;
import io.heliograph.vdn.engine.ClusterReport;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the VDN app keeps open through the cluster:
 * <ul>
 * <li>{@value #NETWORK}: the operator's topology, knobs and agent keys (a split value: a topology of
 * thousands of clusters is large), written by the instance the operator called;</li>
 * <li>{@value #REPORTS}{@code /<cluster>} and {@value #FIBS}{@code /<cluster>}: each agent's latest
 * report and FIB, written by the instance the agent called (a FIB is a split value);</li>
 * <li>the latest decision, written by the singleton {@value #SINGLETON}, whose leader runs the central
 * optimiser's rounds: each cluster's RIB as a hybrid-control table ({@link SharedDecisionTables}, which
 * hands out the versions, so a new leader goes on from the last), then its summary and trees at
 * {@value #DECISION} (a split value), which tells the other instances to read the tables.</li>
 * </ul>
 * Every instance watches {@value #PREFIX} and serves what the store holds.
 */
final class VdnSharing implements ClusterSharing.Sharing {

    private static final Logger LOG = LoggerFactory.getLogger(VdnSharing.class);

    static final String SINGLETON = "vdn-optimiser";
    static final String PREFIX = "vdn";
    static final String NETWORK = PREFIX + "/network";
    static final String REPORTS = PREFIX + "/reports";
    static final String FIBS = PREFIX + "/fibs";
    static final String DECISION = PREFIX + "/decision";
    private static final Set<String> RECEIVED = Set.of("atMillis", "report");
    private static final Set<String> PUBLISHED = Set.of("atMillis", "fib");

    private final SharedStore store;
    private final VdnRuntime runtime;
    private final ScheduledExecutorService storeThread;
    private final ClusterSingleton singleton;
    private final SharedDecisionTables<String> tables;
    private final Rounds rounds = new Rounds();
    private SharedStore.Watch watch;

    VdnSharing(SharedStore store, String instance, VdnRuntime runtime, ScheduledExecutorService storeThread) {
        this.store = store;
        this.runtime = runtime;
        this.storeThread = storeThread;
        this.singleton = new ClusterSingleton(store, SINGLETON, rounds, storeThread);
        this.tables = new SharedDecisionTables<>(store, PREFIX, VdnRuntime.TABLES, runtime.clock());
    }

    @Override
    public void start() {
        watch = store.watch(PREFIX, new SharedStore.StoreListener() {
            @Override
            public void changed(SharedStore.Versioned value) {
                read(value.key(), false);
            }

            @Override
            public void removed(String key) {
                read(key, true);
            }
        });
        singleton.start();
    }

    @Override
    public void connectionChanged(boolean connected) {
        singleton.connectionChanged(connected);
    }

    /** Whether the rounds run on this instance now. */
    boolean deciding() {
        return singleton.running();
    }

    /** A round now if the rounds run here (see {@link VdnRuntime#decideNow}). */
    CompletableFuture<Void> decideNow() {
        if (!singleton.running()) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.supplyAsync(runtime::round, runtime.thread())
                .thenAcceptAsync(round -> round.ifPresent(rounds::publish), storeThread);
    }

    void restartRounds() {
        if (singleton.running()) {
            rounds.stop();
            rounds.start();
        }
    }

    void storeNetwork(Network network) {
        SplitValues.write(store, NETWORK, Json.compact(network.toJson()));
    }

    void storeReport(GlobalDiscovery.Received received) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("atMillis", received.atMillis());
        json.put("report", received.report().write());
        store.put(REPORTS + "/" + received.report().cluster(), Json.compact(json));
    }

    void storeFib(String cluster, VdnRuntime.PublishedFib fib) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("atMillis", fib.atMillis());
        json.put("fib", fib.fib());
        SplitValues.write(store, FIBS + "/" + cluster, Json.compact(json));
    }

    /** A key below {@value #PREFIX} changed: reads what it now holds (split values by their manifest's key). */
    private void read(String key, boolean removed) {
        String[] segments = key.split("/");
        try {
            if (key.equals(NETWORK)) {
                if (!removed) {
                    SplitValues.read(store, NETWORK).ifPresent(b -> runtime.sharedNetwork(Network.fromJson(Json.parse(b))));
                }
            } else if (key.equals(DECISION)) {
                if (!removed) {
                    SplitValues.read(store, DECISION).ifPresent(b -> runtime.accept(decision(b)));
                }
            } else if (segments.length == 3 && key.startsWith(REPORTS + "/")) {
                runtime.sharedReport(segments[2], removed ? null : received(segments[2]));
            } else if (segments.length == 3 && key.startsWith(FIBS + "/")) {
                runtime.sharedFib(segments[2], removed ? null : published(segments[2]));
            }
        } catch (StoreUnavailableException e) {
            LOG.debug("vdn: {} not read: {}", key, e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("vdn: the stored {} is unreadable: {}", key, e.toString());
        }
    }

    /** The stored decision with the RIBs of its version. */
    private VdnDecision decision(byte[] stored) {
        Map<String, DecisionTable<String>> ribs = new TreeMap<>();
        for (String cluster : tables.partitions()) {
            tables.read(cluster).ifPresent(table -> ribs.put(cluster, table));
        }
        return VdnDecision.fromJson(Json.parse(stored), ribs);
    }

    private GlobalDiscovery.Received received(String cluster) {
        return store.get(REPORTS + "/" + cluster).map(v -> {
            Map<String, Object> json = JsonPath.object(Json.parse(v.value()), "$", RECEIVED);
            return new GlobalDiscovery.Received(ClusterReport.read(json.get("report"), runtime.network().topology()),
                    JsonPath.whole(json.get("atMillis"), "$.atMillis", 0, Long.MAX_VALUE));
        }).orElse(null);
    }

    private VdnRuntime.PublishedFib published(String cluster) {
        return SplitValues.read(store, FIBS + "/" + cluster).map(b -> {
            Map<String, Object> json = JsonPath.object(Json.parse(b), "$", PUBLISHED);
            return new VdnRuntime.PublishedFib(JsonPath.object(json.get("fib"), "$.fib"),
                    JsonPath.whole(json.get("atMillis"), "$.atMillis", 0, Long.MAX_VALUE));
        }).orElse(null);
    }

    @Override
    public void close() {
        singleton.close();
        if (watch != null) {
            watch.close();
        }
    }

    /** The singleton's task: a round every period on the runtime's thread, each decision published. */
    private final class Rounds implements ClusterSingleton.Task {
        private ScheduledFuture<?> future;

        @Override
        public synchronized void start() {
            long period = runtime.settings().periodSeconds();
            future = runtime.thread().scheduleWithFixedDelay(
                    () -> runtime.round().ifPresent(round -> storeThread.execute(() -> publish(round))), 0, period,
                    TimeUnit.SECONDS);
        }

        private void publish(OptimiserRound round) {
            try {
                long version = tables.publish(round.decisions());
                VdnDecision decision = round.stamp(version, runtime.clock().instant());
                SplitValues.write(store, DECISION, Json.compact(decision.toJson()));
                runtime.accept(decision);
            } catch (RuntimeException e) {
                LOG.warn("vdn: a decision was not published: {}", e.toString());
            }
        }

        @Override
        public synchronized void stop() {
            if (future != null) {
                future.cancel(false);
                future = null;
            }
        }
    }
}
