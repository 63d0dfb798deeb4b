package io.heliograph.virtue.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.PeriodicTask;
import io.heliograph.core.cluster.ClusterSingleton;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.stats.StatisticsService;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.InvalidInputException;
import io.heliograph.virtue.live.NetworkSample;
import io.heliograph.virtue.live.NetworkSampler;
import io.heliograph.virtue.live.VlanRouting;
import io.heliograph.virtue.store.Round;

/**
 * Measures the running experiments, on the one instance that leads the {@value #SINGLETON} singleton
 * (one series of rounds per experiment, whichever instance an operator talks to): every interval, each
 * running experiment's links, traffic matrix and VM NIC rates are read from the statistics app (its
 * latest rates; it is the one poller of the switches) and handed to the database's write-behind
 * recorder. A rate older than two intervals plus {@value #SLACK_SECONDS} s counts as missing, so a
 * switch that stopped answering is not recorded as still busy.
 */
final class MeasurementTask implements ClusterSingleton.Task {

    static final String SINGLETON = "virtue-recorder";
    static final int SLACK_SECONDS = 10;
    private static final Logger LOG = LoggerFactory.getLogger(MeasurementTask.class);

    private final Supplier<ExperimentStore> experiments;
    private final Supplier<StatisticsService> statistics;
    private final Supplier<VlanRouting> routing;
    private final VirtueDatabaseAccess database;
    private final Clock clock;
    private final PeriodicTask rounds;
    private volatile long intervalMs;

    /** Per experiment id and EDF revision: its sampler (thread: the task's). */
    private final Map<String, NetworkSampler> samplers = new HashMap<>();
    /** Experiments whose EDF cannot be sampled, logged once. */
    private final Set<String> unsampled = new HashSet<>();

    MeasurementTask(Supplier<ExperimentStore> experiments, Supplier<StatisticsService> statistics,
                    Supplier<VlanRouting> routing, VirtueDatabaseAccess database, Clock clock,
                    ScheduledExecutorService thread, long intervalMs) {
        this.experiments = experiments;
        this.statistics = statistics;
        this.routing = routing;
        this.database = database;
        this.clock = clock;
        this.intervalMs = intervalMs;
        this.rounds = new PeriodicTask(thread, "virtue measurement", this::round);
    }

    @Override
    public void start() {
        rounds.every(intervalMs, intervalMs);
    }

    @Override
    public void stop() {
        rounds.cancel();
    }

    /** A new interval, applied from the next round (when running). */
    void interval(long ms, boolean running) {
        intervalMs = ms;
        if (running) {
            rounds.every(ms, ms);
        }
    }

    void round() {
        ExperimentStore store = experiments.get();
        if (store == null) {
            return;
        }
        Instant now = clock.instant();
        Instant notBefore = now.minus(Duration.ofMillis(2 * intervalMs)).minusSeconds(SLACK_SECONDS);
        StatisticsService stats = statistics.get();
        Set<String> running = new HashSet<>();
        try {
            for (Experiment experiment : store.list()) {
                if (experiment.state() != ExperimentState.RUNNING) {
                    continue;
                }
                String key = experiment.id() + "#" + experiment.edfRevision();
                running.add(key);
                NetworkSampler sampler = samplers.get(key);
                if (sampler == null) {
                    sampler = sampler(store, experiment);
                    if (sampler == null) {
                        continue;
                    }
                    samplers.put(key, sampler);
                }
                NetworkSample sample = stats == null ? null : sampler.sample(stats, notBefore);
                database.record(round(experiment.id(), now, sample));
            }
        } catch (StoreUnavailableException e) {
            LOG.debug("measurement: no store session this round: {}", e.getMessage());
            return;
        }
        samplers.keySet().retainAll(running);
        unsampled.retainAll(running);
    }

    private NetworkSampler sampler(ExperimentStore store, Experiment experiment) {
        String key = experiment.id() + "#" + experiment.edfRevision();
        try {
            Edf edf = store.edf(experiment.id()).orElse(null);
            return edf == null ? null : new NetworkSampler(edf, routing.get().plan(edf, experiment.id()));
        } catch (InvalidInputException e) {
            if (unsampled.add(key)) {
                LOG.warn("experiment {} cannot be measured: {}", experiment.id(), e.getMessage());
            }
            return null;
        }
    }

    /** The round to record: every figure the sample has; a missing one is left out, never recorded as 0. */
    static Round round(String experiment, Instant at, NetworkSample sample) {
        Map<String, Double> links = new LinkedHashMap<>();
        Map<Round.VmPair, Double> traffic = new LinkedHashMap<>();
        Map<String, Round.Nic> nics = new LinkedHashMap<>();
        if (sample != null) {
            for (NetworkSample.LinkRate link : sample.links()) {
                if (link.bitsPerSecond() != null) {
                    links.put(link.id(), link.bitsPerSecond());
                }
            }
            for (NetworkSample.PairRate pair : sample.traffic()) {
                if (pair.bitsPerSecond() != null) {
                    traffic.put(new Round.VmPair(pair.source(), pair.destination()), pair.bitsPerSecond());
                }
            }
            for (NetworkSample.VmRate vm : sample.vms()) {
                if (vm.nicSent() != null && vm.nicReceived() != null) {
                    nics.put(vm.id(), new Round.Nic(vm.nicSent(), vm.nicReceived()));
                }
            }
        }
        return new Round(experiment, at, links, traffic, nics);
    }
}
