package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.BundleJar;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FatTree;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.NetworkView;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 5, items 1 and 2, for the core resources: {@code /api/v1/switches}, {@code /bundles},
 * {@code /pipelines} and the Floodlight {@code /wm/core} aliases against the real distribution and a
 * k=4 fat tree of real Open vSwitch bridges (plus one OpenFlow 1.0 bridge, and one OpenFlow 1.5 bridge with
 * two hosts whose counters are OXS statistics: issue 18). What the API says about
 * a switch is compared with what {@code ovs-ofctl} and {@code ovs-vsctl} say; error cases are checked
 * with their status and JSON body; an app (static flows) is installed, started, updated, stopped and
 * uninstalled over REST in the running controller (its REST path answers and goes away, its listener
 * joins and leaves the ERROR pipeline); the write endpoints' bodies are
 * fuzzed (never a 5xx, and a refused request changes nothing); every core endpoint is in the OpenAPI
 * document; and a switch frozen mid-request (ovs-vswitchd stopped by its pid) is a 504.
 */
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CoreRestIT {

    private static final int K = 4;
    private static final Duration CONNECT = Duration.ofSeconds(60);
    private static final Duration SETTLE = Duration.ofSeconds(20);
    private static final String JAR = "application/java-archive";
    private static final String STATIC_FLOWS = "/api/v1/staticflows";
    private static final Pattern SHOW_PORT = Pattern.compile("^\\s*(\\d+|LOCAL)\\(([^)]+)\\): addr:",
            Pattern.MULTILINE);

    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static FatTree tree;
    private static Bridge of10;
    /** An OpenFlow 1.5 bridge apart from the tree, with hosts 201 and 202. */
    private static Bridge of15;
    private static List<Host> of15Hosts;
    private static RestClient rest;
    /** The static flows app of the built distribution, taken out of this copy to be installed over REST. */
    private static Path staticFlowsJar;

    @BeforeAll
    static void start() {
        Path artifacts = ArtifactDirectory.forTest("CoreRestIT");
        staticFlowsJar = hotJar(ControllerDistribution.built().resolve("hot"), "staticflows");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        // forwarding alone forwards (the learning switch stays configured in the PACKET_IN order, stopped)
        distribution.removeApp("heliograph-learningswitch");
        distribution.removeApp("heliograph-staticflows");
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        rest = controller.rest();
        testbed = Testbed.start("CoreRestIT");
        tree = testbed.fatTree(K, List.of("OpenFlow13"));
        of10 = testbed.addSwitch(99, List.of("OpenFlow10"));
        of15 = testbed.addSwitch(98, List.of("OpenFlow15"));
        of15Hosts = List.of(testbed.addHost(201, of15), testbed.addHost(202, of15));
        String target = testbed.controllerTarget("tcp", controller.openflowPort());
        testbed.ovs().setController(tree.switches(), target);
        of10.setController(target);
        of15.setController(target);
        controller.awaitSwitches(tree.switches().size() + 2, CONNECT);
        // Until every link is discovered, the fabric's unknown inter-switch ports count as edge ports:
        // hosts are reachable once the topology has converged, which on a loaded machine can take longer
        // than the first LLDP round.
        Poll.until("the topology to list the fat tree's " + tree.directedLinks().size() + " directed links", CONNECT,
                () -> NetworkView.links(controller), tree.directedLinks()::equals);
        // some traffic, so counters and learned flows are not all zero
        Host a = tree.hosts().get(0);
        Host b = tree.hosts().get(tree.hosts().size() - 1);
        a.awaitReachable(b, SETTLE);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("CoreRestIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    // --- /api/v1/switches ---

    @Test
    @Order(1)
    void theSwitchListIsTheFabric() {
        JsonNode list = ok(rest.get("/api/v1/switches"));
        Set<String> dpids = new HashSet<>();
        list.forEach(s -> dpids.add(s.get("dpid").asText()));
        Set<String> expected = tree.switches().stream().map(Bridge::dpid).collect(Collectors.toSet());
        expected.add(of10.dpid());
        expected.add(of15.dpid());
        assertEquals(expected, dpids);
        for (JsonNode s : list) {
            String dpid = s.get("dpid").asText();
            String version = dpid.equals(of10.dpid()) ? "OpenFlow 1.0" : dpid.equals(of15.dpid()) ? "OpenFlow 1.5"
                    : "OpenFlow 1.3";
            assertEquals(version, s.get("version").asText(), s.toString());
        }
    }

    @Test
    @Order(2)
    void oneSwitchInEachIdFormIsTheSameSwitchAndDescribesItselfAsOvsDoes() {
        Bridge edge = tree.edge().get(0).get(0);
        JsonNode byColon = ok(rest.get("/api/v1/switches/" + edge.dpid()));
        JsonNode byHex = ok(rest.get("/api/v1/switches/0x" + Long.toHexString(edge.datapathId())));
        JsonNode byDecimal = ok(rest.get("/api/v1/switches/" + edge.datapathId()));
        assertEquals(byColon.get("dpid"), byHex.get("dpid"));
        assertEquals(byColon.get("dpid"), byDecimal.get("dpid"));
        assertEquals(edge.dpid(), byColon.get("dpid").asText());
        assertTrue(byColon.get("connectedSinceMillis").asLong() > 0, byColon.toString());
        assertEquals(254, byColon.at("/features/tables").asInt(), byColon.toString());

        Map<String, String> desc = new HashMap<>();
        for (String line : edge.ofctl("dump-desc").split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                desc.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
            }
        }
        JsonNode description = ok(rest.get("/api/v1/switches/" + edge.dpid() + "/description"));
        assertEquals(desc.get("Manufacturer"), description.get("manufacturer").asText());
        assertEquals(desc.get("Hardware"), description.get("hardware").asText());
        assertEquals(desc.get("Software"), description.get("software").asText());
        assertEquals(desc.get("Serial Num"), description.get("serialNumber").asText());
        assertEquals(desc.get("DP Description"), description.get("datapath").asText());
        assertEquals(description, byColon.get("description"));
    }

    @Test
    @Order(3)
    void portsAreTheBridgesPorts() {
        for (Bridge bridge : List.of(tree.edge().get(1).get(0), tree.cores().get(0), of10)) {
            Map<String, String> ovs = new TreeMap<>();
            Matcher m = SHOW_PORT.matcher(bridge.ofctl("show"));
            while (m.find()) {
                ovs.put(m.group(1).equals("LOCAL") ? "local" : m.group(1), m.group(2));
            }
            Map<String, String> api = new TreeMap<>();
            for (JsonNode port : ok(rest.get("/api/v1/switches/" + bridge.dpid() + "/ports"))) {
                api.put(port.get("id").asText(), port.get("name").asText());
                assertTrue(port.get("up").asBoolean() || port.get("id").asText().equals("local"), port.toString());
            }
            assertFalse(ovs.isEmpty(), "no ports parsed from ovs-ofctl show of " + bridge);
            assertEquals(ovs, api, "ports of " + bridge);
        }
    }

    @Test
    @Order(4)
    void flowsTablesAndAggregateAreTheFlowTable() {
        Bridge edge = tree.edge().get(0).get(0);
        String base = "/api/v1/switches/" + edge.dpid();
        // flows come and go with traffic and idle timeouts: compare the switch's answer with a dump taken at the same moment
        Poll.until("the REST flows of " + edge.name() + " to be its dump-flows (priorities)", SETTLE, () -> {
            List<Integer> api = new ArrayList<>();
            ok(rest.get(base + "/flows")).forEach(f -> api.add(f.get("priority").asInt()));
            List<Integer> ovs = new ArrayList<>(edge.dumpFlows().stream().map(FlowEntry::priority).toList());
            api.sort(null);
            ovs.sort(null);
            return api.equals(ovs);
        }, same -> same);
        JsonNode flows = ok(rest.get(base + "/flows"));
        JsonNode miss = null;
        for (JsonNode f : flows) {
            if (f.get("priority").asInt() == 0 && f.get("match").isEmpty()) {
                miss = f;
            }
        }
        assertTrue(miss != null, "no table-miss flow in " + flows);
        assertEquals("output=controller", miss.at("/instructions/0/actions/0").asText(), miss.toString());
        long missPackets = edge.dumpFlows().stream().filter(FlowEntry::isTableMiss).mapToLong(FlowEntry::packets)
                .sum();
        assertTrue(miss.get("packets").asLong() <= missPackets, miss + " vs dump-flows " + missPackets);

        Poll.until("aggregate and table 0 of " + edge.name() + " to count its flows", SETTLE, () -> {
            int dumped = edge.dumpFlows().size();
            long aggregate = ok(rest.get(base + "/statistics/aggregate")).get("flowCount").asLong();
            long table0 = ok(rest.get(base + "/tables")).get(0).get("activeCount").asLong();
            return aggregate == dumped && table0 == dumped;
        }, same -> same);
    }

    @Test
    @Order(5)
    void portCountersLieBetweenTwoDumpsOfTheSwitch() {
        Bridge edge = tree.edge().get(0).get(0);
        tree.hosts().get(0).ping(tree.hosts().get(1), 3);
        long before = edge.portCounters("1").rxPackets();
        JsonNode stats = ok(rest.get("/api/v1/switches/" + edge.dpid() + "/statistics"));
        long after = edge.portCounters("1").rxPackets();
        JsonNode port1 = null;
        for (JsonNode p : stats.get("ports")) {
            if (p.get("port").asLong() == 1) {
                port1 = p;
            }
        }
        assertTrue(port1 != null, stats.toString());
        long api = port1.get("rxPackets").asLong();
        assertTrue(before > 0, "no packets received on port 1 of " + edge);
        assertTrue(before <= api && api <= after, "rx packets " + before + " <= " + api + " <= " + after);
        assertTrue(stats.at("/aggregate/flowCount").asLong() > 0, stats.toString());
    }

    @Test
    @Order(6)
    void groupsAndMetersAreWhatTheSwitchHolds() {
        Bridge edge = tree.edge().get(2).get(1);
        String base = "/api/v1/switches/" + edge.dpid();
        assertEquals(0, ok(rest.get(base + "/groups")).size());
        assertEquals(0, ok(rest.get(base + "/meters")).size());
        edge.ofctl("add-group", "group_id=7,type=select,bucket=weight:1,output:1,bucket=weight:3,output:2");
        edge.ofctl("add-meter", "meter=5,kbps,burst,band=type=drop,rate=1000,burst_size=100");
        try {
            JsonNode groups = ok(rest.get(base + "/groups"));
            assertEquals(1, groups.size(), groups.toString());
            assertEquals(7, groups.at("/0/groupId").asLong());
            assertEquals("SELECT", groups.at("/0/type").asText());
            assertEquals(3, groups.at("/0/buckets/1/weight").asInt());
            assertEquals("output=2", groups.at("/0/buckets/1/actions/0").asText());
            assertEquals(0, groups.at("/0/referenceCount").asLong());

            JsonNode meters = ok(rest.get(base + "/meters"));
            assertEquals(1, meters.size(), meters.toString());
            assertEquals(5, meters.at("/0/meterId").asLong());
            assertTrue(meters.at("/0/flags").toString().contains("KBPS"), meters.toString());
            assertEquals("drop", meters.at("/0/bands/0/type").asText());
            assertEquals(1000, meters.at("/0/bands/0/rate").asLong());
            assertEquals(100, meters.at("/0/bands/0/burstSize").asLong());
        } finally {
            edge.ofctl("del-groups", "group_id=7");
            edge.ofctl("del-meters", "meter=5");
        }
    }

    @Test
    @Order(7)
    void theRoleIsTheOneOvsRecords() {
        Bridge core = tree.cores().get(1);
        JsonNode role = ok(rest.get("/api/v1/switches/" + core.dpid() + "/role"));
        String uuid = core.ovs().vsctl("get", "bridge", core.name(), "controller").stdout().replaceAll("[\\[\\]\\s]", "");
        // The column lags the connection, like is_connected: first empty, then "other" until OVS records
        // the role the cluster's mastership asked for.
        Map<String, String> names = Map.of("other", "EQUAL", "master", "MASTER", "slave", "SLAVE");
        String ovsRole = Poll.until("ovs-vsctl to record the controller's role " + role.get("role") + " on "
                        + core.name(), SETTLE, () -> core.ovs().vsctl("get", "controller", uuid, "role").stdout().strip(),
                r -> role.get("role").asText().equals(names.get(r)));
        assertEquals(names.get(ovsRole), role.get("role").asText(), role + " vs ovs-vsctl role " + ovsRole);
        assertTrue(role.get("generationId").asText().matches("\\d+"), role.toString());
    }

    @Test
    @Order(8)
    void anOpenFlow10SwitchHasFlowsButNoGroupsMetersOrRoles() {
        String base = "/api/v1/switches/" + of10.dpid();
        assertEquals("OpenFlow 1.0", ok(rest.get(base)).get("version").asText());
        Poll.until("the REST flows of " + of10.name() + " to count its dump-flows", SETTLE,
                () -> ok(rest.get(base + "/flows")).size() == of10.dumpFlows().size(), same -> same);
        assertTrue(ok(rest.get(base + "/tables")).size() >= 1);
        refused(rest.get(base + "/groups"), 409, "dpid", "speaks OpenFlow 1.0, which has no groups");
        refused(rest.get(base + "/meters"), 409, "dpid", "which has no meters");
        refused(rest.get(base + "/role"), 409, "dpid", "which has no role requests");
    }

    @Test
    @Order(9)
    void badAndUnknownDatapathIds() {
        for (String path : List.of("", "/ports", "/flows", "/tables", "/groups", "/meters", "/description",
                "/statistics", "/role")) {
            refused(rest.get("/api/v1/switches/not-a-dpid" + path), 400, "dpid", "is not a datapath id");
            refused(rest.get("/api/v1/switches/0x1234567" + path), 404, "dpid",
                    "no switch 00:00:00:00:01:23:45:67 is connected");
        }
        refused(rest.get("/wm/core/switch/zz/port/json"), 400, "dpid", "is not a datapath id");
        refused(rest.get("/wm/core/switch/0x1234567/port/json"), 404, "dpid", "no switch");
        refused(rest.get("/wm/core/switch/1/nonsense/json"), 400, "statType", "use one of");
        assertEquals(401, controller.anonymousRest().get("/api/v1/switches").status(), "no credentials, no answer");
    }

    // --- Floodlight aliases ---

    @Test
    @Order(10)
    void floodlightControllerSwitches() {
        JsonNode list = ok(rest.get("/wm/core/controller/switches/json"));
        assertEquals(tree.switches().size() + 2, list.size());
        Set<String> dpids = new HashSet<>();
        for (JsonNode s : list) {
            assertEquals(Set.of("switchDPID", "inetAddress", "connectedSince"), fieldNames(s), s.toString());
            assertTrue(s.get("inetAddress").asText().startsWith("/"), s.toString());
            assertTrue(s.get("connectedSince").isNumber() && s.get("connectedSince").asLong() > 0, s.toString());
            dpids.add(s.get("switchDPID").asText());
        }
        assertTrue(dpids.contains(tree.cores().get(0).dpid()), dpids.toString());
    }

    @Test
    @Order(11)
    void floodlightStatisticsShapes() {
        Bridge edge = tree.edge().get(0).get(0);
        String base = "/wm/core/switch/" + edge.dpid();

        JsonNode port = ok(rest.get(base + "/port/json"));
        JsonNode reply = port.at("/port_reply/0");
        assertEquals("OF_13", reply.get("version").asText());
        JsonNode p = reply.get("port").get(0);
        for (String key : List.of("port_number", "receive_packets", "transmit_packets", "receive_bytes",
                "transmit_bytes", "receive_dropped", "transmit_dropped", "receive_errors", "transmit_errors",
                "receive_frame_errors", "receive_overrun_errors", "receive_CRC_errors", "collisions",
                "duration_sec")) {
            assertTrue(p.has(key) && p.get(key).isTextual(), key + " in " + p);
        }

        JsonNode flows = ok(rest.get(base + "/flow/json")).get("flows");
        assertTrue(flows.size() >= 1, flows.toString());
        for (String key : List.of("version", "cookie", "table_id", "packet_count", "byte_count", "duration_sec",
                "priority", "idle_timeout_s", "hard_timeout_s", "flags", "match", "instructions")) {
            assertTrue(flows.get(0).has(key), key + " in " + flows.get(0));
        }

        JsonNode aggregate = ok(rest.get(base + "/aggregate/json")).get("aggregate");
        assertTrue(aggregate.get("flow_count").isTextual() && aggregate.get("flow_count").asLong() >= 1,
                aggregate.toString());

        JsonNode desc = ok(rest.get(base + "/desc/json")).get("desc");
        assertEquals(ok(rest.get("/api/v1/switches/" + edge.dpid() + "/description")).get("hardware").asText(),
                desc.get("hardware_description").asText());

        JsonNode features = ok(rest.get(base + "/features/json"));
        assertEquals(edge.dpid(), features.get("dpid").asText());
        assertEquals("OF_13", features.get("version").asText());
        assertEquals("254", features.get("tables").asText());

        JsonNode table = ok(rest.get(base + "/table/json"));
        assertEquals("0", table.at("/table/0/table_id").asText());

        JsonNode portDesc = ok(rest.get(base + "/port-desc/json")).get("port_desc");
        assertEquals(ok(rest.get("/api/v1/switches/" + edge.dpid() + "/ports")).size(), portDesc.size());

        JsonNode of10Features = ok(rest.get("/wm/core/switch/" + of10.dpid() + "/features/json"));
        assertEquals("OF_10", of10Features.get("version").asText());
        assertTrue(of10Features.get("port_desc").size() >= 1, "OpenFlow 1.0 features list the ports");

        JsonNode all = ok(rest.get("/wm/core/switch/all/desc/json"));
        assertEquals(tree.switches().size() + 2, all.size(), all.toString());
        assertEquals("Open vSwitch", all.at("/" + edge.dpid().replace("/", "~1") + "/desc/hardware_description")
                .asText(), all.toString());
    }

    @Test
    @Order(12)
    void anOpenFlow15SwitchSaysItsCountersAsOxsStatistics() {
        String base = "/api/v1/switches/" + of15.dpid();
        assertEquals("OpenFlow 1.5", ok(rest.get(base)).get("version").asText());
        of15Hosts.get(0).awaitReachable(of15Hosts.get(1), SETTLE);
        of15Hosts.get(0).ping(of15Hosts.get(1), 3);
        // the same flows, and the same counters once the bridge is quiet: REST and dump-flows read a moment apart
        List<FlowEntry> dumped = Poll.until("the REST flows of " + of15.name() + " to be its dump-flows (priority,"
                + " packets, bytes)", SETTLE, of15::dumpFlows, ovs -> {
                    List<String> api = new ArrayList<>();
                    for (JsonNode f : ok(rest.get(base + "/flows"))) {
                        assertTrue(f.get("durationSeconds").isNumber(), "a 1.5 flow has its age: " + f);
                        api.add(f.get("priority").asInt() + " " + f.get("packets").asLong() + " "
                                + f.get("bytes").asLong());
                    }
                    api.sort(null);
                    return api.equals(ovs.stream().map(e -> e.priority() + " " + e.packets() + " " + e.bytes()).sorted()
                            .toList());
                });
        assertTrue(dumped.stream().anyMatch(f -> !f.isTableMiss() && f.packets() >= 1),
                "forwarding's flows counted the pings: " + dumped);
        JsonNode aggregate = ok(rest.get(base + "/statistics/aggregate"));
        assertTrue(aggregate.get("flowCount").asLong() >= 1 && aggregate.get("packets").asLong() >= 1
                && aggregate.get("bytes").asLong() > 0, aggregate.toString());

        long before = of15.portCounters("1").rxPackets();
        JsonNode stats = ok(rest.get(base + "/statistics"));
        long after = of15.portCounters("1").rxPackets();
        JsonNode port1 = null;
        for (JsonNode p : stats.get("ports")) {
            if (p.get("port").asLong() == 1) {
                port1 = p;
            }
        }
        assertTrue(port1 != null && before <= port1.get("rxPackets").asLong()
                && port1.get("rxPackets").asLong() <= after, "rx packets of port 1 between two dumps: " + stats);
        assertTrue(stats.at("/aggregate/flowCount").asLong() >= 1, stats.toString());

        // the Floodlight alias for every switch, which an undecodable 1.5 reply used to leave empty
        JsonNode all = ok(rest.get("/wm/core/switch/all/flow/json"));
        JsonNode flows = all.at("/" + of15.dpid().replace("/", "~1") + "/flows");
        assertTrue(flows.size() >= 1, all.toString());
        assertTrue(flows.get(0).has("packet_count"), "a 1.5 flow has its counters: " + flows.get(0));
        assertEquals(tree.switches().size() + 2, all.size(), "every switch: " + all);
    }

    // --- /api/v1/pipelines ---

    @Test
    @Order(20)
    void pipelinesAreShownAndReordered() {
        JsonNode packetIn = ok(rest.get("/api/v1/pipelines/PACKET_IN"));
        List<String> running = texts(packetIn.get("listeners"));
        assertEquals(List.of("topology", "devices", "forwarding"), running, packetIn.toString());
        List<String> configured = texts(packetIn.get("order"));

        List<String> reversed = new ArrayList<>(running);
        java.util.Collections.reverse(reversed);
        JsonNode changed = ok(rest.put("/api/v1/pipelines/PACKET_IN", reversed));
        assertEquals(reversed, texts(changed.get("listeners")));
        List<String> keptStopped = new ArrayList<>(reversed);
        configured.stream().filter(n -> !running.contains(n)).forEach(keptStopped::add);
        assertEquals(keptStopped, texts(changed.get("order")), "the stopped learning switch keeps its place");
        assertEquals(reversed, texts(ok(rest.get("/api/v1/pipelines/packet_in")).get("listeners")));
        boolean listed = false;
        for (JsonNode p : ok(rest.get("/api/v1/pipelines"))) {
            if (p.get("type").asText().equals("PACKET_IN")) {
                listed = true;
                assertEquals(reversed, texts(p.get("listeners")));
            }
        }
        assertTrue(listed, "PACKET_IN missing from the pipeline list");

        // back as configured; the fabric still forwards
        assertEquals(running, texts(ok(rest.put("/api/v1/pipelines/PACKET_IN", configured)).get("listeners")));
        tree.hosts().get(2).awaitReachable(tree.hosts().get(9), SETTLE);
    }

    @Test
    @Order(21)
    void refusedPipelineChangesNameTheFieldAndChangeNothing() {
        JsonNode before = ok(rest.get("/api/v1/pipelines"));
        refused(rest.put("/api/v1/pipelines/NO_SUCH_TYPE", List.of("topology")), 400, "type",
                "is not an OpenFlow message type");
        refused(rest.put("/api/v1/pipelines/PACKET_IN", Map.of("names", List.of())), 400, "names",
                "must be a JSON array of listener names");
        refused(rest.put("/api/v1/pipelines/PACKET_IN", List.of("topology", "topology")), 400, "names[1]",
                "named twice");
        refused(rest.put("/api/v1/pipelines/PACKET_IN", List.of("topology", "forwardnig")), 400, "names[1]",
                "'forwardnig' is not a listener of the PACKET_IN pipeline");
        refused(rest.put("/api/v1/pipelines/PACKET_IN", "[\"topology\", 7]"), 400, "names[1]", "not number");
        Response malformed = rest.put("/api/v1/pipelines/PACKET_IN", "[\"topology\"");
        assertEquals(400, malformed.status(), malformed.toString());
        malformed.json();   // a JSON error body, not a stack trace page
        assertEquals(before, ok(rest.get("/api/v1/pipelines")));
    }

    @Test
    @Order(22)
    void fuzzedPipelineBodiesNeverFailTheServerNorChangeARefusedOrder() {
        Random random = new Random(20261121);
        String valid = "[\"topology\",\"devices\",\"forwarding\"]";
        int refusedCount = 0;
        List<String> names = new ArrayList<>(List.of("topology", "devices", "forwarding"));
        for (int i = 0; i < 300; i++) {
            if (i % 10 == 0) {
                // now and then a valid order, so the refused ones are checked against more than one state
                java.util.Collections.shuffle(names, random);
                assertEquals(names, texts(ok(rest.put("/api/v1/pipelines/PACKET_IN", names)).get("listeners")));
            }
            String body = i % 2 == 0 ? mutate(valid, random) : randomJsonish(random);
            JsonNode before = ok(rest.get("/api/v1/pipelines/PACKET_IN"));
            Response r = rest.put("/api/v1/pipelines/PACKET_IN", body);
            assertTrue(r.status() < 500, "server error for " + body + ": " + r);
            if (r.status() != 200) {
                refusedCount++;
                assertEquals(400, r.status(), r.toString());
                assertEquals(before, ok(rest.get("/api/v1/pipelines/PACKET_IN")), "refused " + body + " changed it");
            }
        }
        // whatever a valid mutation set, put the configured order back
        ok(rest.put("/api/v1/pipelines/PACKET_IN", List.of("topology", "devices", "forwarding", "learningswitch")));
        System.out.printf("pipelines PUT fuzz: 300 bodies, %d refused, none a server error%n", refusedCount);
    }

    // --- /api/v1/bundles ---

    @Test
    @Order(30)
    void hotSwapOverRest() throws IOException {
        String version = BundleJar.version(staticFlowsJar);
        String first = BundleJar.nextMicro(version, "rest1");
        String second = BundleJar.nextMicro(first, "rest2");
        Path jar1 = distribution.home().resolve("staticflows-" + first + ".jar");
        Path jar2 = distribution.home().resolve("staticflows-" + second + ".jar");
        BundleJar.rebuildWithVersion(staticFlowsJar, jar1, first);
        BundleJar.rebuildWithVersion(staticFlowsJar, jar2, second);
        assertEquals(404, rest.get(STATIC_FLOWS).status(), "the static flows app is not there yet");
        assertFalse(listeners("ERROR").contains("staticflows"));

        Response installed = rest.upload("/api/v1/bundles?start=false", "file", jar1);
        assertEquals(201, installed.status(), installed.toString());
        long id = installed.json().get("id").asLong();
        assertTrue(installed.header("Location").orElseThrow().endsWith("/api/v1/bundles/" + id), installed.toString());
        assertEquals(BundleJar.symbolicName(staticFlowsJar), installed.json().get("symbolicName").asText());
        assertEquals(first, installed.json().get("version").asText());
        assertEquals("INSTALLED", installed.json().get("state").asText());
        assertEquals(404, rest.get(STATIC_FLOWS).status(), "an installed, unstarted app serves nothing");

        // start: its REST resource is mapped and its listener joins the ERROR pipeline
        assertEquals("ACTIVE", ok(rest.post("/api/v1/bundles/" + id + "/start", "")).get("state").asText());
        Poll.until("the static flows app's REST path to answer", SETTLE, () -> rest.get(STATIC_FLOWS).status(),
                status -> status == 200);
        Poll.until("the static flows app to join the ERROR pipeline", SETTLE, () -> listeners("ERROR"),
                l -> l.contains("staticflows"));
        assertEquals("Active", controller.bundles(SETTLE).find(BundleJar.name(staticFlowsJar)).orElseThrow().state());

        // update with a new jar: same bundle, new version, running again
        Response updated = rest.send("PUT", "/api/v1/bundles/" + id, JAR, Files.readAllBytes(jar2));
        assertEquals(200, updated.status(), updated.toString());
        assertEquals(second, updated.json().get("version").asText());
        assertEquals(id, updated.json().get("id").asLong(), "the update installed a second bundle");
        Poll.until("the updated app to be active", SETTLE, () -> ok(rest.get("/api/v1/bundles/" + id)),
                b -> b.get("state").asText().equals("ACTIVE"));
        Poll.until("the updated app's REST path to answer", SETTLE, () -> rest.get(STATIC_FLOWS).status(),
                status -> status == 200);

        // stop: the path goes away (404, not 500) and the listener leaves
        assertEquals("RESOLVED", ok(rest.post("/api/v1/bundles/" + id + "/stop", "")).get("state").asText());
        Poll.until("the static flows app's REST path to go away", SETTLE, () -> rest.get(STATIC_FLOWS).status(),
                status -> status == 404);
        Poll.until("the static flows app to leave the ERROR pipeline", SETTLE, () -> listeners("ERROR"),
                l -> !l.contains("staticflows"));

        assertEquals("UNINSTALLED", ok(rest.delete("/api/v1/bundles/" + id)).get("state").asText());
        refused(rest.get("/api/v1/bundles/" + id), 404, "id", "no bundle " + id + " is installed");
        assertTrue(controller.isAlive(), "the controller JVM did not survive the hot swap");
        tree.hosts().get(0).awaitReachable(tree.hosts().get(15), SETTLE);
    }

    @Test
    @Order(31)
    void bundleErrors() throws IOException {
        JsonNode bundles = ok(rest.get("/api/v1/bundles"));
        assertEquals(0, bundles.get(0).get("id").asLong());
        assertEquals("ACTIVE", bundles.get(0).get("state").asText());
        long webui = -1;
        for (JsonNode b : bundles) {
            if (b.get("symbolicName").asText().equals("io.heliograph.webui")) {
                webui = b.get("id").asLong();
            }
        }
        assertNotEquals(-1, webui, bundles.toString());
        refused(rest.post("/api/v1/bundles/0/stop", ""), 409, "id", "OSGi framework itself");
        refused(rest.delete("/api/v1/bundles/0"), 409, "id", "OSGi framework itself");
        refused(rest.post("/api/v1/bundles/" + webui + "/stop", ""), 409, "id", "serves this API");
        refused(rest.send("PUT", "/api/v1/bundles/" + webui, JAR, Files.readAllBytes(staticFlowsJar)), 409,
                "id", "serves this API");
        refused(rest.get("/api/v1/bundles/x1"), 400, "id", "is not a bundle id");
        refused(rest.post("/api/v1/bundles/424242/start", ""), 404, "id", "no bundle 424242 is installed");

        refused(rest.upload("/api/v1/bundles", "file", "notes.txt", "just text".getBytes()), 400, "file",
                "does not start like a zip archive");
        refused(rest.send("POST", "/api/v1/bundles", JAR, new byte[0]), 400, "file", "no jar uploaded");
        refused(rest.upload("/api/v1/bundles", "file", "plain.jar", plainJar()), 400, "file",
                "no Bundle-SymbolicName");
        refused(rest.upload("/api/v1/bundles", "file", "lb.jar", Files.readAllBytes(
                hotJar(distribution.hot(), "forwarding"))), 409, "file", "is already installed as bundle");
        assertEquals(bundles, ok(rest.get("/api/v1/bundles")), "a refused request changed the bundles");
    }

    @Test
    @Order(32)
    void fuzzedUploadsNeverFailTheServerNorInstallWhatWasRefused() throws IOException {
        Random random = new Random(5);
        byte[] valid = Files.readAllBytes(staticFlowsJar);
        int created = 0;
        for (int i = 0; i < 120; i++) {
            byte[] body = i % 3 == 0 ? randomBytes(random) : mutate(valid, random);
            JsonNode before = ok(rest.get("/api/v1/bundles"));
            Response r = i % 2 == 0 ? rest.upload("/api/v1/bundles", "file", "fuzz.jar", body)
                    : rest.send("POST", "/api/v1/bundles", JAR, body);
            assertTrue(r.status() < 500, "server error for upload " + i + ": " + r);
            if (r.status() == 201) {
                // the mutation missed everything that matters: a valid bundle, installed; take it out again
                created++;
                ok(rest.delete("/api/v1/bundles/" + r.json().get("id").asLong()));
            } else {
                assertTrue(r.status() == 400 || r.status() == 409, r.toString());
                r.json();
                assertEquals(before, ok(rest.get("/api/v1/bundles")), "refused upload " + i + " changed the bundles");
            }
        }
        System.out.printf("bundle upload fuzz: 120 uploads, %d still valid bundles, none a server error%n", created);
    }

    @Test
    @Order(35)
    void everyCoreEndpointIsInTheOpenApiDocumentWithASummary() {
        JsonNode paths = ok(rest.get("/api/v1/openapi.json")).get("paths");
        Map<String, List<String>> expected = new TreeMap<>();
        expected.put("/api/v1/switches", List.of("get"));
        for (String sub : List.of("", "/ports", "/flows", "/tables", "/groups", "/meters", "/description",
                "/statistics", "/statistics/aggregate", "/role")) {
            expected.put("/api/v1/switches/{dpid}" + sub, List.of("get"));
        }
        expected.put("/api/v1/bundles", List.of("get", "post"));
        expected.put("/api/v1/bundles/{id}", List.of("get", "put", "delete"));
        expected.put("/api/v1/bundles/{id}/start", List.of("post"));
        expected.put("/api/v1/bundles/{id}/stop", List.of("post"));
        expected.put("/api/v1/pipelines", List.of("get"));
        expected.put("/api/v1/pipelines/{type}", List.of("get", "put"));
        expected.put("/api/v1/cluster", List.of("get"));
        expected.put("/api/v1/cluster/masterships", List.of("get"));
        expected.put("/api/v1/cluster/masterships/{dpid}", List.of("put"));
        expected.put("/api/v1/cluster/rebalance", List.of("post"));
        expected.put("/api/v1/limits", List.of("get"));
        expected.put("/wm/core/controller/switches/json", List.of("get"));
        expected.put("/wm/core/role/json", List.of("get"));
        expected.put("/wm/core/health/json", List.of("get"));
        expected.put("/wm/core/memory/json", List.of("get"));
        expected.put("/wm/core/switch/{switchId}/{statType}/json", List.of("get"));
        int operations = 0;
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            JsonNode path = paths.get(e.getKey());
            assertTrue(path != null, e.getKey() + " missing from the OpenAPI paths " + fieldNames(paths));
            for (String method : e.getValue()) {
                JsonNode operation = path.get(method);
                assertTrue(operation != null && !operation.path("summary").asText().isBlank(),
                        method + " " + e.getKey() + " undocumented: " + path);
                operations++;
            }
        }
        Set<String> ids = new HashSet<>();
        int all = 0;
        for (Map.Entry<String, JsonNode> path : (Iterable<Map.Entry<String, JsonNode>>) paths::fields) {
            for (Map.Entry<String, JsonNode> op : (Iterable<Map.Entry<String, JsonNode>>) path.getValue()::fields) {
                String id = op.getValue().path("operationId").asText();
                assertTrue(id.matches("[a-z]+[A-Z][A-Za-z0-9]*"), op.getKey() + " " + path.getKey() + ": operationId " + id);
                assertTrue(ids.add(id), "operationId " + id + " twice");
                assertFalse(op.getValue().path("summary").asText().isBlank(), op.getKey() + " " + path.getKey());
                all++;
            }
        }
        assertEquals("listSwitches", paths.at("/~1api~1v1~1switches/get/operationId").asText());
        assertEquals("floodlightListSwitches", paths.at("/~1wm~1core~1controller~1switches~1json/get/operationId").asText());
        System.out.printf("core REST: %d paths, %d operations, all in the OpenAPI document with a summary; all %d"
                + " operations of the document with their own operation id%n", expected.size(), operations, all);
    }

    /**
     * Issue 18: the bounded tables of the apps running (devices and forwarding; the learning switch was
     * taken out of this distribution, so none of its), each under its setting, with the fill the traffic
     * made, sorted by table; and the same figures in /metrics.
     */
    @Test
    @Order(36)
    void theLimitsAreTheRunningAppsBoundsAndTheMetricsCarryThem() {
        // fresh paths: those of the earlier tests' pings may have outlived their idle timeout by now
        assertTrue(tree.hosts().get(0).ping(tree.hosts().get(1), 3).allAnswered(), "pings before reading the limits");
        JsonNode limits = ok(rest.get("/api/v1/limits"));
        Map<String, JsonNode> byTable = new TreeMap<>();
        List<String> order = new ArrayList<>();
        limits.forEach(l -> {
            byTable.put(l.get("table").asText(), l);
            order.add(l.get("table").asText());
        });
        assertEquals(new ArrayList<>(byTable.keySet()), order, "sorted by table");
        for (String table : List.of("devices.hosts", "devices.hostsPerPort", "devices.addressesPerHost",
                "devices.attachmentPointsPerHost", "devices.pendingSightings", "forwarding.installedPaths",
                "forwarding.heldPackets")) {
            JsonNode bound = byTable.get(table);
            assertTrue(bound != null, table + " in " + byTable.keySet());
            assertTrue(bound.get("setting").asText().startsWith("io.heliograph."), bound.toString());
            assertTrue(bound.get("size").asLong() <= bound.get("limit").asLong(), bound.toString());
            assertFalse(bound.get("description").asText().isBlank(), bound.toString());
        }
        assertTrue(byTable.keySet().stream().noneMatch(t -> t.startsWith("learningswitch.")),
                "the learning switch does not run here: " + byTable.keySet());
        assertEquals(65_536, byTable.get("devices.hosts").get("limit").asLong());
        assertTrue(byTable.get("devices.hosts").get("size").asLong() >= 2, "the two hosts that pinged");
        assertTrue(byTable.get("forwarding.installedPaths").get("size").asLong() >= 1, byTable.toString());

        Response metrics = rest.get("/metrics");
        assertEquals(200, metrics.status(), metrics.toString());
        List<String> lines = metrics.body().lines().toList();
        assertTrue(lines.contains("heliograph_state_limit{table=\"devices.hosts\"} 65536"), metrics.body());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(
                "heliograph_state_refused_total{table=\"forwarding.installedPaths\"} ")), metrics.body());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("heliograph_forwarding_oversize_frames_total ")),
                "forwarding's own metrics: " + metrics.body());
        System.out.printf("limits: %s%n", limits);
    }

    /** Last: it freezes every switch for a few seconds. */
    @Test
    @Order(40)
    void aSwitchThatDoesNotAnswerIs504() throws IOException {
        Bridge edge = tree.edge().get(3).get(1);
        String pid = Files.readString(testbed.ovs().dir().resolve("ovs-vswitchd.pid")).strip();
        Command.of("kill", "-STOP", pid).check();
        Response r;
        try {
            r = rest.get("/api/v1/switches/" + edge.dpid() + "/flows");
        } finally {
            Command.of("kill", "-CONT", pid).check();
        }
        refused(r, 504, null, "did not answer the flow statistics request within 5000 ms");
        Poll.until("the thawed switch to answer again", CONNECT,
                () -> rest.get("/api/v1/switches/" + edge.dpid() + "/flows").status(), status -> status == 200);
    }

    // --- helpers ---

    private static JsonNode ok(Response r) {
        assertEquals(200, r.status(), r.toString());
        return r.json();
    }

    private static void refused(Response r, int status, String field, String messagePart) {
        assertEquals(status, r.status(), r.toString());
        JsonNode body = r.json();
        assertEquals(status, body.get("status").asInt(), r.toString());
        assertEquals(field, body.path("field").isNull() || body.path("field").isMissingNode() ? null
                : body.get("field").asText(), r.toString());
        assertTrue(body.get("message").asText().contains(messagePart), "'" + messagePart + "' not in " + r);
    }

    private static List<String> listeners(String type) {
        return texts(ok(rest.get("/api/v1/pipelines/" + type)).get("listeners"));
    }

    private static Path hotJar(Path hot, String name) {
        try (var jars = Files.list(hot)) {
            List<Path> found = jars.filter(p -> p.getFileName().toString().contains(name)).toList();
            assertEquals(1, found.size(), name + " jars in " + hot + ": " + found);
            return found.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A jar with a manifest but no bundle headers. */
    private static byte[] plainJar() throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        try (java.util.jar.JarOutputStream jar = new java.util.jar.JarOutputStream(bytes, manifest)) {
            jar.putNextEntry(new java.util.zip.ZipEntry("readme.txt"));
            jar.write("not a bundle".getBytes());
            jar.closeEntry();
        }
        return bytes.toByteArray();
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new HashSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }

    private static String mutate(String s, Random random) {
        StringBuilder b = new StringBuilder(s);
        for (int e = 1 + random.nextInt(3); e > 0 && b.length() > 0; e--) {
            int at = random.nextInt(b.length());
            switch (random.nextInt(3)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, (char) (32 + random.nextInt(95)));
                default -> b.setCharAt(at, (char) (1 + random.nextInt(0x2fff)));
            }
        }
        return b.toString();
    }

    private static String randomJsonish(Random random) {
        String alphabet = "[]{}\",:0123456789 topologydevicesforwarding-_.\\ntruefalsenull";
        char[] c = new char[random.nextInt(60)];
        for (int i = 0; i < c.length; i++) {
            c[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(c);
    }

    private static byte[] mutate(byte[] jar, Random random) {
        byte[] copy = jar.clone();
        for (int f = 1 + random.nextInt(16); f > 0; f--) {
            copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
        }
        return random.nextInt(4) == 0 ? Arrays.copyOf(copy, random.nextInt(copy.length)) : copy;
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(4096)];
        random.nextBytes(bytes);
        if (bytes.length > 4 && random.nextBoolean()) {
            bytes[0] = 'P';
            bytes[1] = 'K';
            bytes[2] = 3;
            bytes[3] = 4;
        }
        return bytes;
    }
}
