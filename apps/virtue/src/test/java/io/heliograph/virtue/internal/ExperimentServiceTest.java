package io.heliograph.virtue.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.json.Json;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.Reconciliation;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.StaticFlowService;
import io.heliograph.virtue.live.VlanRouting;

/**
 * The experiment service on an in-memory store, a static flows service that keeps what it is given (an
 * in-test fake: the real app and switches are VirtueExperimentIT's) and a real H2 database.
 */
class ExperimentServiceTest {

    @TempDir
    Path dataDir;

    private final InMemorySharedStore store = new InMemorySharedStore();
    private final KeepingFlows flows = new KeepingFlows();
    private VirtueDatabaseAccess database;
    private ExperimentService service;

    @BeforeEach
    void open() {
        database = new VirtueDatabaseAccess(dataDir);
        database.open(VirtueSettings.DEFAULTS);
        service = new ExperimentService(() -> store, () -> flows, database, VlanRouting::new, Clock.systemUTC());
    }

    @AfterEach
    void close() {
        database.close();
    }

    /** One switch "c" joining two PMs' switches; vm1 and vm2 on pm1 (ports 11, 12), vm3 on pm2 (13). */
    static String edf(int cores) {
        List<Object> switches = new ArrayList<>();
        List<Object> links = new ArrayList<>();
        for (int c = 1; c <= cores; c++) {
            switches.add(Map.of("id", dpid(c), "parameters", Map.of(), "software", false));
        }
        switches.add(Map.of("id", dpid(11), "parameters", Map.of(), "software", true));
        switches.add(Map.of("id", dpid(12), "parameters", Map.of(), "software", true));
        for (int c = 1; c <= cores; c++) {
            both(links, dpid(11), c, dpid(c), 1);
            both(links, dpid(12), c, dpid(c), 2);
        }
        both(links, "vm1", 0, dpid(11), 11);
        both(links, "vm2", 0, dpid(11), 12);
        both(links, "vm3", 0, dpid(12), 13);
        List<Object> routes = new ArrayList<>();
        routes.add(route("vm1", "vm3", id("vm1", 0, dpid(11), 11), id(dpid(11), 1, dpid(1), 1),
                id(dpid(1), 2, dpid(12), 1), id(dpid(12), 13, "vm3", 0)));
        routes.add(route("vm1", "vm2", id("vm1", 0, dpid(11), 11), id(dpid(11), 12, "vm2", 0)));
        Map<String, Object> edf = new LinkedHashMap<>();
        edf.put("parameters", Map.of("CPU_COUNT", "2", "CPU_SPEED", "2.8E9", "LINK_SPEED", "100000000",
                "INTRA_PM_LINK_SPEED", "200000000"));
        edf.put("pms", List.of(
                Map.of("id", "pm1", "parameters", Map.of(), "vms", Map.of(
                        "vm1", Map.of("id", "vm1", "parameters", Map.of("MAC", "02:00:00:00:00:01")),
                        "vm2", Map.of("id", "vm2", "parameters", Map.of("MAC", "02:00:00:00:00:02")))),
                Map.of("id", "pm2", "parameters", Map.of(), "vms", Map.of(
                        "vm3", Map.of("id", "vm3", "parameters", Map.of("MAC", "02:00:00:00:00:03"))))));
        edf.put("switches", switches);
        edf.put("links", links);
        edf.put("routes", routes);
        return new String(Json.compact(edf), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aBadEdfIsRefusedAtItsJsonPathAndNothingIsStored() {
        String noMac = edf(1).replace("\"MAC\":\"02:00:00:00:00:01\"", "\"COLOUR\":\"red\"");
        VirtueException refused = assertThrows(VirtueException.class, () -> service.create("bad", noMac));
        assertEquals(VirtueException.Kind.BAD_REQUEST, refused.kind());
        assertTrue(refused.field().startsWith("$.pms[0].vms"), refused.field() + ": " + refused.getMessage());
        VirtueException garbage = assertThrows(VirtueException.class, () -> service.create("bad", "{\"pms\": ["));
        assertEquals(VirtueException.Kind.BAD_REQUEST, garbage.kind());
        assertTrue(service.list().isEmpty());
    }

    @Test
    void startInstallsThePlanStopRemovesExactlyItAndASecondExperimentOnTheSameSwitchesWaits() {
        Experiment created = service.create("one", edf(1));
        assertEquals(3, created.agentKeys().size(), "a key for every VM");
        FlowEntry foreign = FlowEntry.builder(DatapathId.of(1), "operator-kept").priority(5).build();
        flows.add(foreign);

        service.start("one");
        List<FlowEntry> installed = service.entries("one");
        assertFalse(installed.isEmpty());
        assertTrue(installed.stream().allMatch(e -> e.name().startsWith("virtue-one-")), installed.toString());
        assertEquals(installed.size() + 1, flows.entries.size());
        VirtueException twice = assertThrows(VirtueException.class, () -> service.start("one"));
        assertEquals(VirtueException.Kind.CONFLICT, twice.kind());

        service.create("two", edf(1));
        VirtueException shared = assertThrows(VirtueException.class, () -> service.start("two"));
        assertEquals(VirtueException.Kind.CONFLICT, shared.kind());
        assertTrue(shared.getMessage().contains("experiment one runs on switch"), shared.getMessage());

        assertEquals(ExperimentState.STOPPED, service.stop("one").state());
        assertEquals(List.of(foreign), new ArrayList<>(flows.entries.values()), "only the operator's entry is left");
        service.start("two");
        assertEquals(ExperimentState.RUNNING, service.get("two").state());
    }

    @Test
    void anAgentReportsOnlyForItsOwnVmAndOnlyNumbers() throws Exception {
        Experiment e = service.create("agents", edf(1));
        String vm1 = e.agentKeys().get("vm1");
        VirtueException notRunning = assertThrows(VirtueException.class,
                () -> service.report("agents", vm1, Map.of("vm", "vm1", "cpu", 0.5)));
        assertEquals(VirtueException.Kind.CONFLICT, notRunning.kind());
        service.start("agents");

        VirtueException other = assertThrows(VirtueException.class,
                () -> service.report("agents", vm1, Map.of("vm", "vm2", "cpu", 0.5)));
        assertEquals(VirtueException.Kind.FORBIDDEN, other.kind());
        assertTrue(other.getMessage().contains("vm1's"), other.getMessage());
        assertEquals(VirtueException.Kind.FORBIDDEN, assertThrows(VirtueException.class,
                () -> service.report("agents", "nobody", Map.of("vm", "vm1", "cpu", 0.5))).kind());
        for (Object bad : List.<Object>of(Map.of("vm", "vm1", "cpu", "high"), Map.of("vm", "vm1", "cpu", -1),
                Map.of("vm", "vm1", "metrics", Map.of("rps", "many")), Map.of("vm", "vm1", "colour", 1),
                Map.of("vm", "vm9", "cpu", 0.1), List.of(1, 2))) {
            VirtueException refused = assertThrows(VirtueException.class, () -> service.report("agents", vm1, bad),
                    bad.toString());
            assertEquals(VirtueException.Kind.BAD_REQUEST, refused.kind(), bad + ": " + refused.getMessage());
        }

        service.report("agents", vm1, Map.of("vm", "vm1", "cpu", 0.25, "metrics", Map.of("requestsPerSecond", 900)));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (database.series("agents", "vm1").size() < 2) {
            assertTrue(System.nanoTime() < deadline, "the report reaches the database");
            Thread.sleep(20);
        }
        assertEquals(0.25, database.series("agents", "vm1").stream().filter(s -> s.metric().equals("cpu"))
                .findFirst().orElseThrow().points().get(0).value());
    }

    @Test
    void anOptimisationIsQueuedOnceAtATimeAndItsExecutedPlanBecomesTheExperiments() throws Exception {
        service.create("opt", edf(1));
        VirtueException nothing = assertThrows(VirtueException.class,
                () -> service.optimise("opt", Map.of("algorithm", "greedyFill")));
        assertEquals(VirtueException.Kind.CONFLICT, nothing.kind(), "nothing recorded, no measurements given");
        assertEquals("algorithm", assertThrows(VirtueException.class,
                () -> service.optimise("opt", Map.of("algorithm", "magic"))).field());
        Map<String, Object> request = Map.of("algorithm", "greedyFill", "seed", 1, "measurements", Map.of("traffic",
                List.of(Map.of("source", "vm1", "destination", "vm3", "bitsPerSecond", 9e7))));
        Optimisation queued = service.optimise("opt", request);
        assertEquals(VirtueException.Kind.CONFLICT,
                assertThrows(VirtueException.class, () -> service.optimise("opt", request)).kind());

        OptimiserTask optimiser = new OptimiserTask(service.optimisations(), service.experiments(), "here",
                (name, limit) -> io.heliograph.virtue.engine.Algorithms.byName(name),
                () -> java.util.concurrent.ForkJoinPool.commonPool(), () -> 1,
                java.util.concurrent.Executors.newSingleThreadScheduledExecutor(), Clock.systemUTC());
        optimiser.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (service.optimisation("opt", queued.id()).state().pending()) {
            assertTrue(System.nanoTime() < deadline, "the optimisation ends");
            Thread.sleep(20);
        }
        optimiser.stop();
        assertEquals(Optimisation.State.DONE, service.optimisation("opt", queued.id()).state(),
                String.valueOf(service.optimisation("opt", queued.id()).error()));
        PlacementReport report = service.result("opt", queued.id()).orElseThrow();
        assertTrue(report.minimaxAfter() < report.minimaxBefore(), report.toString());
        PlacementReport.Move move = report.moves().get(0);

        service.start("opt");
        Experiment executed = service.executed("opt", queued.id());
        assertEquals(1, executed.edfRevision());
        assertTrue(service.edfOf("opt").pms().stream().anyMatch(pm -> pm.id().equals(move.to())
                && pm.vms().containsKey(move.vm())), "the experiment's EDF is the plan's");
        assertFalse(service.entries("opt").isEmpty(), "the new placement's routes are installed");
        assertTrue(service.optimisation("opt", queued.id()).executed() != null);
    }

    private static String dpid(int n) {
        return DatapathId.of(n).toString();
    }

    private static String id(String source, int sourcePort, String destination, int destinationPort) {
        return source + ":" + sourcePort + "->" + destination + ":" + destinationPort;
    }

    private static void both(List<Object> links, String a, int aPort, String b, int bPort) {
        links.add(Map.of("id", id(a, aPort, b, bPort), "sourceId", a, "sourcePort", aPort, "destinationId", b,
                "destinationPort", bPort, "parameters", Map.of()));
        links.add(Map.of("id", id(b, bPort, a, aPort), "sourceId", b, "sourcePort", bPort, "destinationId", a,
                "destinationPort", aPort, "parameters", Map.of()));
    }

    private static Map<String, Object> route(String source, String destination, String... linkIds) {
        return Map.of("sourceId", source, "destinationId", destination, "linkIds", List.of(linkIds));
    }

    /** A static flows service that keeps what it is given and confirms at once. */
    private static final class KeepingFlows implements StaticFlowService {
        final Map<String, FlowEntry> entries = new LinkedHashMap<>();

        @Override
        public List<String> validate(StaticEntry entry) {
            return List.of();
        }

        @Override
        public synchronized CompletionStage<Result> add(StaticEntry entry) {
            FlowEntry flow = (FlowEntry) entry;
            entries.put(flow.dpid() + "/" + flow.name(), flow);
            return CompletableFuture.completedFuture(Result.of(Result.Outcome.INSTALLED));
        }

        @Override
        public synchronized CompletionStage<Result> delete(DatapathId dpid, String name) {
            return CompletableFuture.completedFuture(Result.of(entries.remove(dpid + "/" + name) != null
                    ? Result.Outcome.DELETED : Result.Outcome.NOT_FOUND));
        }

        @Override
        public List<EntryStatus> list(DatapathId dpid) {
            return list().stream().filter(s -> ((FlowEntry) s.entry()).dpid().equals(dpid)).toList();
        }

        @Override
        public synchronized List<EntryStatus> list() {
            return entries.values().stream().map(e -> new EntryStatus(e, EntryStatus.State.INSTALLED, null)).toList();
        }

        @Override
        public List<Reconciliation> reconciliations() {
            return List.of();
        }

        @Override
        public Optional<Reconciliation> reconciliation(DatapathId dpid) {
            return Optional.empty();
        }
    }
}
