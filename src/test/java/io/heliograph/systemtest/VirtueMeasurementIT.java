package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Browser;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Iperf;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.Testbed;

/**
 * Issue 22, "what must be shown" 2 and 3: Virtue's measurements against traffic of known rates, and an
 * optimisation executed on the network. UDP at fixed rates (vm1 to vm3 through c1, vm2 to vm4 through
 * c2, see {@link VirtueNetwork}); the median over steady rounds of the traffic matrix's entries and of
 * the links' rates must be within 10% of the rate on the wire (payload plus headers, plus a VLAN tag on
 * tagged links). An optimisation of those rounds (Greedy Fill) must plan a lower maximum utilisation; the
 * plan is executed by moving the namespaced hosts to their new PMs' bridges and marking it executed (the
 * app installs the new placement's routes); with the same transfers again, the measured maximum link
 * utilisation must be within 15% of the plan's prediction. The web UI's explorer, in headless Chromium,
 * shows the measured utilisation of the busiest link at a steady round (screenshot in the test's logs).
 */
@Timeout(200)
// Isolated: the rates it measures would include a neighbour's load
@Isolated
class VirtueMeasurementIT {

    private static final Duration CONNECT = Duration.ofSeconds(60);
    private static final Duration APP = Duration.ofSeconds(30);
    private static final int PAYLOAD = 1400;
    private static final long VM1_TO_VM3 = 30_000_000;
    private static final long VM2_TO_VM4 = 10_000_000;
    private static final Duration TRANSFER = Duration.ofSeconds(14);
    /** Rounds (1 s apart) whose median is compared: the transfer's steady middle. */
    private static final int STEADY_ROUNDS = 6;
    private static final double RATE_TOLERANCE = 0.10;
    private static final double PREDICTION_TOLERANCE = 0.15;

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static VirtueNetwork network;
    private static RestClient rest;

    @BeforeAll
    static void start() {
        Iperf.requireInstalled();
        artifacts = ArtifactDirectory.forTest("VirtueMeasurementIT");
        distribution = VirtueNetwork.distribution(Map.of());
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(CONNECT);
        controller.awaitApi("/api/v1/staticflows/flows", CONNECT);
        rest = controller.rest();
        testbed = Testbed.start("VirtueMeasurementIT");
        network = VirtueNetwork.connected(testbed, controller);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("VirtueMeasurementIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void measuredRatesMatchKnownTransfersAndAnExecutedPlanLowersTheMaximumAsPredicted() {
        assertEquals(201, rest.post("/api/v1/virtue/experiments?name=measured", network.edf()).status());
        assertEquals(200, rest.post("/api/v1/virtue/experiments/measured/start", "").status());

        Window before = transfer("before");
        double wire13 = VM1_TO_VM3 * (PAYLOAD + Iperf.UDP_FRAME_OVERHEAD) / (double) PAYLOAD;
        double wire24 = VM2_TO_VM4 * (PAYLOAD + Iperf.UDP_FRAME_OVERHEAD) / (double) PAYLOAD;
        double tagged13 = VM1_TO_VM3 * (PAYLOAD + Iperf.UDP_FRAME_OVERHEAD + 4) / (double) PAYLOAD;
        String c1ToPm2 = VirtueNetwork.id(network.c1.dpid(), network.port(network.c1, network.pm2), network.pm2.dpid(),
                network.port(network.pm2, network.c1));
        String pm1ToC2 = VirtueNetwork.id(network.pm1.dpid(), network.port(network.pm1, network.c2), network.c2.dpid(),
                network.port(network.c2, network.pm1));
        String vm1Up = VirtueNetwork.id("vm1", 0, network.pm1.dpid(), network.ports.get("vm1"));

        double traffic13 = median(before.snapshots, s -> traffic(s, "vm1", "vm3"));
        double traffic24 = median(before.snapshots, s -> traffic(s, "vm2", "vm4"));
        double link13 = median(before.snapshots, s -> link(s, c1ToPm2, "bitsPerSecond"));
        double link24 = median(before.snapshots, s -> link(s, pm1ToC2, "bitsPerSecond"));
        double up1 = median(before.snapshots, s -> link(s, vm1Up, "bitsPerSecond"));
        double utilisation13 = median(before.snapshots, s -> link(s, c1ToPm2, "utilisation"));
        System.out.printf("VirtueMeasurementIT: vm1 -> vm3 %.2f Mb/s measured, %.2f on the wire; vm2 -> vm4 %.2f, %.2f;"
                        + " c1 -> pm2 %.2f Mb/s (tagged %.2f), utilisation %.3f; pm1 -> c2 %.2f; vm1's link up %.2f%n",
                traffic13 / 1e6, wire13 / 1e6, traffic24 / 1e6, wire24 / 1e6, link13 / 1e6, tagged13 / 1e6,
                utilisation13, link24 / 1e6, up1 / 1e6);
        within("the traffic matrix's vm1 -> vm3", traffic13, wire13, RATE_TOLERANCE);
        within("the traffic matrix's vm2 -> vm4", traffic24, wire24, RATE_TOLERANCE);
        within("c1 -> pm2, which carries vm1 -> vm3 tagged", link13, tagged13, RATE_TOLERANCE);
        within("pm1 -> c2, which carries vm2 -> vm4 tagged", link24, wire24 * (PAYLOAD + 46.0) / (PAYLOAD + 42.0),
                RATE_TOLERANCE);
        within("vm1's link up", up1, wire13, RATE_TOLERANCE);
        within("c1 -> pm2's utilisation", utilisation13, tagged13 / VirtueNetwork.LINK_SPEED, RATE_TOLERANCE);
        // stored in the database: every round is listed, and an instant's round is served back
        JsonNode times = ok(rest.get("/api/v1/virtue/experiments/measured/times")).get("times");
        assertTrue(times.size() >= STEADY_ROUNDS, times.toString());
        // and the explorer shows it: the page at the last steady round, c1 -> pm2 at its utilisation
        showInTheExplorer(times, before.to, c1ToPm2, tagged13 / VirtueNetwork.LINK_SPEED);

        // the optimisation of the steady rounds: Greedy Fill, the thesis's best heuristic
        Response queued = rest.post("/api/v1/virtue/experiments/measured/optimisations", Map.of("algorithm",
                "greedyFill", "seed", 1, "from", before.from.toString(), "to", before.to.toString()));
        assertEquals(202, queued.status(), queued.toString());
        String id = queued.json().get("id").asText();
        JsonNode done = Poll.until("the optimisation to end", APP,
                () -> ok(rest.get("/api/v1/virtue/experiments/measured/optimisations/" + id)),
                o -> !o.get("state").asText().equals("QUEUED") && !o.get("state").asText().equals("RUNNING"));
        assertEquals("DONE", done.get("state").asText(), done.toString());
        JsonNode result = done.get("result");
        double predictedBefore = result.get("minimaxBefore").asDouble();
        double predictedAfter = result.get("minimaxAfter").asDouble();
        System.out.printf("VirtueMeasurementIT: the plan moves %s; predicted maximum utilisation %.3f (%s) -> %.3f (%s)%n",
                result.get("moves"), predictedBefore, result.get("hottestBefore").asText(), predictedAfter,
                result.get("hottestAfter").asText());
        assertTrue(predictedAfter < predictedBefore, "the plan lowers the predicted maximum: " + result);
        assertFalse(result.get("moves").isEmpty(), result.toString());

        // execute it: the hosts move to their new PMs' bridges, then the app is told
        for (JsonNode move : result.get("moves")) {
            network.move(move.get("vm").asText(), move.get("to").asText().equals("pm1") ? network.pm1 : network.pm2);
        }
        Response executed = rest.post("/api/v1/virtue/experiments/measured/optimisations/" + id + "/executed", "");
        assertEquals(200, executed.status(), executed.toString());
        assertEquals(1, executed.json().get("edfRevision").asInt());

        Window after = transfer("after");
        double measuredAfter = median(after.snapshots, VirtueMeasurementIT::maxUtilisation);
        double measuredBefore = median(before.snapshots, VirtueMeasurementIT::maxUtilisation);
        System.out.printf("VirtueMeasurementIT: measured maximum link utilisation %.3f before, %.3f after (predicted"
                + " %.3f -> %.3f)%n", measuredBefore, measuredAfter, predictedBefore, predictedAfter);
        assertTrue(measuredAfter < measuredBefore, "the measured maximum drops");
        within("the measured maximum after the plan", measuredAfter, predictedAfter, PREDICTION_TOLERANCE);

        assertEquals(200, rest.post("/api/v1/virtue/experiments/measured/stop", "").status());
    }

    private record Window(Instant from, Instant to, List<JsonNode> snapshots) {
    }

    /** Opens the Virtue page, moves its slider to {@code at} and reads {@code link}'s use from the resource table. */
    private static void showInTheExplorer(JsonNode times, Instant at, String link, double utilisation) {
        int index = -1;
        for (int i = 0; i < times.size(); i++) {
            if (Instant.parse(times.get(i).asText()).equals(at)) {
                index = i;
            }
        }
        assertTrue(index >= 0, at + " in " + times);
        try (Browser browser = Browser.start(artifacts, 1400, 1600)) {
            browser.logIn(controller);
            browser.openPage("#/virtue");
            Poll.until("the experiment in the list", APP, () -> browser.driver().findElements(
                    By.cssSelector(".virtue-experiments tr[data-key='measured'] a.virtue-open")), l -> l.size() == 1)
                    .get(0).click();
            Poll.until("the explorer", APP, () -> browser.driver().findElements(By.cssSelector(".virtue-slider")),
                    l -> !l.isEmpty());
            WebElement slider = browser.find(".virtue-slider");
            slider.sendKeys(Keys.HOME);
            for (int i = 0; i < index; i++) {
                slider.sendKeys(Keys.ARROW_RIGHT);
            }
            Poll.until("the explorer at " + at, APP, () -> String.valueOf(browser.script(
                    "const e = document.querySelector('.virtue-explorer'); return e ? e.dataset.shownTime : '';")),
                    at.toString()::equals);
            String shown = Poll.until(link + " in the resource table", APP, () -> {
                List<WebElement> rows = browser.driver().findElements(
                        By.cssSelector(".virtue-resources tbody tr[data-key='link " + link + "']"));
                return rows.isEmpty() ? "" : rows.get(0).findElements(By.tagName("td")).get(3).getText();
            }, text -> text.endsWith("%"));
            browser.screenshot("explorer-during-the-transfer");
            double percent = Double.parseDouble(shown.replace("%", "").strip());
            System.out.printf("VirtueMeasurementIT: the explorer shows %s for %s at %s%n", shown, link, at);
            within("the explorer's " + link, percent / 100, utilisation, RATE_TOLERANCE);
        }
    }

    /** Both transfers at once; the snapshots of the last {@link #STEADY_ROUNDS} rounds while they ran. */
    private static Window transfer(String label) {
        Path logs = artifacts.resolve(label);
        try {
            java.nio.file.Files.createDirectories(logs);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Iperf.Transfer a = Iperf.startUdp(network.vms.get("vm1"), network.vms.get("vm3"), TRANSFER, VM1_TO_VM3, PAYLOAD,
                logs);
        Iperf.Transfer b = Iperf.startUdp(network.vms.get("vm2"), network.vms.get("vm4"), TRANSFER, VM2_TO_VM4, PAYLOAD,
                logs);
        // rounds from a few seconds in, when the rates of the statistics app span only the transfer
        Instant steady = Instant.now().plusSeconds(4);
        List<String> times = Poll.until(STEADY_ROUNDS + " steady rounds", TRANSFER, () -> times(steady),
                t -> t.size() >= STEADY_ROUNDS);
        assertTrue(a.isRunning() && b.isRunning(), "the transfers were still on for every round compared");
        List<JsonNode> snapshots = new ArrayList<>();
        for (String at : times.subList(0, STEADY_ROUNDS)) {
            snapshots.add(ok(rest.get("/api/v1/virtue/experiments/measured/snapshot?at=" + at)));
        }
        a.awaitResult(Duration.ofSeconds(10));
        b.awaitResult(Duration.ofSeconds(10));
        return new Window(Instant.parse(times.get(0)), Instant.parse(times.get(STEADY_ROUNDS - 1)), snapshots);
    }

    private static List<String> times(Instant notBefore) {
        List<String> times = new ArrayList<>();
        for (JsonNode t : ok(rest.get("/api/v1/virtue/experiments/measured/times")).get("times")) {
            if (!Instant.parse(t.asText()).isBefore(notBefore)) {
                times.add(t.asText());
            }
        }
        return times;
    }

    private static double traffic(JsonNode snapshot, String source, String destination) {
        for (JsonNode flow : snapshot.get("traffic")) {
            if (flow.get("source").asText().equals(source) && flow.get("destination").asText().equals(destination)) {
                return flow.get("bitsPerSecond").asDouble();
            }
        }
        return Double.NaN;
    }

    private static double link(JsonNode snapshot, String id, String figure) {
        for (JsonNode link : snapshot.get("links")) {
            if (link.get("id").asText().equals(id)) {
                return link.get(figure).isNull() ? Double.NaN : link.get(figure).asDouble();
            }
        }
        throw new AssertionError("no link " + id + " in " + snapshot);
    }

    private static double maxUtilisation(JsonNode snapshot) {
        double max = 0;
        for (JsonNode link : snapshot.get("links")) {
            if (!link.get("utilisation").isNull()) {
                max = Math.max(max, link.get("utilisation").asDouble());
            }
        }
        return max;
    }

    private static double median(List<JsonNode> snapshots, ToDoubleFunction<JsonNode> figure) {
        List<Double> values = new ArrayList<>();
        for (JsonNode snapshot : snapshots) {
            double value = figure.applyAsDouble(snapshot);
            assertFalse(Double.isNaN(value), "a figure is missing from " + snapshot);
            values.add(value);
        }
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private static void within(String what, double measured, double expected, double tolerance) {
        assertTrue(Math.abs(measured - expected) <= tolerance * expected, String.format(
                "%s: %.4g measured, %.4g expected (within %.0f%%)", what, measured, expected, tolerance * 100));
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }
}
