package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

import org.openqa.selenium.By;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;

/**
 * Issue 23, the circuit app in the distribution (no switch): it starts from hot/ with the controller,
 * its loop publishes a week every 2 s (Etalon's 2,000 us week x 1000), the scheduler and estimator are
 * changed over REST and used from the next week, bad bodies are refused naming their field, ADU reports
 * drive the ADU estimate, its page and modules are served, and stopping the bundle takes its paths away
 * until it starts again; the page renders in Chromium (the week's days, three heat maps) and its form
 * shows a refusal's field. About 20 s.
 */
@Timeout(180)
class CircuitAppIT {

    private static final Duration APP = Duration.ofSeconds(60);
    private static final Duration WEEKS = Duration.ofSeconds(10);
    private static final String BASE = "/api/v1/circuit";

    private static Path artifacts;
    private static Browser browser;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static RestClient rest;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("CircuitAppIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(APP);
        rest = controller.rest();
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("CircuitAppIT");
        cleanup.close("browser", browser);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }

    private static void refused(Response response, String field) {
        assertEquals(400, response.status(), response.toString());
        assertEquals(field, response.json().path("field").asText(), response.toString());
    }

    @Test
    void theLoopRunsInScaledTimeAndTheApiChangesItAndRefusesBadInput() {
        JsonNode first = Poll.until("the circuit app to publish a week", APP, () -> rest.get(BASE + "/schedule"),
                r -> r.status() == 200 && r.json().path("current").has("week")).json();
        long week = first.at("/current/week").asLong();
        long now = System.currentTimeMillis();
        assertTrue(Math.abs(week - now / 2000) <= 1, "weeks of 2 s from the epoch: " + week + " at " + now);
        assertEquals(4, ok(rest.get(BASE + "/groups")).get("racks").size());

        refused(rest.put(BASE + "/scheduler", Map.of("scheduler", "bvn", "estimator", "voq")), "scheduler");
        refused(rest.put(BASE + "/scheduler", Map.of("scheduler", "fixed", "estimator", "voq", "fixedWeek",
                Map.of("weekMicros", 220, "nightMicros", 20, "days", List.of(Map.of("upMicros", 200,
                        "sourceOf", List.of(0, 0, 1, 2)))))), "fixedWeek.days[0].sourceOf[1]");
        refused(rest.post(BASE + "/adus", List.of(Map.of("flow", Map.of("src", "10.0.0.1", "srcPort", 1,
                "dst", "192.168.9.9", "dstPort", 2, "protocol", 6), "bytes", 1000))), "$[0].flow.dst");
        refused(rest.get(BASE + "/placement?writerRack=9"), "writerRack");
        assertEquals("solstice", ok(rest.get(BASE + "/scheduler")).get("scheduler").asText(), "nothing changed");
        assertEquals(0, ok(rest.get(BASE + "/demand")).get("aduOpenFlows").asInt(), "nothing recorded");

        Response adus = rest.post(BASE + "/adus", List.of(Map.of("flow", Map.of("src", "10.0.0.1", "srcPort", 1,
                "dst", "10.0.2.1", "dstPort", 2, "protocol", 6), "bytes", 5_000_000)));
        assertEquals(202, adus.status(), adus.toString());
        JsonNode chosen = ok(rest.put(BASE + "/scheduler", Map.of("scheduler", "round-robin", "estimator", "adu")));
        assertTrue(chosen.get("shared").asBoolean(), "kept in the cluster's store: " + chosen);
        JsonNode used = Poll.until("a week of round-robin from the ADU estimate", WEEKS, () -> rest.get(BASE + "/schedule"),
                r -> r.status() == 200 && r.json().at("/current/scheduler").asText().equals("round-robin")).json();
        assertEquals("adu", used.at("/current/estimator").asText());
        assertEquals(5_000_000, used.at("/current/demand/0/2").asLong());
        assertEquals(3, used.at("/current/plan/days").size(), "N - 1 days of the rotation");
        assertTrue(used.at("/current/week").asLong() > week, "the loop moved on: " + used);
        assertEquals(2, ok(rest.get(BASE + "/placement?writerRack=1")).get("replicaRack").asInt());
    }

    @Test
    void itsPageIsServedAndStoppingTheBundleTakesItsPathsAway() {
        Poll.until("the circuit app's page", APP, () -> rest.get("/api/v1/ui/pages"),
                r -> r.status() == 200 && r.body().contains("\"/ui/pages/circuit.js\""));
        for (String script : List.of("/ui/pages/circuit.js", "/ui/pages/circuit/circuit-timeline.js",
                "/ui/pages/circuit/circuit-matrix.js", "/ui/pages/circuit/circuit-scheduler.js")) {
            Response js = rest.get(script);
            assertEquals(200, js.status(), script);
            assertTrue(js.body().contains("export "), script);
        }
        long id = -1;
        for (JsonNode bundle : ok(rest.get("/api/v1/bundles"))) {
            if (bundle.get("symbolicName").asText().equals("io.heliograph.circuit")) {
                id = bundle.get("id").asLong();
            }
        }
        assertTrue(id > 0, "the bundles resource lists the circuit app");
        assertEquals(200, rest.send("POST", "/api/v1/bundles/" + id + "/stop", null, null).status());
        Poll.until(BASE + "/schedule to be gone with the app", APP, () -> rest.get(BASE + "/schedule"),
                r -> r.status() == 404);
        assertEquals(200, rest.send("POST", "/api/v1/bundles/" + id + "/start", null, null).status());
        Poll.until(BASE + "/schedule to answer again", APP, () -> rest.get(BASE + "/schedule"),
                r -> r.status() == 200 && r.json().path("current").has("week"));
    }

    @Test
    void thePageShowsTheWeekAndTheDemandAndItsFormShowsARefusal() {
        Poll.until("the circuit app's page", APP, () -> rest.get("/api/v1/ui/pages"),
                r -> r.status() == 200 && r.body().contains("\"/ui/pages/circuit.js\""));
        browser = Browser.start(artifacts, 1400, 1600);
        browser.logIn(controller);
        browser.openPage("#/circuit");
        Poll.until("the week's days drawn", APP, () -> browser.driver().findElements(By.cssSelector(".circuit-day")).size(),
                n -> n >= 1);
        Poll.until("three heat maps", APP, () -> browser.driver().findElements(By.cssSelector(".circuit-heat")).size(),
                n -> n == 3);
        assertTrue(browser.find(".circuit-facts").getText().contains("racks"), browser.find(".circuit-facts").getText());
        browser.script("const f = document.querySelector('.circuit-choose');"
                + "f.querySelector('select[name=scheduler]').value = 'fixed';"
                + "f.querySelector('textarea[name=fixedWeek]').value = arguments[0];"
                + "f.querySelector('textarea[name=fixedWeek]').dispatchEvent(new Event('input'));"
                + "f.querySelector('button[type=submit]').click();",
                "{\"weekMicros\": 220, \"nightMicros\": 20, \"days\": [{\"upMicros\": 200, \"sourceOf\": [0, 0, 1, 2]}]}");
        String refusal = Poll.until("the refusal shown", APP, () -> browser.find(".circuit-message").getText(),
                t -> !t.isEmpty());
        assertTrue(refusal.contains("fixedWeek.days[0].sourceOf[1]"), refusal);
        browser.screenshot("circuit-page");
        List<String> errors = browser.consoleErrors().stream().filter(e -> !e.contains("status of 400")).toList();
        assertEquals(List.of(), errors, "the page's console");
    }
}
