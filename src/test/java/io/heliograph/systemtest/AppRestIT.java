package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FatTree;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.Testbed;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 5: the apps' own REST resources on a k=4 fat tree of real Open vSwitch bridges (20 switches,
 * 16 hosts, 32 cables), through the authenticated API of the real distribution.
 *
 * <ul>
 *   <li>Topology: {@code /api/v1/topology/links} lists exactly the fat tree's 64 directed links, all
 *       bidirectional; the summary counts 20 switches on one island; Floodlight's
 *       {@code /wm/topology/links/json} lists each of the 32 cables once, in Floodlight's shape.</li>
 *   <li>Hosts: once every host has reached every other by ping, {@code /api/v1/hosts} places all 16
 *       at their edge ports, its filters and paging agree, and Floodlight's {@code /wm/device/}
 *       answers its query parameters in Floodlight's shape.</li>
 *   <li>Paths: between pods, 4 equal-cost paths of 4 hops; with {@code k} the k shortest, in order,
 *       each a chain of real links; bad {@code k} or {@code metric} is 400 naming it, an unknown switch 404.</li>
 *   <li>Static flows: an entry created over REST is on the switch ({@code ovs-ofctl dump-flows}); a
 *       refused one (a missing prerequisite, a name in use) is not, and the JSON error names the field;
 *       every switch's reconciliation reads OK; Floodlight's pusher paths (all three) push, list,
 *       delete and clear.</li>
 *   <li>Statistics: the port rates of an edge switch.</li>
 *   <li>Fuzz: random and mutated bodies against every static-entry write endpoint: no 500, and a
 *       refused request changes neither the stored entries nor the switch's static flows.</li>
 *   <li>An app stopped through the bundles resource: its paths answer 404 (JSON) while the other
 *       apps' still answer; started again, they answer again.</li>
 *   <li>The OpenAPI document lists every one of the apps' operations, each with a summary.</li>
 * </ul>
 */
@Timeout(900)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AppRestIT {

    private static final int K = 4;
    private static final Duration CONNECT = Duration.ofSeconds(60);
    private static final Duration CONVERGENCE = Duration.ofSeconds(90);
    private static final Duration APP = Duration.ofSeconds(30);
    /** The top 16 bits of every static flow's cookie ("SF"), as ovs-ofctl prints it. */
    private static final String STATIC_COOKIE = "cookie=0x5346";
    private static final int FUZZ_REQUESTS = 400;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static FatTree tree;
    private static RestClient rest;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("AppRestIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        rest = controller.rest();
        testbed = Testbed.start("AppRestIT");
        tree = testbed.fatTree(K, List.of("OpenFlow13"));
        testbed.ovs().setController(tree.switches(), testbed.controllerTarget("tcp", controller.openflowPort()));
        controller.awaitSwitches(tree.switches().size(), CONNECT);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("AppRestIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    @Order(1)
    void linksAreTheFatTreesAndFloodlightsAliasListsEachCableOnce() {
        long start = System.nanoTime();
        Set<String> links = Poll.until("/api/v1/topology/links to list the fat tree's " + tree.directedLinks().size()
                + " directed links", CONVERGENCE, () -> links(ok(rest.get("/api/v1/topology/links"))),
                tree.directedLinks()::equals);
        System.out.printf("REST links: %d directed links listed %d ms after the switches connected%n", links.size(),
                (System.nanoTime() - start) / 1_000_000);
        JsonNode listed = ok(rest.get("/api/v1/topology/links"));
        for (JsonNode link : listed) {
            assertTrue(link.get("bidirectional").asBoolean(), link.toString());
            assertFalse(link.get("firstSeen").asText().isEmpty(), link.toString());
            assertTrue(link.get("lastSeen").asText().compareTo(link.get("firstSeen").asText()) >= 0, link.toString());
        }
        Bridge edge = tree.edge().get(0).get(0);
        assertEquals(K, ok(rest.get("/api/v1/topology/links?dpid=" + edge.dpid())).size(),
                "an edge switch's links: k/2 up, k/2 down");

        JsonNode summary = ok(rest.get("/api/v1/topology"));
        assertEquals(tree.switches().size(), summary.get("switches").asInt(), summary.toString());
        assertEquals(tree.directedLinks().size(), summary.get("links").asInt(), summary.toString());
        assertEquals(0, summary.get("unidirectionalLinks").asInt(), summary.toString());
        assertEquals(1, summary.get("islands").size(), summary.toString());
        assertEquals(tree.switches().size(), summary.at("/islands/0").size(), summary.toString());

        JsonNode floodlight = ok(rest.get("/wm/topology/links/json"));
        assertEquals(tree.cables().size(), floodlight.size(), floodlight.toString());
        Set<String> cables = new TreeSet<>();
        for (JsonNode cable : floodlight) {
            assertEquals(List.of("src-switch", "src-port", "dst-switch", "dst-port", "type", "direction"),
                    fieldNames(cable), cable.toString());
            assertTrue(cable.get("src-port").isInt() && cable.get("dst-port").isInt(), cable.toString());
            assertEquals("internal", cable.get("type").asText());
            assertEquals("bidirectional", cable.get("direction").asText());
            String forward = cable.get("src-switch").asText() + "/" + cable.get("src-port").asInt() + " -> "
                    + cable.get("dst-switch").asText() + "/" + cable.get("dst-port").asInt();
            assertTrue(tree.directedLinks().contains(forward), forward);
            cables.add(forward);
        }
        assertEquals(tree.cables().size(), cables.size(), "each cable once");
    }

    @Test
    @Order(2)
    void hostsAreFoundAtTheirEdgePortsAfterAPingBetweenEveryPair() throws Exception {
        // Reachability, not first-packet loss, is what this test needs (FatTreeIT counts losses):
        // every host pings every other until one answers, so each is seen at its port.
        forEachHostInParallel(from -> {
            for (Host to : tree.hosts()) {
                if (to != from) {
                    from.awaitReachable(to, Duration.ofSeconds(20));
                }
            }
        });

        Map<String, String> truth = new TreeMap<>();
        for (Host host : tree.hosts()) {
            truth.put(host.mac(), host.ip() + " at " + tree.edgeOf(host).dpid() + "/" + tree.portOf(host));
        }
        Map<String, String> found = Poll.until("/api/v1/hosts to place all 16 hosts at their edge ports",
                Duration.ofSeconds(30), () -> hosts(ok(rest.get("/api/v1/hosts")).get("hosts")), truth::equals);
        assertEquals(truth, found);
        assertEquals(tree.hosts().size(), ok(rest.get("/api/v1/hosts")).get("total").asInt());

        Host h0 = tree.hosts().get(0);
        JsonNode one = ok(rest.get("/api/v1/hosts/" + h0.mac()));
        assertEquals(h0.ip(), one.at("/ipv4/0").asText(), one.toString());
        assertEquals(tree.edgeOf(h0).dpid(), one.at("/attachmentPoints/0/dpid").asText(), one.toString());
        assertEquals(tree.portOf(h0), one.at("/attachmentPoints/0/port").asInt(), one.toString());
        assertEquals(Map.of(h0.mac(), truth.get(h0.mac())), hosts(ok(rest.get("/api/v1/hosts?ip=" + h0.ip())).get("hosts")));
        assertEquals(tree.hostsPerEdge(), ok(rest.get("/api/v1/hosts?switch=" + tree.edgeOf(h0).dpid())).get("total")
                .asInt());
        Map<String, String> paged = new TreeMap<>();
        for (int offset = 0; offset < tree.hosts().size(); offset += 5) {
            paged.putAll(hosts(ok(rest.get("/api/v1/hosts?limit=5&offset=" + offset)).get("hosts")));
        }
        assertEquals(truth, paged, "pages of 5 cover every host once");
        assertError(rest.get("/api/v1/hosts/02:00:00:00:99:99"), 404, "mac");
        assertError(rest.get("/api/v1/hosts?ip=10.0.0.300"), 400, "ip");

        JsonNode devices = ok(rest.get("/wm/device/")).get("devices");
        assertEquals(tree.hosts().size(), devices.size(), devices.toString());
        for (JsonNode device : devices) {
            assertEquals(List.of("entityClass", "mac", "ipv4", "ipv6", "vlan", "attachmentPoint", "lastSeen"),
                    fieldNames(device), device.toString());
            String mac = device.at("/mac/0").asText();
            assertEquals(truth.get(mac), device.at("/ipv4/0").asText() + " at "
                    + device.at("/attachmentPoint/0/switch").asText() + "/" + device.at("/attachmentPoint/0/port").asInt());
            assertTrue(device.get("lastSeen").isIntegralNumber(), device.toString());
        }
        JsonNode byIp = ok(rest.get("/wm/device/?ipv4=" + h0.ip())).get("devices");
        assertEquals(1, byIp.size(), byIp.toString());
        assertEquals(h0.mac(), byIp.at("/0/mac/0").asText());
        JsonNode atPort = ok(rest.get("/wm/device/?dpid=" + tree.edgeOf(h0).dpid() + "&port=" + tree.portOf(h0)))
                .get("devices");
        assertEquals(1, atPort.size(), atPort.toString());
        assertEquals(h0.mac(), atPort.at("/0/mac/0").asText());
        assertEquals(1, ok(rest.get("/wm/device/?mac=" + h0.mac())).get("devices").size());
    }

    @Test
    @Order(3)
    void pathsBetweenPodsAreEqualCostOrKShortestChainsOfRealLinks() {
        Bridge src = tree.edge().get(0).get(0);
        Bridge dst = tree.edge().get(3).get(1);
        JsonNode ecmp = ok(rest.get("/api/v1/paths/" + src.dpid() + "/" + dst.dpid()));
        assertEquals("HOPS", ecmp.get("metric").asText(), ecmp.toString());
        assertEquals((K / 2) * (K / 2), ecmp.get("paths").size(), "a fat tree's equal-cost paths between pods");
        Set<String> distinct = new HashSet<>();
        for (JsonNode path : ecmp.get("paths")) {
            assertEquals(4, path.get("hops").asInt(), path.toString());
            distinct.add(checkChain(path, src, dst));
        }
        assertEquals(ecmp.get("paths").size(), distinct.size(), "no path twice");

        JsonNode kShortest = ok(rest.get("/api/v1/paths/0x" + Long.toHexString(src.datapathId()) + "/"
                + dst.datapathId() + "?k=6&metric=hops"));
        assertEquals(6, kShortest.get("k").asInt());
        JsonNode paths = kShortest.get("paths");
        assertEquals(6, paths.size(), kShortest.toString());
        int previous = 0;
        for (JsonNode path : paths) {
            checkChain(path, src, dst);
            assertTrue(path.get("hops").asInt() >= previous, "in order of cost: " + kShortest);
            previous = path.get("hops").asInt();
        }
        assertEquals(4, paths.at("/3/hops").asInt(), "the 4 shortest are the 4-hop ones");
        assertTrue(paths.at("/4/hops").asInt() > 4, "then longer ones: " + kShortest);

        String between = "/api/v1/paths/" + src.dpid() + "/" + dst.dpid();
        assertError(rest.get(between + "?k=0"), 400, "k");
        assertError(rest.get(between + "?k=many"), 400, "k");
        assertError(rest.get(between + "?metric=latency"), 400, "metric");
        assertError(rest.get("/api/v1/paths/s1/" + dst.dpid()), 400, "src");
        assertError(rest.get("/api/v1/paths/" + src.dpid() + "/0x999"), 404, "dst");
    }

    @Test
    @Order(4)
    void staticFlowsCreatedOverRestAreOnTheSwitchAndRefusedOnesAreNot() {
        Bridge edge = tree.edge().get(1).get(0);
        Map<String, Object> web = new LinkedHashMap<>();
        web.put("switch", edge.dpid());
        web.put("name", "rest-web");
        web.put("priority", 1234);
        web.put("eth_type", "0x0800");
        web.put("ip_proto", "6");
        web.put("tcp_dst", "8080");
        web.put("actions", "output=1");
        Response created = rest.post("/api/v1/staticflows/flows", web);
        assertEquals(201, created.status(), created.toString());
        assertEquals("INSTALLED", created.json().get("outcome").asText(), created.toString());
        FlowEntry onSwitch = Poll.until("the flow rest-web on " + edge.name(), APP, () -> flow(edge, 1234), f -> f != null);
        assertTrue(onSwitch.match().contains("tp_dst=8080"), onSwitch.line());
        assertEquals("output:1", onSwitch.actions(), onSwitch.line());
        JsonNode read = ok(rest.get("/api/v1/staticflows/flows/" + edge.dpid() + "/rest-web"));
        assertEquals("INSTALLED", read.get("state").asText(), read.toString());
        assertEquals("OK", read.get("reconciliation").asText(), read.toString());

        // every switch answers its statistics: each was reconciled once announced
        JsonNode reconciled = Poll.until("every switch's reconciliation to read OK", APP,
                () -> ok(rest.get("/api/v1/staticflows/reconciliation")), all -> all.size() == tree.switches().size()
                        && StreamSupport.stream(all.spliterator(), false)
                                .allMatch(r -> r.get("state").asText().equals("OK")));
        JsonNode one = ok(rest.get("/api/v1/staticflows/reconciliation/" + edge.dpid()));
        assertEquals(edge.dpid(), one.get("dpid").asText(), one.toString());
        assertEquals("OK", one.get("state").asText(), one.toString());
        assertEquals(0, one.get("failedInARow").asInt(), one.toString());
        assertTrue(one.get("attempts").asInt() >= 1, one.toString());
        assertError(rest.get("/api/v1/staticflows/reconciliation/0x999"), 404, "dpid");
        assertError(rest.get("/api/v1/staticflows/reconciliation/s1"), 400, "dpid");
        System.out.printf("AppRestIT: %d switches reconciled OK%n", reconciled.size());

        Set<String> before = staticFlows(edge);
        Map<String, Object> noEthType = new LinkedHashMap<>(web);
        noEthType.remove("eth_type");
        noEthType.remove("ip_proto");
        noEthType.remove("tcp_dst");
        noEthType.put("name", "rest-refused");
        noEthType.put("priority", 4321);
        noEthType.put("ipv4_dst", "10.0.0.1");
        JsonNode refusal = assertError(rest.post("/api/v1/staticflows/flows", noEthType), 400, "eth_type");
        assertTrue(refusal.get("message").asText().contains("ipv4_dst"), refusal.toString());
        assertError(rest.post("/api/v1/staticflows/flows", web), 409, "name");
        assertError(rest.post("/api/v1/staticflows/flows", "{\"switch\": \"" + edge.dpid() + "\", \"name\": "), 400,
                null);
        assertEquals(before, staticFlows(edge), "refused entries reach no switch");
        assertEquals(null, flow(edge, 4321));
        assertError(rest.get("/api/v1/staticflows/flows/" + edge.dpid() + "/rest-refused"), 404, "name");

        Map<String, Object> replacement = new LinkedHashMap<>(web);
        replacement.put("actions", "output=2");
        assertEquals(200, rest.put("/api/v1/staticflows/flows/" + edge.dpid() + "/rest-web", replacement).status());
        Poll.until("rest-web to output to port 2 after the PUT", APP, () -> flow(edge, 1234),
                f -> f != null && f.actions().equals("output:2"));

        assertEquals(200, rest.delete("/api/v1/staticflows/flows/" + edge.dpid() + "/rest-web").status());
        Poll.until("rest-web to leave " + edge.name(), APP, () -> flow(edge, 1234), f -> f == null);
        assertError(rest.delete("/api/v1/staticflows/flows/" + edge.dpid() + "/rest-web"), 404, "name");
    }

    @Test
    @Order(5)
    void floodlightsStaticEntryPusherPathsPushListDeleteAndClear() throws Exception {
        Bridge edge = tree.edge().get(2).get(1);
        int priority = 2000;
        for (String base : List.of("/wm/staticentrypusher", "/wm/staticflowpusher", "/wm/staticflowentrypusher")) {
            priority++;
            String name = "fl" + priority;
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("switch", edge.dpid());
            entry.put("name", name);
            entry.put("priority", Integer.toString(priority));
            entry.put("in_port", "1");
            entry.put("active", "true");
            entry.put("actions", "output=2");
            // the oldest path as the oldest scripts call it: curl -d, which sends the form content type
            String contentType = base.equals("/wm/staticflowentrypusher") ? "application/x-www-form-urlencoded"
                    : "application/json";
            Response pushed = rest.send("POST", base + "/json", contentType, JSON.writeValueAsBytes(entry));
            assertEquals(200, pushed.status(), pushed.toString());
            assertEquals("Entry pushed", pushed.json().get("status").asText());
            int expected = priority;
            Poll.until(name + " on " + edge.name(), APP, () -> flow(edge, expected), f -> f != null);

            JsonNode listing = ok(rest.get(base + "/list/" + edge.dpid() + "/json"));
            assertEquals(List.of(edge.dpid()), fieldNames(listing), listing.toString());
            JsonNode listed = null;
            for (JsonNode e : listing.get(edge.dpid())) {
                if (e.has(name)) {
                    listed = e.get(name);
                }
            }
            assertTrue(listed != null, name + " is listed: " + listing);
            assertEquals(Integer.toString(priority), listed.get("priority").asText(), listed.toString());
            assertEquals("1", listed.at("/match/in_port").asText(), listed.toString());
            assertEquals("output=2", listed.at("/instructions/instruction_apply_actions/actions").asText());

            Response deleted = rest.send("DELETE", base + "/json", contentType,
                    ("{\"name\": \"" + name + "\"}").getBytes(StandardCharsets.UTF_8));
            assertEquals(200, deleted.status(), deleted.toString());
            assertEquals("Entry " + name + " deleted", deleted.json().get("status").asText());
            Poll.until(name + " to leave " + edge.name(), APP, () -> flow(edge, expected), f -> f == null);
        }
        JsonNode refusal = assertError(rest.post("/wm/staticentrypusher/json", Map.of("switch", edge.dpid(), "name",
                "fl-bad", "ipv6_src", "fd00::1")), 400, "eth_type");
        assertTrue(refusal.get("message").asText().contains("ipv6_src"), refusal.toString());

        for (String name : List.of("fl-a", "fl-b")) {
            assertEquals(200, rest.post("/wm/staticentrypusher/json", Map.of("switch", edge.dpid(), "name", name,
                    "priority", name.equals("fl-a") ? "3001" : "3002", "in_port", "2", "actions", "output=1")).status());
        }
        Poll.until("fl-a and fl-b on " + edge.name(), APP, () -> flow(edge, 3001) != null && flow(edge, 3002) != null,
                Boolean::booleanValue);
        Response cleared = rest.get("/wm/staticentrypusher/clear/" + edge.dpid() + "/json");
        assertEquals(200, cleared.status(), cleared.toString());
        Poll.until("clear to empty " + edge.name() + " of static flows", APP, () -> staticFlows(edge), Set::isEmpty);
        assertEquals(0, ok(rest.get("/wm/staticentrypusher/list/" + edge.dpid() + "/json")).get(edge.dpid()).size());
    }

    @Test
    @Order(6)
    void portRatesOfAnEdgeSwitch() {
        Bridge edge = tree.edge().get(0).get(0);
        JsonNode rates = Poll.until("port rates of " + edge.name(), Duration.ofSeconds(60),
                () -> rest.get("/api/v1/stats/switches/" + edge.dpid() + "/ports"),
                r -> r.status() == 200 && r.json().size() >= K).json();
        Set<Integer> ports = new TreeSet<>();
        rates.forEach(r -> ports.add(r.get("port").asInt()));
        assertTrue(ports.containsAll(Set.of(1, 2, 3, 4)), rates.toString());
        JsonNode port = ok(rest.get("/api/v1/stats/switches/" + edge.dpid() + "/ports/1"));
        assertTrue(port.get("history").size() >= 1, port.toString());
        assertTrue(port.at("/current/rxBitsPerSecond").isNumber(), port.toString());
        assertEquals(200, rest.get("/api/v1/stats/switches/" + edge.dpid() + "/flows").status());
        assertError(rest.get("/api/v1/stats/switches/0x999/ports"), 404, "dpid");
    }

    @Test
    @Order(7)
    void fuzzedWritesNeverFailOnTheServerAndRefusedOnesChangeNothing() {
        Bridge edge = tree.edge().get(3).get(0);
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("AppRestIT fuzz seed " + seed + " (replay with -Dfuzz.seed=" + seed + ")");
        Random random = new Random(seed);
        EntryFuzz fuzz = new EntryFuzz(random, edge.dpid());
        Map<Integer, Integer> statuses = new TreeMap<>();
        long start = System.nanoTime();
        for (int i = 0; i < FUZZ_REQUESTS; i++) {
            EntryFuzz.Request request = fuzz.next();
            String stored = rest.get("/api/v1/staticflows").body();
            Set<String> onSwitch = staticFlows(edge);
            Response answer = rest.send(request.method(), request.path(), "application/json",
                    request.body().getBytes(StandardCharsets.UTF_8));
            statuses.merge(answer.status(), 1, Integer::sum);
            String what = "request " + i + " (seed " + seed + "): " + request + " -> " + answer;
            assertNotEquals(500, answer.status(), what);
            assertTrue(Set.of(200, 201, 400, 404, 409, 502).contains(answer.status()), what);
            assertTrue(answer.json().isContainerNode(), "a JSON answer: " + what);
            if (answer.status() >= 400) {
                assertTrue(answer.json().has("message"), what);
                assertEquals(stored, rest.get("/api/v1/staticflows").body(), "a refused request changed the store: " + what);
                assertEquals(onSwitch, staticFlows(edge), "a refused request changed the switch: " + what);
            }
        }
        System.out.printf("AppRestIT fuzz: %d requests in %d ms, answers by status %s%n", FUZZ_REQUESTS,
                (System.nanoTime() - start) / 1_000_000, statuses);
        assertTrue(statuses.keySet().stream().anyMatch(s -> s < 300), "some requests are accepted " + statuses);
    }

    @Test
    @Order(8)
    void aStoppedAppsPathsAnswer404AndComeBackWhenItStarts() {
        Bridge edge = tree.edge().get(0).get(1);
        assertEquals(200, rest.get("/api/v1/staticflows").status());
        long staticflows = -1;
        for (JsonNode bundle : ok(rest.get("/api/v1/bundles"))) {
            if (bundle.get("symbolicName").asText().equals("io.heliograph.staticflows")) {
                staticflows = bundle.get("id").asLong();
            }
        }
        assertTrue(staticflows > 0, "the bundles resource lists the static flows app");
        Response stopped = rest.send("POST", "/api/v1/bundles/" + staticflows + "/stop", null, null);
        assertEquals(200, stopped.status(), stopped.toString());
        for (String path : List.of("/api/v1/staticflows", "/api/v1/staticflows/flows/" + edge.dpid() + "/x",
                "/wm/staticentrypusher/list/all/json")) {
            Response gone = Poll.until(path + " to be gone with the static flows app", APP, () -> rest.get(path),
                    r -> r.status() == 404);
            assertEquals("application/json", gone.header("Content-Type").orElse("").replaceFirst(";.*", ""),
                    gone.toString());
            assertEquals(404, gone.json().get("status").asInt(), gone.toString());
        }
        Response pushed = rest.post("/wm/staticentrypusher/json", Map.of("switch", edge.dpid(), "name", "x"));
        assertEquals(404, pushed.status(), pushed.toString());
        assertEquals(200, rest.get("/api/v1/topology/links").status(), "the other apps' paths stay");
        assertEquals(200, rest.get("/api/v1/hosts").status(), "the other apps' paths stay");

        Response started = rest.send("POST", "/api/v1/bundles/" + staticflows + "/start", null, null);
        assertEquals(200, started.status(), started.toString());
        Poll.until("/api/v1/staticflows to answer again once the app starts", APP,
                () -> rest.get("/api/v1/staticflows"), r -> r.status() == 200);
    }

    @Test
    @Order(9)
    void theOpenApiDocumentDescribesEveryAppOperation() {
        // path -> method -> the operation id a generated client calls it by
        Map<String, Map<String, String>> operations = new LinkedHashMap<>();
        operations.put("/api/v1/topology/links", Map.of("get", "listLinks"));
        operations.put("/api/v1/topology", Map.of("get", "getTopology"));
        operations.put("/wm/topology/links/json", Map.of("get", "floodlightListLinks"));
        operations.put("/wm/topology/switchclusters/json", Map.of("get", "floodlightListSwitchClusters"));
        operations.put("/wm/topology/external-links/json", Map.of("get", "floodlightListExternalLinks"));
        operations.put("/wm/core/controller/summary/json", Map.of("get", "floodlightGetSummary"));
        operations.put("/api/v1/hosts", Map.of("get", "listHosts"));
        operations.put("/api/v1/hosts/{mac}", Map.of("get", "getHost"));
        operations.put("/wm/device/", Map.of("get", "floodlightListDevices"));
        operations.put("/wm/device", Map.of("get", "floodlightListDevicesWithoutSlash"));
        operations.put("/api/v1/paths/{src}/{dst}", Map.of("get", "listPaths"));
        operations.put("/api/v1/staticflows", Map.of("get", "listAllStaticEntries"));
        operations.put("/api/v1/staticflows/{kind}", Map.of("get", "listStaticEntries", "post", "createStaticEntry"));
        operations.put("/api/v1/staticflows/{kind}/{dpid}/{name}", Map.of("get", "getStaticEntry",
                "put", "replaceStaticEntry", "delete", "deleteStaticEntry"));
        operations.put("/api/v1/staticflows/reconciliation", Map.of("get", "listReconciliations"));
        operations.put("/api/v1/staticflows/reconciliation/{dpid}", Map.of("get", "getReconciliation"));
        Map<String, String> floodlightNames = Map.of("/wm/staticentrypusher", "StaticEntry",
                "/wm/staticflowpusher", "StaticFlow", "/wm/staticflowentrypusher", "StaticFlowEntry");
        floodlightNames.forEach((base, noun) -> {
            String plural = noun.endsWith("Entry") ? noun.substring(0, noun.length() - 1) + "ies" : noun + "s";
            operations.put(base + "/json", Map.of("post", "floodlightPush" + noun, "delete", "floodlightDelete" + noun));
            operations.put(base + "/list/{dpid}/json", Map.of("get", "floodlightList" + plural));
            operations.put(base + "/clear/{dpid}/json", Map.of("get", "floodlightClear" + plural));
        });
        operations.put("/api/v1/stats/switches/{dpid}/ports", Map.of("get", "listPortRates"));
        operations.put("/api/v1/stats/switches/{dpid}/ports/{port}", Map.of("get", "getPortHistory"));
        operations.put("/api/v1/stats/switches/{dpid}/flows", Map.of("get", "listFlowRates"));
        JsonNode paths = Poll.until("the OpenAPI document to list the static flows app's paths again", APP,
                () -> ok(rest.get("/api/v1/openapi.json")).get("paths"), p -> p.has("/api/v1/staticflows"));
        int count = 0;
        for (Map.Entry<String, Map<String, String>> e : operations.entrySet()) {
            for (Map.Entry<String, String> method : e.getValue().entrySet()) {
                JsonNode operation = paths.path(e.getKey()).path(method.getKey());
                String name = method.getKey() + " " + e.getKey();
                assertFalse(operation.isMissingNode(), name + " is documented");
                assertFalse(operation.path("summary").asText().isEmpty(), name + " has a summary");
                assertEquals(method.getValue(), operation.path("operationId").asText(), name + "'s operation id");
                count++;
            }
        }
        Set<String> ids = new HashSet<>();
        paths.forEach(item -> item.forEach(operation -> assertTrue(ids.add(operation.path("operationId").asText()),
                "operation id " + operation.path("operationId") + " twice")));
        System.out.printf("AppRestIT: the apps' %d REST operations are in the OpenAPI document, each with a summary"
                + " and its own operation id (%d in the document)%n", count, ids.size());
    }

    /**
     * Issue 20: the README's table of Floodlight paths is true. Every GET path answers 200 with JSON, for
     * a real switch and for {@code all} where it takes a datapath id and for each statistics type it
     * lists; every other method is in the OpenAPI document. The new paths' answers are the fabric's.
     */
    @Test
    @Order(10)
    void everyFloodlightPathTheReadmeListsAnswers() throws Exception {
        List<String> rows = Files.readAllLines(Path.of("../../README.md"), StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("| `/wm/")).toList();
        assertTrue(rows.size() >= 19, "the README's table of Floodlight paths: " + rows);
        int statTypesListed = 0;
        JsonNode openApi = ok(rest.get("/api/v1/openapi.json")).get("paths");
        String dpid = tree.edge().get(0).get(0).dpid();
        int requests = 0;
        for (String row : rows) {
            String[] cells = row.split("\\|");
            String path = cells[1].strip().replace("`", "");
            List<String> methods = List.of(cells[2].strip().toLowerCase(java.util.Locale.ROOT).split(",\\s*"));
            List<String> statTypes = new ArrayList<>();
            String listed = cells[4].contains("one of") ? cells[4].substring(cells[4].indexOf("one of")) : "";
            java.util.regex.Matcher quoted = java.util.regex.Pattern.compile("`([a-z-]+)`").matcher(listed);
            while (path.contains("{statType}") && quoted.find()) {
                statTypes.add(quoted.group(1));
            }
            statTypesListed += statTypes.size();
            for (String method : methods) {
                if (!method.equals("get")) {
                    assertFalse(openApi.path(path).path(method).isMissingNode(), method + " " + path);
                    continue;
                }
                List<String> concrete = new ArrayList<>();
                for (String id : path.contains("{dpid}") ? List.of(dpid, "all") : List.of("")) {
                    String withId = path.replace("{dpid}", id);
                    for (String type : path.contains("{statType}") ? statTypes : List.of("")) {
                        concrete.add(withId.replace("{statType}", type));
                    }
                }
                for (String request : concrete) {
                    Response response = rest.get(request);
                    assertEquals(200, response.status(), request + " (README row " + row + "): " + response);
                    assertTrue(response.json().isContainerNode(), request + ": " + response);
                    requests++;
                }
            }
        }
        assertEquals(11, statTypesListed, "the statistics types the README lists");
        JsonNode summary = ok(rest.get("/wm/core/controller/summary/json"));
        assertEquals(tree.switches().size(), summary.get("# Switches").asInt(), summary.toString());
        assertEquals(ok(rest.get("/api/v1/hosts")).get("total").asInt(), summary.get("# hosts").asInt(),
                summary.toString());
        assertEquals(tree.directedLinks().size(), summary.get("# inter-switch links").asInt(), summary.toString());
        JsonNode clusters = ok(rest.get("/wm/topology/switchclusters/json"));
        assertEquals(1, clusters.size(), "one fat tree, one cluster: " + clusters);
        assertEquals(tree.switches().size(), clusters.elements().next().size(), clusters.toString());
        assertTrue(ok(rest.get("/wm/core/health/json")).get("healthy").asBoolean());
        System.out.printf("AppRestIT: the README's %d Floodlight paths answered %d GET requests%n", rows.size(),
                requests);
    }

    /**
     * Issue 20: a client generated from the document by a real generator (openapi-python-client,
     * pinned in src/test/python/requirements.txt and installed by {@code deploy/heliograph test}) lists
     * the switches and lists, creates, reads and deletes a static entry through its typed calls
     * (src/test/python/drive_generated_client.py), and reads a refusal as the API's error body.
     */
    @Test
    @Order(11)
    void aClientGeneratedFromTheOpenApiDocumentDrivesStaticEntries() throws Exception {
        Path tools = Path.of("../../.test-tools/python/bin").toAbsolutePath().normalize();
        Path generator = tools.resolve("openapi-python-client");
        assertTrue(Files.isExecutable(generator), generator + " is missing: run deploy/heliograph test-tools");
        long start = System.nanoTime();
        Path work = Files.createDirectories(artifacts.resolve("generated-client"));
        Path document = work.resolve("openapi.json");
        Files.writeString(document, ok(rest.get("/api/v1/openapi.json")).toPrettyString());
        Path config = Files.writeString(work.resolve("config.yaml"),
                "project_name_override: heliograph-client\npackage_name_override: heliograph_client\n"
                // a bundle's jar is a binary body like any other to this generator
                + "content_type_overrides:\n  application/java-archive: application/octet-stream\n");
        Path client = work.resolve("heliograph_client");
        io.heliograph.testbed.CommandResult generated = io.heliograph.testbed.Command.of(generator.toString(),
                "generate", "--path", document.toString(), "--output-path", client.toString(), "--meta", "none",
                "--config", config.toString(), "--overwrite")
                // its formatting hooks run the pinned ruff from the same folder
                .env(Map.of("PATH", tools + java.io.File.pathSeparator + System.getenv("PATH")))
                .timeout(Duration.ofSeconds(120)).run();
        Files.writeString(work.resolve("generate.log"), generated.stdout() + generated.stderr());
        assertEquals(0, generated.exitCode(), "openapi-python-client: " + generated.stdout() + generated.stderr());
        assertFalse((generated.stdout() + generated.stderr()).contains("Warning"),
                "the generator understood every operation: " + generated.stdout() + generated.stderr());
        long generatedAt = System.nanoTime();

        Response token = rest.post("/api/v1/auth/tokens", Map.of("name", "AppRestIT generated client"));
        assertEquals(201, token.status(), token.toString());
        String dpids = String.join(",", tree.switches().stream().map(Bridge::dpid).toList());
        try {
            io.heliograph.testbed.CommandResult driven = io.heliograph.testbed.Command.of(
                    tools.resolve("python").toString(), Path.of("python/drive_generated_client.py").toAbsolutePath()
                            .normalize().toString(), rest.base().toString(), token.json().get("token").asText(), dpids)
                    .env(Map.of("PYTHONPATH", work.toString())).timeout(Duration.ofSeconds(60)).run();
            assertEquals(0, driven.exitCode(), driven.stdout() + driven.stderr());
            JsonNode seen = JSON.readTree(driven.stdout().strip().lines().reduce((a, b) -> b).orElse("{}"));
            assertEquals(tree.switches().size(), seen.get("switches").asInt(), seen.toString());
            assertEquals("INSTALLED", seen.get("created").asText(), seen.toString());
            assertEquals("flow", seen.at("/read/kind").asText(), seen.toString());
            assertEquals("DELETED", seen.get("deleted").asText(), seen.toString());
            assertEquals("entry_type", seen.at("/refused/field").asText(), seen.toString());
            assertEquals(null, flow(tree.switches().get(0), 2345), "the deleted entry left the switch");
            System.out.printf("AppRestIT: the generated Python client drove %s; generated in %d ms, driven in %d ms%n",
                    seen, (generatedAt - start) / 1_000_000, (System.nanoTime() - generatedAt) / 1_000_000);
        } finally {
            rest.delete("/api/v1/auth/tokens/" + token.json().get("id").asText());
        }
        Response gone = rest.get("/api/v1/staticflows/flows/" + tree.switches().get(0).dpid() + "/generated-client");
        assertEquals(404, gone.status(), gone.toString());
    }

    // ---- helpers ----

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }

    /** An error answer: its status, JSON body with that status, the field it names (null: none), and a message. */
    private static JsonNode assertError(Response response, int status, String field) {
        assertEquals(status, response.status(), response.toString());
        JsonNode body = response.json();
        assertEquals(status, body.get("status").asInt(), response.toString());
        if (field == null) {
            assertTrue(body.get("field") == null || body.get("field").isNull(), response.toString());
        } else {
            assertEquals(field, body.path("field").asText(), response.toString());
        }
        assertFalse(body.path("message").asText().isEmpty(), response.toString());
        assertFalse(response.body().contains("\tat "), "no stack trace: " + response);
        return body;
    }

    /** The listed links as "dpid/port -> dpid/port", as {@link FatTree#directedLinks()} spells them. */
    private static Set<String> links(JsonNode links) {
        Set<String> out = new TreeSet<>();
        for (JsonNode l : links) {
            out.add(l.at("/src/dpid").asText() + "/" + l.at("/src/port").asInt() + " -> " + l.at("/dst/dpid").asText()
                    + "/" + l.at("/dst/port").asInt());
        }
        return out;
    }

    /** MAC -> "ip at dpid/port" for each listed host, as the truth is written. */
    private static Map<String, String> hosts(JsonNode hosts) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode h : hosts) {
            out.put(h.get("mac").asText(), h.at("/ipv4/0").asText() + " at " + h.at("/attachmentPoints/0/dpid").asText()
                    + "/" + h.at("/attachmentPoints/0/port").asInt());
        }
        return out;
    }

    /** Checks that a path runs from src to dst over real links, each starting where the last ended; its hop list. */
    private static String checkChain(JsonNode path, Bridge src, Bridge dst) {
        JsonNode links = path.get("links");
        assertEquals(path.get("hops").asInt(), links.size(), path.toString());
        assertEquals(src.dpid(), links.at("/0/srcDpid").asText(), path.toString());
        assertEquals(dst.dpid(), links.get(links.size() - 1).get("dstDpid").asText(), path.toString());
        StringBuilder hops = new StringBuilder();
        Set<String> visited = new HashSet<>(Set.of(src.dpid()));
        for (int i = 0; i < links.size(); i++) {
            JsonNode l = links.get(i);
            String link = l.get("srcDpid").asText() + "/" + l.get("srcPort").asInt() + " -> " + l.get("dstDpid").asText()
                    + "/" + l.get("dstPort").asInt();
            assertTrue(tree.directedLinks().contains(link), "a real link: " + link);
            if (i > 0) {
                assertEquals(links.get(i - 1).get("dstDpid").asText(), l.get("srcDpid").asText(), path.toString());
            }
            assertTrue(visited.add(l.get("dstDpid").asText()), "loop-free: " + path);
            hops.append(link).append(", ");
        }
        return hops.toString();
    }

    /** The flow with this priority on the bridge, or null. */
    private static FlowEntry flow(Bridge bridge, int priority) {
        return bridge.dumpFlows().stream().filter(f -> f.priority() == priority).findFirst().orElse(null);
    }

    /** The static flows on the bridge (by their cookie), without counters: priority, match and actions. */
    private static Set<String> staticFlows(Bridge bridge) {
        Set<String> flows = new TreeSet<>();
        for (FlowEntry f : bridge.dumpFlows()) {
            if (f.line().contains(STATIC_COOKIE)) {
                flows.add(f.priority() + " " + f.match() + " " + f.actions());
            }
        }
        return flows;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static void forEachHostInParallel(Consumer<Host> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tree.hosts().size());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (Host host : tree.hosts()) {
                running.add(pool.submit(() -> task.accept(host)));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Requests for the static-entry write endpoints (the API's POST, PUT and DELETE, and Floodlight's
     * POST and DELETE under its three paths): valid entries for one switch, mutated a few times, their
     * JSON text damaged now and then, or a random JSON value.
     */
    private static final class EntryFuzz {

        record Request(String method, String path, String body) {
        }

        private static final List<String> KEYS = List.of("switch", "name", "entry_type", "table", "priority",
                "idle_timeout", "cookie", "flags", "actions", "instruction_apply_actions", "instruction_goto_table",
                "in_port", "eth_type", "eth_dst", "eth_vlan_vid", "ip_proto", "ipv4_dst", "ipv6_src", "tcp_dst",
                "group_id", "group_type", "group_buckets", "bucket_actions", "meter_id", "meter_flags", "meter_bands",
                "rate", "type", "bogus");
        private static final List<String> TEXTS = List.of("0x0800", "0x86dd", "6", "17", "10.0.0.1", "10.0.0.0/8",
                "fd00::1", "00:00:00:00:00:01", "output=2", "output=99", "output=controller", "group=1",
                "set_field=eth_dst->00:00:00:00:00:02", "drop", "all", "select", "kbps", "flow", "group", "meter",
                "0x1", "-1", "4294967296", "", " ", "fz", "a b", "\u00e9", "'", "\"", "\\", "x".repeat(200), "0x10/0xff");
        private static final List<String> PATHS = List.of("/api/v1/staticflows/flows", "/api/v1/staticflows/groups",
                "/api/v1/staticflows/meters", "/wm/staticentrypusher/json", "/wm/staticflowpusher/json",
                "/wm/staticflowentrypusher/json");

        private final Random random;
        private final String dpid;

        EntryFuzz(Random random, String dpid) {
            this.random = random;
            this.dpid = dpid;
        }

        Request next() {
            String body = body();
            String path = pick(PATHS);
            if (path.startsWith("/wm/")) {
                return new Request(random.nextInt(4) == 0 ? "DELETE" : "POST", path, body);
            }
            String entry = path + "/" + dpid + "/" + pick(List.of("fz-flow", "fz-group", "fz-meter", "other"));
            return switch (random.nextInt(5)) {
                case 0 -> new Request("PUT", entry, body);
                case 1 -> new Request("DELETE", entry, "");
                default -> new Request("POST", path, body);
            };
        }

        private String body() {
            try {
                if (random.nextInt(20) == 0) {
                    return JSON.writeValueAsString(value(3));
                }
                Map<String, Object> entry = seed();
                for (int i = random.nextInt(4); i > 0; i--) {
                    mutate(entry);
                }
                String text = JSON.writeValueAsString(entry);
                if (random.nextInt(8) == 0) {
                    int at = random.nextInt(text.length());
                    text = random.nextBoolean() ? text.substring(0, at)
                            : text.substring(0, at) + pick(List.of("{", "}", ",", "\"", "\\", "9")) + text.substring(at);
                }
                return text;
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        private Map<String, Object> seed() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("switch", dpid);
            switch (random.nextInt(4)) {
                case 0 -> {
                    m.put("entry_type", "group");
                    m.put("name", "fz-group");
                    m.put("group_id", 7);
                    m.put("group_type", "select");
                    m.put("group_buckets", new ArrayList<>(List.of(
                            new LinkedHashMap<>(Map.of("bucket_weight", 1, "bucket_actions", "output=3")),
                            new LinkedHashMap<>(Map.of("bucket_weight", 1, "bucket_actions", "output=4")))));
                }
                case 1 -> {
                    m.put("entry_type", "meter");
                    m.put("name", "fz-meter");
                    m.put("meter_id", 7);
                    m.put("meter_flags", new ArrayList<>(List.of("kbps")));
                    m.put("meter_bands", new ArrayList<>(List.of(new LinkedHashMap<>(Map.of("type", "drop",
                            "rate", 10000)))));
                }
                default -> {
                    m.put("name", "fz-flow");
                    m.put("priority", 700 + random.nextInt(50));
                    m.put("eth_type", "0x0800");
                    m.put("ip_proto", "17");
                    m.put("udp_dst", Integer.toString(5000 + random.nextInt(100)));
                    m.put("actions", "output=" + (1 + random.nextInt(4)));
                }
            }
            return m;
        }

        @SuppressWarnings("unchecked")
        private void mutate(Map<String, Object> entry) {
            List<String> keys = new ArrayList<>(entry.keySet());
            String key = keys.isEmpty() ? pick(KEYS) : keys.get(random.nextInt(keys.size()));
            switch (random.nextInt(5)) {
                case 0 -> entry.remove(key);
                case 1 -> entry.put(key, value(2));
                case 2 -> entry.put(pick(KEYS), value(2));
                case 3 -> entry.put(key, pick(TEXTS));
                default -> {
                    for (Object v : entry.values()) {
                        if (v instanceof List<?> list && !list.isEmpty()
                                && list.get(random.nextInt(list.size())) instanceof Map<?, ?> element) {
                            mutate((Map<String, Object>) element);
                            return;
                        }
                    }
                    entry.remove(key);
                }
            }
        }

        private Object value(int depth) {
            return switch (random.nextInt(depth > 0 ? 9 : 7)) {
                case 0 -> null;
                case 1 -> random.nextBoolean();
                case 2 -> random.nextInt(70000) - 5;
                case 3 -> random.nextLong();
                case 4 -> random.nextDouble();
                case 5, 6 -> pick(TEXTS);
                case 7 -> new ArrayList<>(java.util.Arrays.asList(value(depth - 1), value(depth - 1)));
                default -> {
                    Map<String, Object> map = new LinkedHashMap<>();
                    map.put(pick(KEYS), value(depth - 1));
                    yield map;
                }
            };
        }

        private <T> T pick(List<T> choices) {
            return choices.get(random.nextInt(choices.size()));
        }
    }
}
