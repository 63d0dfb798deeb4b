package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 24, the VDN app in the distribution (no agents outside it: this test speaks for them over REST):
 * the operator puts a CDN's topology and gets a key per cluster; edges report their links and viewers;
 * the central optimiser (OR-Tools through the solver bundle, a decision every 2 s here) decides, and each
 * cluster's RIB carries next hops with the evidence that cluster reported; an agent speaking for another
 * cluster, or with a malformed report, is refused and changes nothing; the page shows the decision, a
 * cluster's RIB and a video's trees in Chromium, and its knobs form shows a refusal's JSON path. About 20 s.
 */
@Timeout(180)
class VdnAppIT {

    private static final Duration APP = Duration.ofSeconds(60);
    private static final Duration DECISION = Duration.ofSeconds(30);
    private static final String BASE = "/api/v1/vdn";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** S1 feeds R1 (cheap) and R2 (dear); both feed E1 and E2; G1 hangs off both edges, G2 off E2. */
    private static final String TOPOLOGY = """
            {"nodes": [{"id": "S1", "tier": "source"},
                       {"id": "R1", "tier": "reflector", "y": 0}, {"id": "R2", "tier": "reflector", "y": 10},
                       {"id": "E1", "tier": "edge", "y": 0}, {"id": "E2", "tier": "edge", "y": 10},
                       {"id": "G1", "tier": "client-group", "y": 0}, {"id": "G2", "tier": "client-group", "y": 10}],
             "links": [{"from": "S1", "to": "R1", "capacityKbps": 10000, "cost": 10},
                       {"from": "S1", "to": "R2", "capacityKbps": 10000, "cost": 30},
                       {"from": "R1", "to": "E1", "capacityKbps": 10000, "cost": 10},
                       {"from": "R1", "to": "E2", "capacityKbps": 10000, "cost": 10},
                       {"from": "R2", "to": "E1", "capacityKbps": 10000, "cost": 10},
                       {"from": "R2", "to": "E2", "capacityKbps": 10000, "cost": 10},
                       {"from": "E1", "to": "G1", "capacityKbps": 50000, "cost": 0},
                       {"from": "E2", "to": "G1", "capacityKbps": 50000, "cost": 2},
                       {"from": "E2", "to": "G2", "capacityKbps": 50000, "cost": 0}]}""";

    private static Path artifacts;
    private static Browser browser;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static RestClient rest;

    @BeforeAll
    static void start() throws Exception {
        artifacts = ArtifactDirectory.forTest("VdnAppIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        distribution.configure("io.heliograph.vdn", Map.of("periodSeconds", "2", "timeLimitSeconds", "1"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(APP);
        controller.awaitApi(BASE + "/decision", APP);
        rest = controller.rest();
        assertEquals(200, rest.put(BASE + "/topology", JSON.readValue(TOPOLOGY, Map.class)).status());
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("VdnAppIT");
        cleanup.close("browser", browser);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }

    private static void refused(Response response, int status, String field) {
        assertEquals(status, response.status(), response.toString());
        assertEquals(field, response.json().path("field").asText(), response.toString());
    }

    private static Response report(String cluster, String key, Object body) {
        return rest.withHeader("X-Vdn-Agent-Key", key).post(BASE + "/clusters/" + cluster + "/report", body);
    }

    @Test
    void reportsBecomeRibsWithEvidenceAndAnAgentSpeaksForItsOwnClusterOnly() {
        JsonNode keys = ok(rest.get(BASE + "/agents"));
        assertEquals(5, keys.size(), "a key per cluster: " + keys);
        Map<String, Object> e1 = Map.of("cluster", "E1", "links", Map.of("R1->E1", 9000),
                "viewers", List.of(Map.of("group", "G1", "video", "news", "bitrateKbps", 800, "clients", 30)));
        refused(report("E1", keys.get("E2").asText(), e1), 403, "X-Vdn-Agent-Key");
        refused(report("E2", keys.get("E2").asText(), e1), 403, "$.cluster");
        refused(report("E1", keys.get("E1").asText(), Map.of("cluster", "E1", "links", Map.of("S1->R1", 5))), 400,
                "$.links.S1->R1");
        assertEquals(200, report("E1", keys.get("E1").asText(), e1).status());
        assertEquals(200, report("E2", keys.get("E2").asText(), Map.of("cluster", "E2", "viewers",
                List.of(Map.of("group", "G2", "video", "final", "bitrateKbps", 4500, "clients", 9)))).status());

        JsonNode decided = Poll.until("a decision serving both requests", DECISION, () -> rest.get(BASE + "/decision"),
                r -> r.status() == 200 && r.json().path("requestsServed").asLong() == 2).json();
        assertEquals("ip", decided.get("method").asText());
        JsonNode rib = ok(rest.get(BASE + "/clusters/E1/rib"));
        assertTrue(rib.get("version").asLong() >= decided.get("version").asLong(), rib.toString());
        JsonNode entry = rib.get("decisions").get(0);
        assertEquals("news/800", entry.get("key").asText());
        assertEquals("R1", entry.get("value").asText(), "the cheap reflector");
        assertEquals("CENTRAL", entry.get("origin").asText());
        assertEquals(9000, entry.at("/evidence/R1->E1").asLong(), "what E1 reported");
        JsonNode trees = ok(rest.get(BASE + "/trees/final"));
        assertEquals("E2", trees.at("/bitrates/4500/served/G2").asText());
        refused(rest.get(BASE + "/clusters/E9/rib"), 404, "cluster");
        refused(rest.get(BASE + "/trees/sports"), 404, "video");
    }

    @Test
    void thePageShowsTheDecisionARibAndATreeAndItsFormShowsARefusal() {
        Poll.until("a decision", DECISION, () -> rest.get(BASE + "/decision"),
                r -> r.status() == 200 && r.json().path("requestsServed").asLong() >= 1);
        browser = Browser.start(artifacts, 1400, 1800);
        browser.logIn(controller);
        browser.openPage("#/vdn");
        Poll.until("the clusters listed", APP, () -> browser.driver().findElements(By.cssSelector(".vdn-select")).size(),
                n -> n == 5);
        browser.script("document.querySelector(\".vdn-select[data-cluster='E1']\").click();");
        Poll.until("E1's RIB", APP, () -> browser.find(".vdn-rib").getText(), t -> t.contains("news/800") && t.contains("R1"));
        browser.script("const f = document.querySelector('.vdn-tree-form');"
                + "f.querySelector('input[name=video]').value = 'news';"
                + "f.querySelector('button[type=submit]').click();");
        Poll.until("news's tree drawn", APP, () -> browser.driver().findElements(By.cssSelector("line.vdn-carried")).size(),
                n -> n >= 3);
        assertEquals(1, browser.driver().findElements(By.cssSelector("circle.vdn-served[data-node='G1']")).size());

        browser.script("const f = document.querySelector('.vdn-knobs');"
                + "f.querySelector('textarea[name=linkCosts]').value = '{\"S1->E1\": 3}';"
                + "f.querySelector('textarea[name=linkCosts]').dispatchEvent(new Event('input'));"
                + "f.querySelector('button[type=submit]').click();");
        String refusal = Poll.until("the refusal shown", APP, () -> browser.find(".vdn-decision .vdn-message").getText(),
                t -> !t.isEmpty());
        assertTrue(refusal.contains("$.linkCosts.S1->E1"), refusal);
        browser.screenshot("vdn-page");
        List<String> errors = browser.consoleErrors().stream().filter(e -> !e.contains("status of 400")
                && !e.contains("status of 404")).toList();
        assertEquals(List.of(), errors, "the page's console");
    }
}
