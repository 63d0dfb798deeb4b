package io.heliograph.virtue.internal;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.virtue.engine.Algorithms;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.EdfFormat;
import io.heliograph.virtue.engine.InvalidInputException;
import io.heliograph.virtue.engine.Measurements;
import io.heliograph.virtue.engine.Model;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.Problem;
import io.heliograph.virtue.live.RoutePlan;
import io.heliograph.virtue.live.VlanRouting;
import io.heliograph.virtue.store.Averages;
import io.heliograph.virtue.store.HostReport;

/**
 * What the REST API does with experiments, on any instance of the cluster: create them from EDFs,
 * start them (their VLAN routes become static entries of the static flows app, which keeps them in
 * the cluster's store and has each switch's master install them), stop them (exactly the entries they
 * installed are deleted), take their host agents' reports, queue optimisations of their measurements
 * and apply an optimised placement. Experiments and optimisations are in the shared store
 * ({@link ExperimentStore}, {@link OptimisationStore}); measurements are in the database.
 */
public final class ExperimentService {

    private static final Logger LOG = LoggerFactory.getLogger(ExperimentService.class);
    /** How long a start or stop waits for the static flows app to confirm its entries. */
    static final long ENTRY_WAIT_MS = 15_000;
    static final int DEFAULT_TIME_LIMIT_SECONDS = (int) Model.DEFAULT_TIME_LIMIT.toSeconds();
    static final int MAX_TIME_LIMIT_SECONDS = 86_400;
    private static final int MAX_METRICS = 64;
    private static final Pattern METRIC = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,99}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Supplier<SharedStore> store;
    private final Supplier<StaticFlowService> staticFlows;
    private final VirtueDatabaseAccess database;
    private final Supplier<VlanRouting> routing;
    private final Clock clock;

    ExperimentService(Supplier<SharedStore> store, Supplier<StaticFlowService> staticFlows,
                      VirtueDatabaseAccess database, Supplier<VlanRouting> routing, Clock clock) {
        this.store = store;
        this.staticFlows = staticFlows;
        this.database = database;
        this.routing = routing;
        this.clock = clock;
    }

    ExperimentStore experiments() {
        return new ExperimentStore(sharedStore());
    }

    OptimisationStore optimisations() {
        return new OptimisationStore(sharedStore());
    }

    private SharedStore sharedStore() {
        SharedStore s = store.get();
        if (s == null) {
            throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null,
                    "the cluster's shared store is not available: experiments cannot be read or changed now");
        }
        return s;
    }

    // ---- experiments

    /** Creates an experiment from an EDF's text; a bad EDF is refused with every problem's JSON path. */
    public Experiment create(String name, String edfText) {
        if (edfText == null || edfText.isBlank()) {
            throw VirtueException.badRequest("edf", "the body must be an EDF (JSON), and it is empty");
        }
        if (name != null && !Experiment.ID.matcher(name).matches()) {
            throw VirtueException.badRequest("name", "an experiment name is 1-40 lower-case letters, digits and "
                    + "dashes, starting with a letter or digit, not '" + abbreviate(name) + "'");
        }
        Edf edf = edf(edfText);
        ExperimentStore experiments = experiments();
        String id = name != null ? name : "e" + HexFormat.of().toHexDigits(RANDOM.nextInt());
        plan(edf, id); // refuses routes that cannot be realised, before anything is stored
        Map<String, String> keys = new LinkedHashMap<>();
        for (Edf.Pm pm : edf.pms()) {
            for (String vm : pm.vms().keySet()) {
                byte[] key = new byte[16];
                RANDOM.nextBytes(key);
                keys.put(vm, HexFormat.of().formatHex(key));
            }
        }
        Experiment experiment = new Experiment(id, name != null ? name : id, ExperimentState.CREATED, clock.instant(),
                null, null, keys, 0);
        if (!experiments.create(experiment, edf)) {
            throw VirtueException.conflict("name", "an experiment named " + id + " exists already");
        }
        database.save(experiment, EdfFormat.write(edf));
        LOG.info("experiment {} created: {} PMs, {} VMs, {} switches, {} routes", id, edf.pms().size(),
                vmCount(edf), edf.switches().size(), edf.routes().size());
        return experiment;
    }

    public List<Experiment> list() {
        return experiments().list();
    }

    public Experiment get(String id) {
        return experiments().get(id).orElseThrow(() -> unknown(id));
    }

    public Edf edfOf(String id) {
        return experiments().edf(id).orElseThrow(() -> unknown(id));
    }

    /** The VLAN ids of each PM, as the experiment's routes use them. */
    public Map<String, List<Integer>> vlans(String id) {
        return plan(edfOf(id), id).vlans();
    }

    /** Installs the experiment's routes and starts measuring it. */
    public synchronized Experiment start(String id) {
        Experiment experiment = get(id);
        if (experiment.state() == ExperimentState.RUNNING) {
            throw VirtueException.conflict("id", "experiment " + id + " is running already");
        }
        Edf edf = edfOf(id);
        RoutePlan plan = plan(edf, id);
        refuseSharedSwitches(id, edf);
        install(experiment, plan);
        Experiment started = experiments().update(id, e -> e.withState(ExperimentState.RUNNING, clock.instant()))
                .orElseThrow(() -> unknown(id));
        database.save(started, EdfFormat.write(edf));
        LOG.info("experiment {} started", id);
        return started;
    }

    /** Removes the experiment's routes (exactly the entries it installed) and stops measuring it. */
    public synchronized Experiment stop(String id) {
        Experiment experiment = get(id);
        if (experiment.state() != ExperimentState.RUNNING) {
            throw VirtueException.conflict("id", "experiment " + id + " is not running (" + experiment.state() + ")");
        }
        uninstall(experiment);
        Experiment stopped = experiments().update(id, e -> e.withState(ExperimentState.STOPPED, clock.instant()))
                .orElseThrow(() -> unknown(id));
        database.save(stopped, EdfFormat.write(edfOf(id)));
        LOG.info("experiment {} stopped", id);
        return stopped;
    }

    /** Deletes an experiment, its optimisations and its recorded measurements (a running one is stopped first). */
    public synchronized void delete(String id) {
        Experiment experiment = get(id);
        if (experiment.state() == ExperimentState.RUNNING) {
            stop(id);
        }
        database.delete(id); // first: if the database cannot, nothing is lost
        OptimisationStore optimisations = optimisations();
        for (Optimisation o : optimisations.of(id)) {
            optimisations.delete(o.id());
        }
        experiments().delete(id);
        LOG.info("experiment {} deleted", id);
    }

    /** The static entries the experiment has installed now, on every switch. */
    public List<FlowEntry> entries(String id) {
        Experiment experiment = get(id);
        List<FlowEntry> installed = new ArrayList<>();
        for (EntryStatus status : flows().list()) {
            if (status.entry() instanceof FlowEntry flow && flow.name().startsWith(experiment.entryPrefix())) {
                installed.add(flow);
            }
        }
        return installed;
    }

    private RoutePlan plan(Edf edf, String id) {
        try {
            return routing.get().plan(edf, id);
        } catch (InvalidInputException e) {
            throw refusal(e.problems());
        }
    }

    /**
     * One experiment at a time on a switch, as in the thesis: the VLAN ids come from the PMs' order, so two
     * experiments' VLAN-only transit entries (same match, same priority) would replace each other.
     */
    private void refuseSharedSwitches(String id, Edf edf) {
        java.util.Set<String> switches = new java.util.HashSet<>();
        edf.switches().forEach(sw -> switches.add(sw.id()));
        for (Experiment other : experiments().list()) {
            if (other.state() == ExperimentState.RUNNING && !other.id().equals(id)) {
                for (Edf.Switch sw : edfOf(other.id()).switches()) {
                    if (switches.contains(sw.id())) {
                        throw VirtueException.conflict("id", "experiment " + other.id() + " runs on switch " + sw.id()
                                + " already: one experiment at a time on a switch (their VLAN routes would collide)");
                    }
                }
            }
        }
    }

    private void install(Experiment experiment, RoutePlan plan) {
        StaticFlowService flows = flows();
        List<CompletableFuture<Result>> adds = new ArrayList<>();
        for (FlowEntry entry : plan.entries()) {
            List<String> problems = flows.validate(entry);
            if (!problems.isEmpty()) {
                throw VirtueException.conflict("edf", "the static flows app refuses the route entry " + entry.name()
                        + " for switch " + entry.dpid() + ": " + String.join("; ", problems));
            }
        }
        for (FlowEntry entry : plan.entries()) {
            adds.add(flows.add(entry).toCompletableFuture());
        }
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < adds.size(); i++) {
            Result result = await(adds.get(i), "installing " + plan.entries().get(i).name());
            if (!result.ok()) {
                failures.add(plan.entries().get(i).name() + " on " + plan.entries().get(i).dpid() + ": " + result.message());
            }
        }
        if (!failures.isEmpty()) {
            uninstall(experiment);
            throw VirtueException.conflict("edf", "the routes could not be installed, and what was is removed again: "
                    + String.join("; ", failures));
        }
    }

    private void uninstall(Experiment experiment) {
        StaticFlowService flows = flows();
        List<CompletableFuture<Result>> deletes = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (EntryStatus status : flows.list()) {
            if (status.entry() instanceof FlowEntry flow && flow.name().startsWith(experiment.entryPrefix())) {
                deletes.add(flows.delete(flow.dpid(), flow.name()).toCompletableFuture());
                names.add(flow.name() + " on " + flow.dpid());
            }
        }
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < deletes.size(); i++) {
            Result result = await(deletes.get(i), "deleting " + names.get(i));
            if (!result.ok() && result.outcome() != Result.Outcome.NOT_FOUND) {
                failures.add(names.get(i) + ": " + result.message());
            }
        }
        if (!failures.isEmpty()) {
            throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null,
                    "some route entries could not be deleted (try again): " + String.join("; ", failures));
        }
    }

    private StaticFlowService flows() {
        StaticFlowService flows = staticFlows.get();
        if (flows == null) {
            throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null,
                    "the static flows app is not running: routes cannot be installed or removed");
        }
        return flows;
    }

    private static Result await(CompletableFuture<Result> stage, String what) {
        try {
            return stage.get(ENTRY_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null, what + ": no answer in "
                    + ENTRY_WAIT_MS + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null, what + ": interrupted");
        } catch (ExecutionException e) {
            throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null, what + ": " + e.getCause());
        }
    }

    // ---- host agents

    /** The key each VM's agent reports with. */
    public Map<String, String> agentKeys(String id) {
        return get(id).agentKeys();
    }

    /**
     * A host agent's report for one of the experiment's VMs: {@code {"vm": id, "cpu": share, "metrics":
     * {name: number}}}, cpu being the share of one of its PM's CPUs it used (0 to the PM's CPU count). The
     * key must be that VM's: an agent reports for its own VM only.
     */
    public void report(String id, String key, Object body) {
        Experiment experiment = get(id);
        if (!(body instanceof Map<?, ?> report)) {
            throw VirtueException.badRequest(null, "a report is a JSON object {\"vm\", \"cpu\", \"metrics\"}");
        }
        for (Object member : report.keySet()) {
            if (!List.of("vm", "cpu", "metrics").contains(member)) {
                throw VirtueException.badRequest(String.valueOf(member), "unknown member (vm, cpu, metrics)");
            }
        }
        if (!(report.get("vm") instanceof String vm)) {
            throw VirtueException.badRequest("vm", "the VM id is required, as a string");
        }
        String owner = null;
        for (Map.Entry<String, String> agent : experiment.agentKeys().entrySet()) {
            if (agent.getValue().equals(key)) {
                owner = agent.getKey();
            }
        }
        if (!experiment.agentKeys().containsKey(vm)) {
            throw VirtueException.badRequest("vm", "experiment " + id + " has no VM '" + abbreviate(vm) + "'");
        }
        if (owner == null) {
            throw new VirtueException(VirtueException.Kind.FORBIDDEN, "X-Virtue-Agent-Key",
                    "the agent key is none of experiment " + id + "'s (GET .../agents gives them)");
        }
        if (!owner.equals(vm)) {
            throw new VirtueException(VirtueException.Kind.FORBIDDEN, "vm",
                    "this agent key is " + owner + "'s: it cannot report for " + vm);
        }
        if (experiment.state() != ExperimentState.RUNNING) {
            throw VirtueException.conflict("id", "experiment " + id + " is not running (" + experiment.state()
                    + "): reports are taken while it runs");
        }
        Double cpu = null;
        if (report.get("cpu") != null) {
            if (!(report.get("cpu") instanceof Number n) || !Double.isFinite(n.doubleValue()) || n.doubleValue() < 0
                    || n.doubleValue() > 1024) {
                throw VirtueException.badRequest("cpu", "the CPU share is a number from 0 (idle) to the PM's CPU "
                        + "count (1: one CPU busy), not " + abbreviate(String.valueOf(report.get("cpu"))));
            }
            cpu = n.doubleValue();
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (report.get("metrics") instanceof Map<?, ?> given) {
            if (given.size() > MAX_METRICS) {
                throw VirtueException.badRequest("metrics", "at most " + MAX_METRICS + " metrics a report, not "
                        + given.size());
            }
            for (Map.Entry<?, ?> metric : given.entrySet()) {
                String name = String.valueOf(metric.getKey());
                if (!METRIC.matcher(name).matches() || name.equals(HostReport.CPU)) {
                    throw VirtueException.badRequest("metrics", "a metric name is a letter then up to 99 letters, "
                            + "digits, '_', '.', '-' (and not 'cpu', which has its own member): '" + abbreviate(name) + "'");
                }
                if (!(metric.getValue() instanceof Number n) || !Double.isFinite(n.doubleValue())) {
                    throw VirtueException.badRequest("metrics." + name, "a metric's value is a finite number, not "
                            + abbreviate(String.valueOf(metric.getValue())));
                }
                metrics.put(name, n.doubleValue());
            }
        } else if (report.get("metrics") != null) {
            throw VirtueException.badRequest("metrics", "metrics is an object of name to number");
        }
        if (cpu == null && metrics.isEmpty()) {
            throw VirtueException.badRequest("cpu", "a report has a cpu share or metrics, or both");
        }
        database.record(new HostReport(id, clock.instant(), vm, cpu, metrics));
    }

    // ---- optimisations

    /**
     * Queues an optimisation of the experiment: {@code {"algorithm", "seed", "timeLimitSeconds",
     * "measurements"}}; without measurements, the averages of what was recorded of its last run.
     */
    public Optimisation optimise(String id, Object body) {
        Experiment experiment = get(id);
        if (!(body instanceof Map<?, ?> request)) {
            throw VirtueException.badRequest(null, "the body is {\"algorithm\": name, \"seed\": number, "
                    + "\"timeLimitSeconds\": number, \"measurements\": {...} (optional)}");
        }
        for (Object member : request.keySet()) {
            if (!List.of("algorithm", "seed", "timeLimitSeconds", "measurements", "from", "to").contains(member)) {
                throw VirtueException.badRequest(String.valueOf(member),
                        "unknown member (algorithm, seed, timeLimitSeconds, measurements, from, to)");
            }
        }
        if (!(request.get("algorithm") instanceof String algorithm) || !algorithmNames().contains(algorithm)) {
            throw VirtueException.badRequest("algorithm", "the algorithm is one of " + algorithmNames() + ", not "
                    + abbreviate(String.valueOf(request.get("algorithm"))));
        }
        long seed = request.get("seed") == null ? RANDOM.nextLong() : whole(request.get("seed"), "seed",
                Long.MIN_VALUE, Long.MAX_VALUE);
        int timeLimit = request.get("timeLimitSeconds") == null ? DEFAULT_TIME_LIMIT_SECONDS
                : (int) whole(request.get("timeLimitSeconds"), "timeLimitSeconds", 1, MAX_TIME_LIMIT_SECONDS);
        Edf edf = edfOf(id);
        if (request.get("measurements") != null && (request.get("from") != null || request.get("to") != null)) {
            throw VirtueException.badRequest("from", "from and to choose which recorded rounds to average: a request "
                    + "that brings its measurements has none");
        }
        Measurements measurements = request.get("measurements") != null ? measurements(request.get("measurements"))
                : recorded(experiment, edf, instant(request.get("from"), "from"), instant(request.get("to"), "to"));
        try {
            PlacementProblem.of(edf, measurements); // the VMs measured are the EDF's, every figure in range
        } catch (InvalidInputException e) {
            throw refusal(e.problems());
        } catch (IllegalArgumentException e) {
            throw VirtueException.badRequest("measurements", e.getMessage());
        }
        OptimisationStore optimisations = optimisations();
        synchronized (this) {
            for (Optimisation o : optimisations.of(id)) {
                if (o.state().pending()) {
                    throw VirtueException.conflict("id", "experiment " + id + " has optimisation " + o.id() + " "
                            + o.state() + " already: one at a time");
                }
            }
            Optimisation queued = Optimisation.queued("o" + HexFormat.of().toHexDigits(RANDOM.nextInt()), id, algorithm,
                    seed, timeLimit, clock.instant());
            optimisations.create(queued, MeasurementsJson.write(measurements));
            LOG.info("optimisation {} of experiment {} queued: {} (seed {})", queued.id(), id, algorithm, seed);
            return queued;
        }
    }

    private static Measurements measurements(Object json) {
        try {
            return MeasurementsJson.read(json, "measurements");
        } catch (InvalidInputException e) {
            throw refusal(e.problems());
        }
    }

    /**
     * The averages of the experiment's last run, or of the rounds from {@code from} to {@code to} (each
     * null: the run's start or end), as the engine takes them (CPU in cycles per second).
     */
    private Measurements recorded(Experiment experiment, Edf edf, Instant from, Instant to) {
        Instant start = from != null ? from : experiment.started();
        Instant end = to != null ? to : experiment.state() == ExperimentState.STOPPED ? experiment.stopped() : null;
        Averages averages = database.averages(experiment.id(), start, end);
        if (averages.rounds() == 0 && averages.cpu().isEmpty()) {
            throw VirtueException.conflict("measurements", "nothing is recorded of experiment " + experiment.id()
                    + (from != null || to != null ? " between " + start + " and " + end
                    : experiment.started() == null ? " (it never ran)" : "'s last run")
                    + ": run it, or give the measurements in the request");
        }
        Measurements.Builder builder = Measurements.builder();
        for (Edf.Pm pm : edf.pms()) {
            double speed = cpuSpeed(edf, pm);
            for (String vm : pm.vms().keySet()) {
                Double share = averages.cpu().get(vm);
                if (share != null) {
                    builder.cpu(vm, share * speed);
                }
            }
        }
        averages.nics().forEach((vm, nic) -> builder.nic(vm, nic.sentBitsPerSecond(), nic.receivedBitsPerSecond()));
        averages.traffic().forEach((pair, rate) -> builder.traffic(pair.source(), pair.destination(), rate));
        return builder.build();
    }

    private static double cpuSpeed(Edf edf, Edf.Pm pm) {
        String speed = pm.parameters().getOrDefault(Edf.CPU_SPEED, edf.parameters().get(Edf.CPU_SPEED));
        return speed == null ? 0 : Double.parseDouble(speed);
    }

    public List<Optimisation> optimisations(String id) {
        get(id);
        return optimisations().of(id);
    }

    public Optimisation optimisation(String id, String optimisationId) {
        return optimisations().get(optimisationId).filter(o -> o.experiment().equals(id))
                .orElseThrow(() -> VirtueException.notFound("optimisation", "experiment " + id
                        + " has no optimisation '" + abbreviate(optimisationId) + "'"));
    }

    /** A finished optimisation's result (plan, utilisations, new EDF); empty while it runs or when it failed. */
    public Optional<PlacementReport> result(String id, String optimisationId) {
        return result(optimisation(id, optimisationId));
    }

    /**
     * The result of the optimisation as {@code o} was read: a caller that shows the record and its result
     * reads the record once, or a run ending in between would show DONE without its result.
     */
    public Optional<PlacementReport> result(Optimisation o) {
        return o.state() == Optimisation.State.DONE ? optimisations().result(o.id()) : Optional.empty();
    }

    /**
     * Records that an orchestration tool applied an optimisation's plan: the optimised EDF becomes the
     * experiment's, and a running experiment's routes are those of the new placement from now on.
     */
    public synchronized Experiment executed(String id, String optimisationId) {
        Optimisation o = optimisation(id, optimisationId);
        PlacementReport result = result(id, optimisationId).orElseThrow(() -> VirtueException.conflict(
                "optimisation", "optimisation " + optimisationId + " is " + o.state() + ": only a DONE one has a plan"));
        if (result.edf() == null) {
            throw VirtueException.conflict("optimisation", "optimisation " + optimisationId
                    + " found no feasible placement: there is nothing to execute");
        }
        Edf next = result.edf();
        Experiment experiment = get(id);
        RoutePlan plan = plan(next, id);
        if (experiment.state() == ExperimentState.RUNNING) {
            uninstall(experiment);
        }
        experiments().putEdf(id, next);
        Experiment updated = experiments().update(id, Experiment::withNextEdf).orElseThrow(() -> unknown(id));
        if (experiment.state() == ExperimentState.RUNNING) {
            install(updated, plan);
        }
        optimisations().update(optimisationId, current -> current.executed(clock.instant()));
        database.save(updated, EdfFormat.write(next));
        LOG.info("experiment {}: the placement of optimisation {} is executed ({} moves)", id, optimisationId,
                result.moves().size());
        return updated;
    }

    // ---- helpers

    public static List<String> algorithmNames() {
        List<String> names = new ArrayList<>(Algorithms.all().stream().map(a -> a.name()).toList());
        names.add(Model.NAME);
        return names;
    }

    private static Edf edf(String text) {
        try {
            return EdfFormat.read(text);
        } catch (InvalidInputException e) {
            throw refusal(e.problems());
        } catch (IllegalArgumentException e) {
            throw VirtueException.badRequest("edf", "not an EDF: " + e.getMessage());
        }
    }

    /** A bad EDF or measurement: 400 naming the first problem's JSON path, every problem in the message. */
    static VirtueException refusal(List<Problem> problems) {
        List<String> all = problems.stream().map(Problem::toString).toList();
        return VirtueException.badRequest(problems.isEmpty() ? null : problems.get(0).path(), String.join("; ", all));
    }

    private static Instant instant(Object value, String field) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(String.valueOf(value));
        } catch (java.time.format.DateTimeParseException e) {
            throw VirtueException.badRequest(field, field + " is an ISO-8601 instant (2026-11-29T15:00:00Z), not "
                    + abbreviate(String.valueOf(value)));
        }
    }

    private static long whole(Object value, String field, long min, long max) {
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && n.doubleValue() >= min
                && n.doubleValue() <= max) {
            return n.longValue();
        }
        throw VirtueException.badRequest(field, field + " is a whole number from " + min + " to " + max + ", not "
                + abbreviate(String.valueOf(value)));
    }

    private static int vmCount(Edf edf) {
        return edf.pms().stream().mapToInt(pm -> pm.vms().size()).sum();
    }

    private static VirtueException unknown(String id) {
        return VirtueException.notFound("id", "there is no experiment '" + abbreviate(id) + "'");
    }

    static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }
}
