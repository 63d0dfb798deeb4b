package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.PostgresServer;
import io.heliograph.testbed.PortCounters;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.Testbed;

/**
 * Issue 22, "what must be shown" 1, 5 and 6 (experiment side): a Virtue experiment on real OVS bridges
 * (see {@link VirtueNetwork}), in the default profile with every app. Starting it installs static
 * entries that are on the switches as the EDF's routes say (VLAN tags pushed at the source PM, matched
 * alone on the "physical" switches, popped at the destination PM); ping traffic between VMs crosses
 * exactly the switch its route names, by the switches' own port counters; stopping removes every entry
 * it added and nothing else (an operator's static flow stays). Bad requests are refused with the field
 * at fault and change nothing; stopping and starting the app's bundle mid-experiment keeps the
 * experiment running and recording; the database (a real PostgreSQL here; the other Virtue tests use the
 * default, embedded H2) stopped for a while loses no round, and reads meanwhile answer 503; a controller
 * restarted mid-experiment keeps every recorded round.
 */
@Timeout(240)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VirtueExperimentIT {

    private static final Duration CONNECT = Duration.ofSeconds(60);
    private static final Duration APP = Duration.ofSeconds(30);
    private static final int PRIORITY = 40000;
    private static final int PINGS = 300;

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static VirtueNetwork network;
    private static RestClient rest;
    private static PostgresServer postgres;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("VirtueExperimentIT");
        postgres = PostgresServer.start(artifacts.resolve("postgresql.log"));
        postgres.createDatabase("virtue");
        distribution = VirtueNetwork.distribution(Map.of("databaseUrl", postgres.jdbcUrl("virtue"), "databaseUser",
                PostgresServer.USER, "databasePassword", postgres.password()));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(CONNECT);
        controller.awaitApi("/api/v1/staticflows/flows", CONNECT);
        rest = controller.rest();
        testbed = Testbed.start("VirtueExperimentIT");
        network = VirtueNetwork.connected(testbed, controller);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("VirtueExperimentIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.close("PostgreSQL", postgres);
        cleanup.finish();
    }

    @Test
    @Order(1)
    void startingInstallsTheRoutesOnTheSwitchesAndTrafficFollowsThemAndStoppingRemovesExactlyThose() {
        // an operator's own static flow, which the experiment must leave alone
        Map<String, Object> own = new LinkedHashMap<>();
        own.put("switch", network.c1.dpid());
        own.put("name", "operator-kept");
        own.put("priority", 1234);
        own.put("eth_type", "0x0806");
        own.put("actions", "output=controller");
        assertEquals(201, rest.post("/api/v1/staticflows/flows", own).status());

        Response created = rest.post("/api/v1/virtue/experiments?name=routes", network.edf());
        assertEquals(201, created.status(), created.toString());
        assertEquals("CREATED", created.json().get("state").asText());
        Response started = rest.post("/api/v1/virtue/experiments/routes/start", "");
        assertEquals(200, started.status(), started.toString());
        assertEquals("RUNNING", started.json().get("state").asText());

        JsonNode experiment = ok(rest.get("/api/v1/virtue/experiments/routes"));
        List<Integer> pm2Vlans = new ArrayList<>();
        experiment.get("vlans").get("pm2").forEach(v -> pm2Vlans.add(v.asInt()));
        List<Integer> pm1Vlans = new ArrayList<>();
        experiment.get("vlans").get("pm1").forEach(v -> pm1Vlans.add(v.asInt()));
        assertEquals(4, pm2Vlans.size(), "four VLAN ids a PM");

        // what the app says it installed is on the switches, at its priority, and nothing else of its
        Map<String, Integer> perSwitch = new HashMap<>();
        for (JsonNode entry : ok(rest.get("/api/v1/virtue/experiments/routes/entries"))) {
            assertTrue(entry.get("name").asText().startsWith("virtue-routes-"), entry.toString());
            perSwitch.merge(entry.get("switch").asText(), 1, Integer::sum);
        }
        for (Bridge sw : network.switches()) {
            List<FlowEntry> ours = Poll.until("the experiment's entries on " + sw, APP, () -> virtueFlows(sw),
                    flows -> flows.size() == perSwitch.getOrDefault(sw.dpid(), 0));
            assertFalse(ours.isEmpty(), "every switch carries a route: " + sw);
        }
        // pm1: vm1 -> vm3 is tagged with one of pm2's VLAN ids and leaves toward c1; vm2 -> vm4 toward c2
        FlowEntry vm1ToVm3 = only(virtueFlows(network.pm1), "dl_src=" + mac("vm1") + ",dl_dst=" + mac("vm3"));
        assertTrue(vm1ToVm3.actions().contains("push_vlan:0x8100"), vm1ToVm3.line());
        assertTrue(vm1ToVm3.actions().endsWith("output:" + network.port(network.pm1, network.c1)), vm1ToVm3.line());
        assertTrue(pm2Vlans.stream().anyMatch(v -> vm1ToVm3.actions().contains("set_field:" + (4096 + v) + "->vlan_vid")),
                vm1ToVm3.line() + " tags with one of pm2's " + pm2Vlans);
        FlowEntry vm2ToVm4 = only(virtueFlows(network.pm1), "dl_src=" + mac("vm2") + ",dl_dst=" + mac("vm4"));
        assertTrue(vm2ToVm4.actions().endsWith("output:" + network.port(network.pm1, network.c2)), vm2ToVm4.line());
        // inside pm1: no tag
        FlowEntry vm1ToVm2 = only(virtueFlows(network.pm1), "dl_src=" + mac("vm1") + ",dl_dst=" + mac("vm2"));
        assertEquals("output:" + network.ports.get("vm2"), vm1ToVm2.actions(), vm1ToVm2.line());
        // c1 and c2 match the VLAN id alone
        for (FlowEntry transit : virtueFlows(network.c1)) {
            assertTrue(transit.match().matches("dl_vlan=\\d+"), transit.line());
        }
        // pm2 pops the tag and delivers to the VM
        FlowEntry toVm3 = only(virtueFlows(network.pm2), "dl_dst=" + mac("vm3"));
        assertTrue(toVm3.actions().startsWith("pop_vlan") && toVm3.actions().endsWith("output:"
                + network.ports.get("vm3")), toVm3.line());

        // traffic follows the routes: vm1 <-> vm3 through c1 only, vm2 <-> vm4 through c2 only
        Crossing viaC1 = crossing(network.vms.get("vm1"), network.vms.get("vm3"));
        assertTrue(viaC1.c1 >= 2L * PINGS && viaC1.c2 < PINGS / 10, "vm1 <-> vm3 through c1 only: " + viaC1);
        Crossing viaC2 = crossing(network.vms.get("vm2"), network.vms.get("vm4"));
        assertTrue(viaC2.c2 >= 2L * PINGS && viaC2.c1 < PINGS / 10, "vm2 <-> vm4 through c2 only: " + viaC2);
        Crossing inside = crossing(network.vms.get("vm1"), network.vms.get("vm2"));
        assertTrue(inside.c1 < PINGS / 10 && inside.c2 < PINGS / 10, "vm1 <-> vm2 stays in pm1: " + inside);

        Response stopped = rest.post("/api/v1/virtue/experiments/routes/stop", "");
        assertEquals(200, stopped.status(), stopped.toString());
        assertEquals("STOPPED", stopped.json().get("state").asText());
        assertEquals(0, ok(rest.get("/api/v1/virtue/experiments/routes/entries")).size());
        for (Bridge sw : network.switches()) {
            Poll.until("the experiment's entries to leave " + sw, APP, () -> virtueFlows(sw), List::isEmpty);
        }
        assertTrue(network.c1.dumpFlows().stream().anyMatch(f -> f.priority() == 1234),
                "the operator's static flow is still on c1");
        assertEquals(200, rest.get("/api/v1/staticflows/flows/" + network.c1.dpid() + "/operator-kept").status());
        Response deleted = rest.delete("/api/v1/virtue/experiments/routes");
        assertEquals(204, deleted.status(), deleted.toString());
        assertEquals(404, rest.get("/api/v1/virtue/experiments/routes").status());
    }

    @Test
    @Order(2)
    void badRequestsAreRefusedNamingTheFieldAndChangeNothing() {
        Map<String, Object> noMac = editable(network.edf());
        @SuppressWarnings("unchecked")
        Map<String, Object> pm1 = (Map<String, Object>) ((List<Object>) noMac.get("pms")).get(0);
        pm1.put("vms", Map.of("vm1", Map.of("id", "vm1", "parameters", Map.of()),
                "vm2", Map.of("id", "vm2", "parameters", Map.of("MAC", mac("vm2")))));
        Response refused = rest.post("/api/v1/virtue/experiments?name=bad", noMac);
        assertEquals(400, refused.status(), refused.toString());
        assertTrue(refused.json().get("field").asText().startsWith("$.pms[0].vms"), refused.toString());

        Map<String, Object> brokenRoute = editable(network.edf());
        @SuppressWarnings("unchecked")
        Map<String, Object> route = (Map<String, Object>) ((List<Object>) brokenRoute.get("routes")).get(0);
        route.put("linkIds", List.of(network.route("vm1", "vm3").get(0)));
        Response broken = rest.post("/api/v1/virtue/experiments?name=bad", brokenRoute);
        assertEquals(400, broken.status(), broken.toString());
        assertTrue(broken.json().get("message").asText().contains("$.routes[0]"), broken.toString());

        Response garbage = rest.send("POST", "/api/v1/virtue/experiments", "application/json", "{\"pms\": [".getBytes());
        assertEquals(400, garbage.status(), garbage.toString());
        assertFalse(ok(rest.get("/api/v1/virtue/experiments")).toString().contains("\"bad\""), "nothing was created");

        assertEquals(404, rest.post("/api/v1/virtue/experiments/nosuch/start", "").status());
        assertEquals(404, rest.get("/api/v1/virtue/experiments/nosuch/snapshot").status());

        assertEquals(201, rest.post("/api/v1/virtue/experiments?name=faults", network.edf()).status());
        assertEquals(409, rest.post("/api/v1/virtue/experiments?name=faults", network.edf()).status(), "a name in use");
        assertEquals(409, rest.post("/api/v1/virtue/experiments/faults/stop", "").status(), "not running");
        Response badAlgorithm = rest.post("/api/v1/virtue/experiments/faults/optimisations", Map.of("algorithm", "magic"));
        assertEquals(400, badAlgorithm.status(), badAlgorithm.toString());
        assertEquals("algorithm", badAlgorithm.json().get("field").asText());
        Map<String, Object> measured = Map.of("algorithm", "saAll", "measurements", Map.of("traffic",
                List.of(Map.of("source", "vm1", "destination", "vm3", "bitsPerSecond", 5e7))));
        Response first = rest.post("/api/v1/virtue/experiments/faults/optimisations", measured);
        assertEquals(202, first.status(), first.toString());
        String id = first.json().get("id").asText();
        JsonNode again = rest.post("/api/v1/virtue/experiments/faults/optimisations", measured).json();
        String state = ok(rest.get("/api/v1/virtue/experiments/faults/optimisations/" + id)).get("state").asText();
        if (state.equals("QUEUED") || state.equals("RUNNING")) {
            assertEquals(409, again.get("status").asInt(), "one optimisation at a time: " + again);
        }
        Poll.until("the optimisation to end", APP, () -> ok(rest.get("/api/v1/virtue/experiments/faults/optimisations/"
                + id)).get("state").asText(), s -> s.equals("DONE") || s.equals("FAILED"));

        // host agents: only while running, only with their own VM's key, only numbers
        assertEquals(200, rest.post("/api/v1/virtue/experiments/faults/start", "").status());
        JsonNode keys = ok(rest.get("/api/v1/virtue/experiments/faults/agents"));
        String vm1Key = keys.get("vm1").asText();
        Response wrongVm = agent("faults", vm1Key, Map.of("vm", "vm2", "cpu", 0.5));
        assertEquals(403, wrongVm.status(), wrongVm.toString());
        assertTrue(wrongVm.json().get("message").asText().contains("vm1"), wrongVm.toString());
        Response noKey = agent("faults", "not-a-key", Map.of("vm", "vm1", "cpu", 0.5));
        assertEquals(403, noKey.status(), noKey.toString());
        Response notANumber = agent("faults", vm1Key, Map.of("vm", "vm1", "cpu", "lots"));
        assertEquals(400, notANumber.status(), notANumber.toString());
        assertEquals("cpu", notANumber.json().get("field").asText());
        Response junk = rest.send("POST", "/api/v1/virtue/experiments/faults/reports", "application/json",
                "][".getBytes());
        assertTrue(junk.status() == 400 || junk.status() == 403, junk.toString());
        assertEquals(202, agent("faults", vm1Key, Map.of("vm", "vm1", "cpu", 0.25, "metrics",
                Map.of("requestsPerSecond", 1200))).status());
        JsonNode series = Poll.until("vm1's report to be recorded", APP,
                () -> ok(rest.get("/api/v1/virtue/experiments/faults/metrics?vm=vm1")).get("series"),
                s -> s.size() == 2);
        assertTrue(series.toString().contains("requestsPerSecond") && series.toString().contains("\"cpu\""),
                series.toString());
    }

    @Test
    @Order(3)
    void theAppStoppedAndStartedMidExperimentKeepsItRunningAndRecording() {
        // "faults" runs since the test before
        long before = rounds("faults");
        long bundle = bundleId("io.heliograph.virtue");
        assertEquals(200, rest.send("POST", "/api/v1/bundles/" + bundle + "/stop", null, null).status());
        Poll.until("the Virtue API to leave with the app", APP, () -> rest.get("/api/v1/virtue/experiments").status(),
                status -> status == 404);
        // its routes stay on the switches: the static flows app keeps them
        assertFalse(virtueFlows(network.pm1).isEmpty(), "the routes stay while the app is stopped");
        assertEquals(200, rest.send("POST", "/api/v1/bundles/" + bundle + "/start", null, null).status());
        Poll.until("the Virtue API back", APP, () -> rest.get("/api/v1/virtue/experiments/faults").status(),
                status -> status == 200);
        assertEquals("RUNNING", ok(rest.get("/api/v1/virtue/experiments/faults")).get("state").asText());
        Poll.until("new rounds recorded after the restart", APP, () -> rounds("faults"), n -> n >= before + 2);
    }

    @Test
    @Order(4)
    void theDatabaseAwayForAWhileLosesNoRound() {
        // "faults" runs, measured every second
        assertTrue(ok(rest.get("/api/v1/virtue/status")).at("/database/open").asBoolean());
        List<String> before = times("faults");
        postgres.stop();
        Response away = rest.get("/api/v1/virtue/experiments/faults/times");
        assertEquals(503, away.status(), "reads say the database is away: " + away);
        // rounds wait in the recorder meanwhile
        Poll.until("three rounds waiting for the database", APP,
                () -> ok(rest.get("/api/v1/virtue/status")).at("/database/pending").asLong(), pending -> pending >= 3);
        postgres.start();
        Poll.until("the waiting rounds written", APP,
                () -> ok(rest.get("/api/v1/virtue/status")).at("/database/pending").asLong(), pending -> pending == 0);
        List<String> after = times("faults");
        assertTrue(after.containsAll(before), "nothing recorded before is lost");
        // no gap across the outage: a round every second, as before it
        List<java.time.Instant> instants = after.stream().map(java.time.Instant::parse)
                .filter(t -> !t.isBefore(java.time.Instant.parse(before.get(before.size() - 1)))).toList();
        assertTrue(instants.size() >= 4, instants.toString());
        for (int i = 1; i < instants.size(); i++) {
            long gap = Duration.between(instants.get(i - 1), instants.get(i)).toMillis();
            assertTrue(gap < 2_500, "a round every second, through the outage too: " + gap + " ms between "
                    + instants.get(i - 1) + " and " + instants.get(i));
        }
        assertEquals(0, ok(rest.get("/api/v1/virtue/status")).at("/database/dropped").asLong());
    }

    @Test
    @Order(5)
    void aControllerRestartedMidExperimentKeepsEveryRecordedRound() {
        List<String> before = times("faults");
        assertFalse(before.isEmpty());
        ControllerProcess previous = controller;
        previous.terminate(Duration.ofSeconds(30));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller-2.log"),
                previous.openflowPort(), previous.httpPort(), previous.dataDir());
        controller.awaitHealthy(CONNECT);
        controller.awaitApi("/api/v1/staticflows/flows", CONNECT);
        rest = controller.rest();
        Poll.until("the Virtue API after the restart", APP, () -> rest.get("/api/v1/virtue/experiments/faults").status(),
                status -> status == 200);
        assertEquals("RUNNING", ok(rest.get("/api/v1/virtue/experiments/faults")).get("state").asText());
        List<String> after = Poll.until("recording to go on after the restart", APP, () -> times("faults"),
                t -> t.size() > before.size());
        assertTrue(after.containsAll(before), "every round recorded before the restart is still there");
        assertEquals(200, rest.post("/api/v1/virtue/experiments/faults/stop", "").status());
        assertEquals(204, rest.delete("/api/v1/virtue/experiments/faults").status());
    }

    // ---- helpers

    private record Crossing(long c1, long c2) {
    }

    /** Pings both ways, counting the packets c1 and c2 sent meanwhile toward either PM. */
    private static Crossing crossing(Host a, Host b) {
        long c1 = sent(network.c1);
        long c2 = sent(network.c2);
        // root's ping may send every 5 ms: PINGS echo requests and their replies in a couple of seconds
        String out = a.exec(Duration.ofSeconds(30), "ping", "-n", "-q", "-c", Integer.toString(PINGS), "-i", "0.005",
                "-W", "2", b.ip()).stdout();
        assertTrue(out.contains(PINGS + " packets transmitted, " + PINGS + " received"), a + " -> " + b + ": " + out);
        return new Crossing(sent(network.c1) - c1, sent(network.c2) - c2);
    }

    private static long sent(Bridge core) {
        long packets = 0;
        for (Bridge pm : List.of(network.pm1, network.pm2)) {
            PortCounters counters = core.portCounters(Integer.toString(network.port(core, pm)));
            packets += counters.txPackets();
        }
        return packets;
    }

    private static List<FlowEntry> virtueFlows(Bridge sw) {
        return sw.dumpFlows().stream().filter(f -> f.priority() == PRIORITY).toList();
    }

    private static FlowEntry only(List<FlowEntry> flows, String matchPart) {
        List<FlowEntry> found = flows.stream().filter(f -> f.match().contains(matchPart)).toList();
        assertEquals(1, found.size(), matchPart + " in " + flows);
        return found.get(0);
    }

    private static String mac(String vm) {
        return network.vms.get(vm).mac();
    }

    private static Response agent(String experiment, String key, Map<String, Object> report) {
        return rest.withHeader("X-Virtue-Agent-Key", key).post("/api/v1/virtue/experiments/" + experiment + "/reports",
                report);
    }

    private static long rounds(String experiment) {
        return times(experiment).size();
    }

    private static List<String> times(String experiment) {
        List<String> times = new ArrayList<>();
        ok(rest.get("/api/v1/virtue/experiments/" + experiment + "/times")).get("times").forEach(t -> times.add(t.asText()));
        return times;
    }

    private static long bundleId(String symbolicName) {
        for (JsonNode bundle : ok(rest.get("/api/v1/bundles"))) {
            if (bundle.get("symbolicName").asText().equals(symbolicName)) {
                return bundle.get("id").asLong();
            }
        }
        throw new AssertionError("no bundle " + symbolicName);
    }

    /** A deep copy whose maps and lists can be changed: the EDF with one part broken on purpose. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> editable(Map<String, Object> edf) {
        return new com.fasterxml.jackson.databind.ObjectMapper().convertValue(edf, Map.class);
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }
}
