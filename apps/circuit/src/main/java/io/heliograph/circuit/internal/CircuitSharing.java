package io.heliograph.circuit.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.circuit.engine.ScheduleJson;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.ClusterSingleton;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SplitValues;
import io.heliograph.core.json.Json;

/**
 * What the circuit app keeps open through the cluster:
 * <ul>
 * <li>the scheduling loop as the singleton {@value #SINGLETON}: the leader's loop writes the weeks to
 * {@value #WEEKS} (a split value: a week of many days and its matrices can be large);</li>
 * <li>a watch on {@value #SHARED}: every instance serves the weeks stored there (and hands them to its
 * executor, if it is master of the circuit switch), and uses the scheduler choice stored at
 * {@value #CHOICE} by {@code PUT /scheduler} on any instance;</li>
 * <li>ADU estimation: each instance keeps the reports it was sent and writes its rack-to-rack estimate
 * (an N x N matrix of whole bytes) to {@value #ADU}{@code /<instance>} every week (at most once a
 * second); the singleton sums
 * them, skipping those older than {@value #ADU_STALE_PERIODS} periods (an instance that died).</li>
 * </ul>
 */
final class CircuitSharing implements ClusterSharing.Sharing {

    private static final Logger LOG = LoggerFactory.getLogger(CircuitSharing.class);

    static final String SINGLETON = "circuit-scheduler";
    static final String SHARED = "circuit/shared";
    static final String WEEKS = SHARED + "/weeks";
    static final String CHOICE = SHARED + "/choice";
    static final String ADU = "circuit/adu";
    static final int ADU_STALE_PERIODS = 3;

    private final SharedStore store;
    private final String instance;
    private final CircuitRuntime runtime;
    private final ScheduledExecutorService storeThread;
    private final ClusterSingleton singleton;
    private final LoopTask task = new LoopTask();
    private SharedStore.Watch watch;
    private ScheduledFuture<?> aduPublishing;

    CircuitSharing(SharedStore store, String instance, CircuitRuntime runtime, ScheduledExecutorService storeThread) {
        this.store = store;
        this.instance = instance;
        this.runtime = runtime;
        this.storeThread = storeThread;
        this.singleton = new ClusterSingleton(store, SINGLETON, task, storeThread);
    }

    @Override
    public void start() {
        watch = store.watch(SHARED, new SharedStore.StoreListener() {
            @Override
            public void changed(SharedStore.Versioned value) {
                if (value.key().equals(CHOICE)) {
                    runtime.sharedChoice(readChoice(value.value()));
                } else if (value.key().equals(WEEKS)) {
                    storeThread.execute(CircuitSharing.this::readWeeks);
                }
            }

            @Override
            public void removed(String key) {
                if (key.equals(CHOICE)) {
                    runtime.sharedChoice(null);
                }
            }
        });
        long period = runtime.settings().aduPublishNanos();
        aduPublishing = storeThread.scheduleAtFixedRate(this::publishAdu, period, period, TimeUnit.NANOSECONDS);
        singleton.start();
    }

    @Override
    public void connectionChanged(boolean connected) {
        singleton.connectionChanged(connected);
    }

    /** Whether the loop runs on this instance now. */
    boolean scheduling() {
        return singleton.running() && task.loop != null;
    }

    /** After a configuration change: the singleton's loop starts again with the new network. */
    void restartLoop() {
        if (singleton.running()) {
            task.stop();
            task.start();
        }
    }

    void storeChoice(SchedulerChoice choice) {
        store.put(CHOICE, Json.compact(choice.toJson()));
    }

    /** The other instances' ADU estimates, fresh and of {@code racks} racks. */
    List<double[][]> othersAdu(int racks, long publishNanos) {
        List<double[][]> all = new ArrayList<>();
        long now = System.currentTimeMillis();
        long stale = Math.max(1, ADU_STALE_PERIODS * publishNanos / 1_000_000L);
        for (Map.Entry<String, SharedStore.Versioned> e : store.list(ADU).entrySet()) {
            if (e.getKey().equals(instance)) {
                continue;
            }
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> json = (Map<String, Object>) Json.parse(e.getValue().value());
                long at = ((Number) json.get("atMillis")).longValue();
                double[][] m = PublishedWeeks.matrix(json.get("estimate"));
                if (now - at <= stale && m.length == racks && (racks == 0 || m[0].length == racks)) {
                    all.add(m);
                }
            } catch (RuntimeException ex) {
                LOG.debug("circuit: instance {}'s ADU estimate is unreadable: {}", e.getKey(), ex.toString());
            }
        }
        return all;
    }

    void publishAdu() {
        try {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("atMillis", System.currentTimeMillis());
            json.put("estimate", PublishedWeeks.whole(runtime.currentSetup().adu().estimate()));
            store.put(ADU + "/" + instance, Json.compact(json));
        } catch (StoreUnavailableException e) {
            LOG.debug("circuit: ADU estimate not published: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("circuit: ADU estimate not published", e);
        }
    }

    private void readWeeks() {
        try {
            SplitValues.read(store, WEEKS).ifPresent(b -> runtime.accept(PublishedWeeks.fromJson(Json.parse(b))));
        } catch (StoreUnavailableException e) {
            LOG.debug("circuit: weeks not read: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("circuit: the stored weeks are unreadable", e);
        }
    }

    private static SchedulerChoice readChoice(byte[] value) {
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> json = (Map<String, Object>) Json.parse(value);
            Object week = json.get("fixedWeek");
            return new SchedulerChoice((String) json.get("scheduler"), (String) json.get("estimator"),
                    week == null ? null : ScheduleJson.fromJson(week));
        } catch (RuntimeException e) {
            LOG.warn("circuit: the stored scheduler choice is unreadable, using the configured one: {}", e.getMessage());
            return null;
        }
    }

    @Override
    public void close() {
        singleton.close();
        if (watch != null) {
            watch.close();
        }
        if (aduPublishing != null) {
            aduPublishing.cancel(false);
        }
        try {
            store.delete(ADU + "/" + instance);
        } catch (RuntimeException e) {
            LOG.debug("circuit: ADU estimate not removed: {}", e.toString());
        }
    }

    /** The singleton's task: the loop, publishing to the store. */
    private final class LoopTask implements ClusterSingleton.Task {
        private volatile SchedulingLoop loop;

        @Override
        public void start() {
            SchedulingLoop l = runtime.newLoop(weeks -> {
                runtime.accept(weeks);
                byte[] json = Json.compact(weeks.toJson());
                storeThread.execute(() -> {
                    try {
                        SplitValues.write(store, WEEKS, json);
                    } catch (RuntimeException e) {
                        LOG.warn("circuit: the weeks were not stored: {}", e.toString());
                    }
                });
            });
            loop = l;
            PublishedWeeks before = null;
            try {
                before = SplitValues.read(store, WEEKS).map(b -> PublishedWeeks.fromJson(Json.parse(b))).orElse(null);
            } catch (RuntimeException e) {
                LOG.debug("circuit: no previous weeks to continue from: {}", e.toString());
            }
            PublishedWeeks from = before;
            runtime.thread().execute(() -> l.start(from));
        }

        @Override
        public void stop() {
            SchedulingLoop l = loop;
            loop = null;
            if (l != null) {
                l.stop();
            }
        }
    }
}
