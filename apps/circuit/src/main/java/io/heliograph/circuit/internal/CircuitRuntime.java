package io.heliograph.circuit.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.circuit.CircuitGroupsService;
import io.heliograph.circuit.CircuitScheduleService;
import io.heliograph.circuit.ReplicaPlacementService;
import io.heliograph.circuit.ScheduleView;
import io.heliograph.circuit.engine.AduEstimator;
import io.heliograph.circuit.engine.AduReport;
import io.heliograph.circuit.engine.CircuitGroups;
import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.engine.ReplicaPlacement;
import io.heliograph.circuit.engine.VoqEstimator;
import io.heliograph.circuit.internal.exec.ScheduleExecutor;
import io.heliograph.circuit.internal.exec.TcQueueResize;
import io.heliograph.core.BoundService;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.json.Json;
import io.heliograph.stats.StatisticsService;

/**
 * The circuit app's runtime, plain Java: its thread, its estimators, the scheduling loop, the executor
 * and its binding to the cluster ({@link CircuitSharing}). Alone (no store or cluster bound) the loop
 * runs here; shared, it runs on the one instance that leads the singleton {@value CircuitSharing#SINGLETON},
 * which publishes the weeks to the store, and every instance serves what the store holds. The DS
 * component ({@link CircuitComponent}) creates it and hands it the services as they come and go.
 */
final class CircuitRuntime implements Circuit, CircuitScheduleService, CircuitGroupsService, ReplicaPlacementService {

    private static final Logger LOG = LoggerFactory.getLogger(CircuitRuntime.class);
    static final String NAME = "circuit";
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);
    /** The most ADU reports one request may bring. */
    static final int MAX_ADU_BATCH = 10_000;

    final BoundService<StatisticsService> statistics = new BoundService<>();
    final BoundService<SwitchService> switches = new BoundService<>();

    private final String instance;
    private final LongSupplier nowNanos;
    private final ScheduledExecutorService thread;
    private final SchedulingLoop.Timer timer;
    private final ClusterSharing<CircuitSharing> sharing;

    private volatile CircuitSettings settings;
    private volatile Setup setup;
    private volatile SchedulerChoice sharedChoice;
    private volatile PublishedWeeks weeks = PublishedWeeks.NONE;
    private SchedulingLoop localLoop; // guarded by this
    private long executedWeek = Long.MIN_VALUE; // guarded by this
    private final Object servedLock = new Object();
    private Setup servedSetup; // guarded by servedLock
    private long[][] servedCounters; // guarded by servedLock: the pair counters last taken off the ADU flows

    /** What a change of racks, rates, week, scale or fabric makes anew. */
    record Setup(CircuitSettings settings, VoqEstimator voq, AduEstimator adu, ReplicaPlacement placement,
            ScheduleExecutor executor, TcQueueResize resizer) {

        /** Withdraws what the executor installed, then stops the resizing commands. */
        void closeExecution() {
            if (executor != null) {
                executor.close();
            }
            if (resizer != null) {
                resizer.close();
            }
        }
    }

    /**
     * @param timer null for the app's own thread; tests give a manual one
     */
    CircuitRuntime(CircuitSettings settings, String instance, LongSupplier nowNanos, SchedulingLoop.Timer timer) {
        this.instance = instance;
        this.nowNanos = nowNanos;
        this.thread = WorkerThreads.single("heliograph-circuit");
        this.timer = timer != null ? timer : (at, task) -> {
            ScheduledFuture<?> f = thread.schedule(task, Math.max(0, at - nowNanos.getAsLong()), TimeUnit.NANOSECONDS);
            return () -> f.cancel(false);
        };
        this.sharing = new ClusterSharing<>(NAME, this::share, ended -> startLocal());
        this.settings = settings;
        this.setup = setup(settings);
    }

    static long epochNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    void start() {
        startLocal();
        sharing.start();
        LOG.info("circuit active on instance {} ({} racks, week {} us x {})", instance, settings.groups().racks(),
                settings.network().weekMicros(), settings.timeScale());
    }

    void stop() {
        sharing.stop();
        stopLocal();
        WorkerThreads.stop(thread, "heliograph-circuit", STOP_WAIT);
        setup.closeExecution();
        LOG.info("circuit stopped");
    }

    /** New settings, live: a new network, scale or fabric restarts the loop with new estimators and executor. */
    void configure(CircuitSettings next) {
        CircuitSettings previous = settings;
        settings = next;
        if (next.sameSchedulingAs(previous)) {
            setup = new Setup(next, setup.voq(), setup.adu(), next.placement(), setup.executor(), setup.resizer());
        } else {
            Setup old = setup;
            setup = setup(next);
            old.closeExecution();
            synchronized (this) {
                executedWeek = Long.MIN_VALUE;
                weeks = PublishedWeeks.NONE;
            }
            restartLoops();
        }
        LOG.info("circuit reconfigured");
    }

    CircuitSettings settings() {
        return settings;
    }

    ClusterSharing<CircuitSharing> clusterSharing() {
        return sharing;
    }

    Setup currentSetup() {
        return setup;
    }

    private Setup setup(CircuitSettings s) {
        ScheduleExecutor executor = null;
        TcQueueResize resizer = null;
        if (s.fabric() != null) {
            ScheduleExecutor.Options options = ScheduleExecutor.Options.defaults().withGroups(s.groups());
            if (s.resizing().on()) {
                resizer = s.resizing().newAction();
                options = options.withResize(s.resizing().policy(), resizer);
            }
            executor = new ScheduleExecutor(s.fabric(), this::switchOf, s.timeScale(), options);
        }
        return new Setup(s, new VoqEstimator(s.network()), new AduEstimator(s.groups(), s.maxAduFlows()), s.placement(),
                executor, resizer);
    }

    private OFSwitch switchOf(DatapathId dpid) {
        SwitchService service = switches.get();
        return service == null ? null : service.getSwitch(dpid);
    }

    // The loop: here when alone, in the singleton when shared

    SchedulingLoop newLoop(java.util.function.Consumer<PublishedWeeks> publish) {
        CircuitSettings s = settings;
        return new SchedulingLoop(s.network(), s.weekNanos(), nowNanos, timer, new SchedulingLoop.Inputs() {
            @Override
            public SchedulerChoice choice() {
                return choiceInUse();
            }

            @Override
            public SchedulingLoop.Estimate estimate(String estimator) {
                return CircuitRuntime.this.estimate(estimator);
            }
        }, publish, instance);
    }

    /** Under this runtime's lock, which is safe here: the new loop runs nothing before its start. */
    private synchronized void startLocal() {
        if (localLoop == null) {
            localLoop = newLoop(this::accept);
            localLoop.start(weeks);
        }
    }

    /**
     * Stops the local loop outside this runtime's lock: a loop holds its own lock while it publishes
     * to {@link #accept}, which takes this one, so stopping it under this lock could deadlock.
     */
    private void stopLocal() {
        SchedulingLoop stopping;
        synchronized (this) {
            stopping = localLoop;
            localLoop = null;
        }
        if (stopping != null) {
            stopping.stop();
        }
    }

    /** On the sharing's thread: the loop moves to the singleton. */
    private CircuitSharing share(SharedStore store, ClusterService cluster, ScheduledExecutorService storeThread) {
        stopLocal();
        String here = cluster.getLocalInstance() == null ? instance : cluster.getLocalInstance().id();
        return new CircuitSharing(store, here, this, storeThread);
    }

    private void restartLoops() {
        boolean alone;
        synchronized (this) {
            alone = localLoop != null;
        }
        if (alone) {
            stopLocal();
            startLocal();
        }
        CircuitSharing open = sharing.current();
        if (open != null) {
            sharing.execute(open::restartLoop);
        }
    }

    boolean schedulingHere() {
        synchronized (this) {
            if (localLoop != null) {
                return true;
            }
        }
        CircuitSharing open = sharing.current();
        return open != null && open.scheduling();
    }

    /** The weeks as published (by the loop here, or read from the store): served, and handed to the executor. */
    void accept(PublishedWeeks published) {
        List<ScheduleView> toRun = new ArrayList<>();
        ScheduleExecutor executor = setup.executor();
        boolean execute = executor != null && mayExecute();
        synchronized (this) {
            if (published.current() != null && published.current().plan().racks() != settings.groups().racks()) {
                return; // another configuration's weeks (instances mid-change): not ours to serve
            }
            ScheduleView shown = weeks.current();
            if (published.current() != null && shown != null && published.current().week() < shown.week()) {
                return; // an older state read back from the store after a newer one was accepted here
            }
            weeks = published;
            // Weeks are handed over only where they are run, so a circuit switch mastered later (it
            // connected, or this instance took it over) gets the weeks in force at the next publication.
            for (ScheduleView v : new ScheduleView[] {published.current(), published.next()}) {
                if (execute && v != null && v.week() > executedWeek) {
                    toRun.add(v);
                    executedWeek = v.week();
                }
            }
        }
        for (ScheduleView v : toRun) {
            try {
                executor.run(v.plan(), v.startEpochNanos());
            } catch (RuntimeException e) {
                LOG.error("circuit: the executor refused week {}", v.week(), e);
            }
        }
    }

    /** Only the master of the circuit switch drives it (a SLAVE's writes are refused by the switch). */
    private boolean mayExecute() {
        CircuitSettings s = settings;
        if (s.fabric() == null) {
            return false;
        }
        OFSwitch sw = switchOf(s.fabric().circuitSwitch());
        return sw != null && sw.getRole() != Role.SLAVE;
    }

    void sharedChoice(SchedulerChoice choice) {
        sharedChoice = choice;
    }

    SchedulerChoice choiceInUse() {
        SchedulerChoice shared = sharedChoice;
        return shared != null ? shared : settings.choice();
    }

    // Estimation

    SchedulingLoop.Estimate estimate(String estimator) {
        Setup s = setup;
        if (estimator.equals("adu")) {
            serveAdu();
            return new SchedulingLoop.Estimate("adu", aduSum(s));
        }
        StatisticsService stats = statistics.get();
        if (stats != null && s.settings().fabric() != null) {
            VoqCounters.Sample sample = VoqCounters.read(stats, s.settings().fabric(), s.settings().groups().racks());
            if (sample != null) {
                long atMicros = (sample.at().getEpochSecond() * 1_000_000L + sample.at().getNano() / 1000)
                        / s.settings().timeScale();
                try {
                    s.voq().observeCounters(sample.bytes(), atMicros);
                } catch (IllegalArgumentException e) {
                    // the same sample again (the statistics app polls less often than a week): the estimate stands
                    LOG.debug("circuit: VOQ counters not newer: {}", e.getMessage());
                }
            }
        }
        return new SchedulingLoop.Estimate("voq", s.voq().estimate());
    }

    /**
     * Takes what left the ToRs since the last call off this instance's ADU flows: the growth of the
     * executor's pair counters, in this instance's share of each pair (its outstanding bytes against
     * the cluster's), so that a flow's demand is what it wrote and the network has not carried yet.
     * The first call (or the first after a change of setup) only takes the counters as a baseline; a
     * counter that went back (its entry made anew) counts from 0. Called before this instance's ADU
     * estimate is used or published.
     */
    void serveAdu() {
        Setup s = setup;
        StatisticsService stats = statistics.get();
        if (stats == null || s.settings().fabric() == null) {
            return;
        }
        int n = s.settings().groups().racks();
        VoqCounters.Sample sample = VoqCounters.read(stats, s.settings().fabric(), n);
        if (sample == null) {
            return;
        }
        synchronized (servedLock) {
            long[][] now = sample.bytes();
            if (servedSetup != s || servedCounters == null) {
                servedSetup = s;
                servedCounters = now;
                return;
            }
            double[][] own = s.adu().estimate();
            double[][] all = aduSum(s);
            long[][] served = new long[n][n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    long grew = now[i][j] >= servedCounters[i][j] ? now[i][j] - servedCounters[i][j] : now[i][j];
                    served[i][j] = all[i][j] > 0 ? (long) (grew * Math.min(1.0, own[i][j] / all[i][j])) : 0;
                }
            }
            servedCounters = now;
            s.adu().servedPairs(served);
        }
    }

    /** This instance's ADU estimate plus every other instance's latest in the store (when shared). */
    double[][] aduSum(Setup s) {
        double[][] sum = s.adu().estimate();
        CircuitSharing open = sharing.current();
        if (open != null) {
            for (double[][] other : open.othersAdu(s.settings().groups().racks(), s.settings().aduPublishNanos())) {
                add(sum, other);
            }
        }
        return sum;
    }

    static void add(double[][] sum, double[][] other) {
        for (int i = 0; i < sum.length; i++) {
            for (int j = 0; j < sum[i].length; j++) {
                sum[i][j] += other[i][j];
            }
        }
    }

    // Circuit (REST)

    @Override
    public Map<String, Object> schedule() {
        PublishedWeeks w = weeks;
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("current", w.current() == null ? null : PublishedWeeks.view(w.current(), false));
        json.put("next", w.next() == null ? null : PublishedWeeks.view(w.next(), false));
        json.put("weekMicros", settings.network().weekMicros());
        json.put("timeScale", settings.timeScale());
        return json;
    }

    @Override
    public Map<String, Object> scheduler() {
        CircuitSettings s = settings;
        SchedulerChoice choice = choiceInUse();
        PublishedWeeks w = weeks;
        Map<String, Object> json = new LinkedHashMap<>(choice.toJson());
        json.put("shared", sharedChoice != null);
        json.put("schedulingHere", schedulingHere());
        json.put("publishedBy", w.instance());
        json.put("error", w.error());
        json.put("errorAt", w.error() == null ? null : java.time.Instant.ofEpochMilli(w.errorAtMillis()).toString());
        json.put("errors", w.errors());
        Map<String, Object> network = new LinkedHashMap<>();
        CircuitParameters p = s.network();
        network.put("racks", p.racks());
        network.put("circuitGbps", p.circuitBytesPerMicro() * 8 / 1e3);
        network.put("packetGbps", p.packetBytesPerMicro() * 8 / 1e3);
        network.put("weekMicros", p.weekMicros());
        network.put("nightMicros", p.nightMicros());
        network.put("minDayMicros", p.minDayMicros());
        network.put("timeScale", s.timeScale());
        json.put("network", network);
        Setup current = setup;
        ScheduleExecutor executor = current.executor();
        json.put("executor", executor == null ? null : executor.status());
        json.put("executing", executor != null && mayExecute());
        json.put("resizing", current.resizer() == null ? null : current.resizer().status());
        return json;
    }

    @Override
    public Map<String, Object> choose(String body) {
        SchedulerChoice choice = SchedulerChoice.fromJson(parse(body), settings.network());
        CircuitSharing open = sharing.current();
        if (open != null) {
            try {
                open.storeChoice(choice);
            } catch (SharedStore.StoreUnavailableException e) {
                throw CircuitRefusal.unavailable("the cluster's shared store cannot be reached now, nothing was "
                        + "changed: " + e.getMessage());
            }
        }
        sharedChoice = choice;
        return scheduler();
    }

    @Override
    public Map<String, Object> demand() {
        Setup s = setup;
        Map<String, Object> json = new LinkedHashMap<>();
        PublishedWeeks w = weeks;
        ScheduleView basis = w.next() != null ? w.next() : w.current();
        json.put("racks", s.settings().groups().racks());
        json.put("estimator", choiceInUse().estimator());
        json.put("week", basis == null ? null : basis.week());
        json.put("demand", basis == null ? null : PublishedWeeks.whole(basis.demand()));
        Map<String, Object> estimators = new LinkedHashMap<>();
        estimators.put("voq", PublishedWeeks.whole(s.voq().estimate()));
        double[][] adu;
        try {
            adu = aduSum(s);
        } catch (SharedStore.StoreUnavailableException e) {
            adu = s.adu().estimate();
        }
        estimators.put("adu", PublishedWeeks.whole(adu));
        json.put("estimators", estimators);
        json.put("aduOpenFlows", s.adu().openFlows());
        json.put("aduEvictions", s.adu().evictions());
        return json;
    }

    @Override
    public Map<String, Object> groupsJson() {
        return settings.groups().toJson();
    }

    @Override
    public Map<String, Object> placement(String writerRack) {
        int racks = settings.groups().racks();
        int rack;
        try {
            rack = Integer.parseInt(writerRack == null ? "" : writerRack.strip());
        } catch (NumberFormatException e) {
            throw CircuitRefusal.badRequest("writerRack", "writerRack is a rack number from 0 to " + (racks - 1)
                    + ", not '" + clip(writerRack) + "'");
        }
        if (rack < 0 || rack >= racks) {
            throw CircuitRefusal.badRequest("writerRack", "writerRack must be from 0 to " + (racks - 1) + ", not " + rack);
        }
        long now = Math.floorDiv(nowNanos.getAsLong(), 1_000_000L);
        ReplicaPlacement placement = setup.placement();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("writerRack", rack);
        json.put("replicaRack", placement.replicaRack(rack, now));
        json.put("offset", placement.offsetAt(now));
        long change = placement.nextRotationMillis(now);
        json.put("validUntil", change == Long.MAX_VALUE ? null : java.time.Instant.ofEpochMilli(change).toString());
        return json;
    }

    @Override
    public Map<String, Object> reportAdus(String body) {
        Object json = parse(body);
        if (json instanceof List<?> list && list.size() > MAX_ADU_BATCH) {
            throw CircuitRefusal.badRequest("$", "a batch holds at most " + MAX_ADU_BATCH + " reports, not " + list.size());
        }
        List<AduReport> batch;
        AduEstimator adu = setup.adu();
        try {
            batch = AduReport.fromJson(json);
            adu.report(batch);
        } catch (IllegalArgumentException e) {
            throw refusal(e);
        }
        return Map.of("accepted", batch.size(), "openFlows", adu.openFlows());
    }

    /** An engine refusal ("$[1].flow.src: ...") as a bad request naming its path. */
    static CircuitRefusal refusal(IllegalArgumentException e) {
        if (e instanceof CircuitRefusal r) {
            return r;
        }
        String message = e.getMessage() == null ? "refused" : e.getMessage();
        int colon = message.indexOf(": ");
        String field = message.startsWith("$") && colon > 0 ? message.substring(0, colon) : "$";
        return CircuitRefusal.badRequest(field, message);
    }

    private static Object parse(String body) {
        if (body == null || body.isBlank()) {
            throw CircuitRefusal.badRequest("$", "the request has no JSON body");
        }
        try {
            return Json.parse(body);
        } catch (IllegalArgumentException e) {
            throw CircuitRefusal.badRequest("$", "the body is not JSON of whole numbers: " + e.getMessage());
        }
    }

    private static String clip(String text) {
        return text == null ? "" : text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }

    // The OSGi services

    @Override
    public Optional<ScheduleView> current() {
        return Optional.ofNullable(weeks.current());
    }

    @Override
    public Optional<ScheduleView> next() {
        return Optional.ofNullable(weeks.next());
    }

    @Override
    public CircuitParameters parameters() {
        return settings.network();
    }

    @Override
    public CircuitGroups groups() {
        return settings.groups();
    }

    @Override
    public OptionalInt rackOf(String host) {
        return settings.groups().rackOf(host);
    }

    @Override
    public int replicaRack(int writerRack) {
        int racks = settings.groups().racks();
        if (writerRack < 0 || writerRack >= racks) {
            throw new IllegalArgumentException("writerRack must be from 0 to " + (racks - 1) + ", not " + writerRack);
        }
        return setup.placement().replicaRack(writerRack, Math.floorDiv(nowNanos.getAsLong(), 1_000_000L));
    }

    String instance() {
        return instance;
    }

    ScheduledExecutorService thread() {
        return thread;
    }
}
