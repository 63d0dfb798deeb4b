package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.StatisticsWithholdingProxy;
import io.heliograph.testbed.Testbed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 18: switches that do not answer statistics requests are served, in the default profile.
 * Two real Open vSwitch bridges (OpenFlow 1.3) reach the controller through a proxy that withholds
 * the controller's statistics requests (all but the handshake's switch and port descriptions): s1
 * as a switch that ignores them, s2 as one that answers them 20 s late, past the controller's 10 s
 * request timeout. Each has a static flow defined before it connects; s1 gets a stale static flow
 * once connected.
 *
 * <ul>
 *   <li>Both are announced and stay connected (no "handshake timed out"), and their hosts reach each
 *       other through the controller: the switches are served.</li>
 *   <li>The static flow is pushed anyway and listed UNVERIFIED; the stale one stays.</li>
 *   <li>Their reconciliation reads NOT_POSSIBLE over REST, with the reason (no answer within
 *       10000 ms), for the late one too: its late replies are not taken for answers.</li>
 *   <li>The static flows page shows it next to the switch, with the reason.</li>
 *   <li>The log says so once per switch, however many retries follow; the statistics app warns once
 *       per switch and kind.</li>
 *   <li>Once s1 answers, it is reconciled: OK, the entry INSTALLED, the stale flow gone.</li>
 * </ul>
 */
@Timeout(240)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StaticFlowsReconciliationIT {

    private static final Duration CONNECT = Duration.ofSeconds(30);
    private static final Duration PAGE = Duration.ofSeconds(30);
    /** Three attempts, each waiting out the 10 s request timeout, 1 s and 2 s apart: about 33 s. */
    private static final Duration NOT_POSSIBLE = Duration.ofSeconds(60);
    private static final String STATIC_COOKIE = "cookie=0x5346";
    private static final String STALE = "cookie=0x53460000000000ff,priority=90,tcp,tp_dst=9999,actions=drop";
    private static final Pattern NOT_POSSIBLE_LINE = Pattern.compile(
            "Static entries on (\\S+): reconciliation not possible after");

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static RestClient rest;
    private static Testbed testbed;
    private static StatisticsWithholdingProxy ignoring;
    private static StatisticsWithholdingProxy late;
    private static Bridge s1;
    private static Bridge s2;
    private static Host h1;
    private static Host h2;
    private static Browser browser;
    private static long connectedAt;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("StaticFlowsReconciliationIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        // keep the stale flow through the handshake: reconciliation, not the flush, must be what removes it
        distribution.configure("io.heliograph.openflow", Map.of("clearFlowsOnConnect", "false"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        rest = controller.rest();
        testbed = Testbed.start("StaticFlowsReconciliationIT");
        s1 = testbed.addSwitch(1, List.of("OpenFlow13"));
        s2 = testbed.addSwitch(2, List.of("OpenFlow13"));
        h1 = testbed.addHost(1, s1);
        h2 = testbed.addHost(2, s1);
        testbed.addHost(3, s2); // port 1, where its static flow outputs
        // the app is a hot/ bundle: its REST paths may come a little after the controller reports UP
        Poll.until("the static flows app's REST path", CONNECT, () -> rest.get("/api/v1/staticflows").status(),
                status -> status == 200);
        for (Bridge s : List.of(s1, s2)) {
            Response stored = rest.post("/api/v1/staticflows/flows", web(s));
            assertEquals(201, stored.status(), stored.toString());
            assertEquals("STORED", stored.json().get("outcome").asText(), stored.toString());
        }

        String host = testbed.controllerTarget("tcp", 1).split(":")[1];
        ignoring = StatisticsWithholdingProxy.start("s1", host, controller.openflowPort(),
                StatisticsWithholdingProxy.Mode.IGNORE, Duration.ZERO);
        late = StatisticsWithholdingProxy.start("s2", host, controller.openflowPort(),
                StatisticsWithholdingProxy.Mode.LATE, Duration.ofSeconds(20));
        s1.setController(ignoring.target());
        s2.setController(late.target());
        controller.awaitSwitches(2, CONNECT);
        connectedAt = System.nanoTime();
        // Only now: OVS flushes a bridge's flows when it goes from no controller to one. Reconciliation
        // cannot read s1, so nothing removes this one until s1 answers.
        s1.ofctl("add-flow", STALE);
        browser = Browser.start(artifacts, 1280, 1400);
        browser.logIn(controller);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("StaticFlowsReconciliationIT");
        cleanup.close("browser", browser);
        cleanup.close("testbed", testbed);
        cleanup.close("proxy s1", ignoring);
        cleanup.close("proxy s2", late);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    private static Map<String, Object> web(Bridge s) {
        Map<String, Object> web = new LinkedHashMap<>();
        web.put("switch", s.dpid());
        web.put("name", "web");
        web.put("priority", 100);
        web.put("eth_type", "0x0800");
        web.put("ip_proto", "6");
        web.put("tcp_dst", "80");
        web.put("actions", "output=1");
        return web;
    }

    @Test
    @Order(1)
    void switchesThatIgnoreOrAnswerStatisticsLateAreServedAndTheirReconciliationReadsNotPossible() {
        JsonNode ignored = awaitNotPossible(s1);
        JsonNode answeredLate = awaitNotPossible(s2);
        System.out.printf("reconciliation NOT_POSSIBLE %d ms after both switches connected%n",
                (System.nanoTime() - connectedAt) / 1_000_000);
        for (JsonNode r : List.of(ignored, answeredLate)) {
            // s2's first late reply came 20 s after its request, before this: it was not taken for an answer
            assertEquals("the switch did not answer the flow statistics request within 10000 ms", r.get("reason").asText(),
                    r.toString());
            assertTrue(r.get("attempts").asInt() >= 3, r.toString());
            assertFalse(r.get("nextAttempt").isNull(), "still tried, at a growing interval: " + r);
        }
        assertTrue(ignoring.withheld() >= 3 && late.withheld() >= 3, ignoring.withheld() + " and " + late.withheld());

        // served all the same
        assertEquals(2, controller.health().orElseThrow().switches());
        h1.awaitReachable(h2, Duration.ofSeconds(20));
        assertFalse(controller.log().contains("handshake timed out"), "no switch was dropped in its handshake");

        for (Bridge s : List.of(s1, s2)) {
            JsonNode entry = ok(rest.get("/api/v1/staticflows/flows/" + s.dpid() + "/web"));
            assertEquals("UNVERIFIED", entry.get("state").asText(), entry.toString());
            assertEquals("NOT_POSSIBLE", entry.get("reconciliation").asText(), entry.toString());
            assertTrue(entry.get("detail").asText().startsWith("pushed without being verified: "), entry.toString());
            assertTrue(staticFlows(s).stream().anyMatch(f -> f.match().equals("tcp,tp_dst=80")), "pushed anyway: "
                    + s.dumpFlows());
        }
        assertTrue(staticFlows(s1).stream().anyMatch(f -> f.match().equals("tcp,tp_dst=9999")),
                "a stale flow stays until the switch can be read: " + s1.dumpFlows());

        // the static flows page says it next to the switch, and lists each switch's reconciliation
        browser.openPage("#/static-flows");
        String row = Poll.until("s1's reconciliation in the page", PAGE,
                () -> browser.find(".hg-sf-reconciliation tr[data-key='" + s1.dpid() + "']").getText(),
                t -> t.contains("NOT_POSSIBLE"));
        assertTrue(row.contains("the switch did not answer the flow statistics request within 10000 ms"), row);
        String entry = Poll.until("s1's flow in the page", PAGE,
                () -> browser.find(".hg-sf-list[data-kind='flow'] tr[data-key='flow/" + s1.dpid() + "/web']").getText(),
                t -> t.contains("UNVERIFIED"));
        assertTrue(entry.contains(s1.dpid() + " (reconciliation not possible)"), entry);
        browser.screenshot("reconciliation-not-possible");

        // one more retry each, and still one line per switch
        for (Bridge s : List.of(s1, s2)) {
            int attempts = reconciliation(s).get("attempts").asInt();
            Poll.until("another attempt on " + s.name(), Duration.ofSeconds(30),
                    () -> reconciliation(s).get("attempts").asInt(), n -> n > attempts);
        }
        assertEquals(List.of(s1.dpid(), s2.dpid()), notPossibleLines(), "one line per switch, not per retry");
        for (Bridge s : List.of(s1, s2)) {
            for (String kind : List.of("PORT", "FLOW", "TABLE")) {
                String line = "Switch " + s.dpid() + " " + kind + " statistics failed";
                assertEquals(1, occurrences(controller.log(), line), line);
            }
        }
    }

    @Test
    @Order(2)
    void aSwitchThatStartsAnsweringIsReconciled() {
        awaitNotPossible(s1);
        ignoring.answer();

        long started = System.nanoTime();
        JsonNode ok = Poll.until("s1's reconciliation to be OK once it answers", Duration.ofSeconds(60),
                () -> reconciliation(s1), r -> r.get("state").asText().equals("OK"));
        System.out.printf("reconciled %d ms after the switch started answering%n", (System.nanoTime() - started) / 1_000_000);
        assertEquals("", ok.get("reason").asText());
        assertTrue(ok.get("nextAttempt").isNull(), ok.toString());
        JsonNode entry = ok(rest.get("/api/v1/staticflows/flows/" + s1.dpid() + "/web"));
        assertEquals("INSTALLED", entry.get("state").asText(), entry.toString());
        assertEquals("OK", entry.get("reconciliation").asText(), entry.toString());
        Poll.until("the stale flow to leave s1", Duration.ofSeconds(10), () -> staticFlows(s1),
                flows -> flows.stream().noneMatch(f -> f.match().equals("tcp,tp_dst=9999")));
        controller.awaitLog(Pattern.compile("Static entries on " + s1.dpid() + ": the switch answers again; reconciled"),
                0, Duration.ofSeconds(5));
    }

    private static JsonNode awaitNotPossible(Bridge s) {
        return Poll.until(s.name() + "'s reconciliation to read NOT_POSSIBLE", NOT_POSSIBLE, () -> reconciliation(s),
                r -> r.get("state").asText().equals("NOT_POSSIBLE"));
    }

    private static JsonNode reconciliation(Bridge s) {
        return ok(rest.get("/api/v1/staticflows/reconciliation/" + s.dpid()));
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }

    private static List<FlowEntry> staticFlows(Bridge s) {
        return s.dumpFlows().stream().filter(f -> f.line().contains(STATIC_COOKIE)).toList();
    }

    /** The switches named by "reconciliation not possible" lines, in order. */
    private static List<String> notPossibleLines() {
        Matcher m = NOT_POSSIBLE_LINE.matcher(controller.log());
        List<String> dpids = new ArrayList<>();
        while (m.find()) {
            dpids.add(m.group(1));
        }
        return dpids.stream().sorted().toList();
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }
}
