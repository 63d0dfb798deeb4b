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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 22, the Virtue page (the UI half of "what must be shown" 2), in headless Chromium against the
 * real distribution, no switches: an experiment made over REST from a small EDF (one ToR switch, three
 * PMs with their software switches, four VMs) is started, and its host agents report CPU and a metric
 * twice, with other values the second time. On the page the operator:
 * <ul>
 *   <li>opens the experiment from the list: the explorer shows the latest sample, the table lists every
 *       link, VM and PM with the CPU reported, links "not measured" (no switch measures them here);</li>
 *   <li>sees the topology coloured as reported: each PM's switch drawn in its CPU's band colour (read
 *       back from the canvas's pixels) and each VM's utilisation in the graph;</li>
 *   <li>moves the slider to the first sample: table, colours and the charts' markers follow;</li>
 *   <li>selects the region around one PM's switch (shift and drag): the table shows that PM, its VMs
 *       and their links only; clears it and filters by text;</li>
 *   <li>uploads an EDF the controller refuses: the page lists its problems with their JSON paths;</li>
 *   <li>deletes the experiment from the list.</li>
 * </ul>
 * Link rates need real switches: the Virtue OVS test checks them in this page's table.
 */
@Timeout(180)
class VirtuePageIT {

    private static final Duration PAGE = Duration.ofSeconds(20);
    private static final Duration SAMPLES = Duration.ofSeconds(30);
    private static final String BASE = "/api/v1/virtue/experiments";
    private static final String TOR = "00:00:00:00:00:00:00:01";
    private static final List<String> PM_SWITCHES = List.of("01:00:00:00:00:00:00:01", "01:00:00:00:00:00:00:02",
            "01:00:00:00:00:00:00:03");
    /** VM, its PM (by index), its MAC. */
    private static final List<List<Object>> VMS = List.of(List.of("vm0001", 0, "00:16:3e:00:00:01"),
            List.of("vm0002", 0, "00:16:3e:00:00:02"), List.of("vm0003", 1, "00:16:3e:00:00:03"),
            List.of("vm0004", 2, "00:16:3e:00:00:04"));
    /** The two rounds of reports: each VM's CPU (a fraction of its PM's). */
    private static final List<Map<String, Double>> CPU = List.of(
            Map.of("vm0001", 0.90, "vm0002", 0.05, "vm0003", 0.50, "vm0004", 0.10),
            Map.of("vm0001", 0.20, "vm0002", 0.05, "vm0003", 0.70, "vm0004", 0.95));
    /** The topology graph's link colours by band (scene.js): not measured, < 30 %, < 60 %, < 85 %, above. */
    private static final List<String> BANDS = List.of("#a0aab4", "#2e9e4f", "#c9a927", "#e8772e", "#d63a3a");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Browser browser;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("VirtuePageIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        // a sample a second, so that the two rounds of reports are two samples soon
        distribution.configure("io.heliograph.virtue", Map.of("sampleSeconds", "1"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        controller.awaitApi("/api/v1/staticflows/flows", Duration.ofSeconds(60));
        browser = Browser.start(artifacts, 1400, 1800);
        browser.logIn(controller);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("VirtuePageIT");
        cleanup.close("browser", browser);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void theExplorerFollowsTheSamplesAndARegionFiltersTheTable() throws IOException {
        RestClient rest = controller.rest();
        RestClient.Response created = rest.post(BASE + "?name=page-it", edf());
        assertEquals(201, created.status(), created.toString());
        String id = created.json().get("id").asText();
        RestClient.Response started = rest.post(BASE + "/" + id + "/start", Map.of());
        assertEquals(200, started.status(), started.toString());
        JsonNode keys = rest.get(BASE + "/" + id + "/agents").json();

        // two rounds of reports, each recorded in a sample of its own
        List<String> sampleTimes = new ArrayList<>();
        for (int round = 0; round < CPU.size(); round++) {
            Map<String, Double> cpu = CPU.get(round);
            for (List<Object> vm : VMS) {
                String name = (String) vm.get(0);
                report(id, keys.get(name).asText(), name, cpu.get(name), 100.0 * (round + 1));
            }
            int sampled = round;
            String at = Poll.until("a sample with round " + (round + 1) + "'s CPU", SAMPLES,
                    () -> sampleWith(rest, id, cpu), t -> t != null && (sampled == 0 || !t.equals(sampleTimes.get(0))));
            sampleTimes.add(at);
        }
        // stopped, it samples no more: its last sample is the latest the page shows
        RestClient.Response stopped = rest.post(BASE + "/" + id + "/stop", Map.of());
        assertEquals(200, stopped.status(), stopped.toString());
        List<String> times = new ArrayList<>();
        rest.get(BASE + "/" + id + "/times").json().path("times").forEach(t -> times.add(t.asText()));
        String latest = times.get(times.size() - 1);
        int first = times.indexOf(sampleTimes.get(0));
        assertTrue(first >= 0, sampleTimes + " in " + times);
        System.out.printf("samples with the two rounds of reports: %s, of %d samples%n", sampleTimes, times.size());

        // the experiment, opened from the list
        browser.openPage("#/virtue");
        WebElement open = Poll.until("the experiment in the list", PAGE,
                () -> browser.driver().findElements(By.cssSelector(".virtue-experiments tr[data-key='" + id + "'] a.virtue-open")),
                links -> links.size() == 1).get(0);
        assertTrue(open.getText().startsWith("page-it"), open.getText());
        browser.screenshot("1-list");
        open.click();
        Poll.until("the explorer on the latest sample", PAGE, () -> explorerData("shownTime"), latest::equals);
        Poll.until("the rows of the latest sample", PAGE, () -> useOf("vm vm0004"), "95.0 %"::equals);
        // every EDF link (both ways: 3 PM switches and 4 VMs), VM and PM
        assertEquals(2 * (PM_SWITCHES.size() + VMS.size()) + VMS.size() + PM_SWITCHES.size(), tableRows().size(),
                "rows: " + tableRows());
        assertEquals("20.0 %", useOf("vm vm0001"));
        assertEquals("not measured", useOf("link " + TOR + ":1->" + PM_SWITCHES.get(0) + ":1"));
        assertTrue(browser.find(".virtue-summary").getText().contains("not measured"), browser.find(".virtue-summary").getText());
        for (int pm = 0; pm < PM_SWITCHES.size(); pm++) {
            assertPmColour(rest, id, latest, pm);
        }
        assertEquals(0.95, hostUtilisation("00:16:3e:00:00:04"), 1e-9);
        int markerLatest = markerX("cpu");
        browser.screenshot("2-latest-sample");

        // the slider to the first sample with round 1's reports: table, colours and markers follow
        WebElement slider = browser.find(".virtue-slider");
        slider.sendKeys(Keys.HOME);
        for (int i = 0; i < first; i++) {
            slider.sendKeys(Keys.ARROW_RIGHT);
        }
        Poll.until("the explorer on the first sample", PAGE, () -> explorerData("shownTime"), sampleTimes.get(0)::equals);
        Poll.until("vm0001's first CPU in the table", PAGE, () -> useOf("vm vm0001"), "90.0 %"::equals);
        assertEquals("10.0 %", useOf("vm vm0004"));
        assertEquals(0.90, hostUtilisation("00:16:3e:00:00:01"), 1e-9);
        for (int pm = 0; pm < PM_SWITCHES.size(); pm++) {
            assertPmColour(rest, id, sampleTimes.get(0), pm);
        }
        int markerFirst = markerX("cpu");
        assertTrue(markerFirst < markerLatest, "the CPU chart's marker moved back: " + markerFirst + " < " + markerLatest);
        assertEquals(String.valueOf(VMS.size()), chartData("cpu", "series"), "a CPU line per VM");
        assertEquals(String.valueOf(VMS.size()), chartData("requests", "series"), "a metric line per VM");
        browser.screenshot("3-first-sample");

        // a region around host0002's switch: that PM, its VM and their links alone
        selectRegionAround(PM_SWITCHES.get(1), 14);
        Poll.until("the table filtered by the region", PAGE, () -> explorerData("regionRows"), n -> !n.isEmpty());
        List<String> inRegion = tableRows();
        assertTrue(inRegion.contains("pm host0002") && inRegion.contains("vm vm0003"), "region rows: " + inRegion);
        assertTrue(inRegion.stream().noneMatch(r -> r.equals("pm host0001") || r.equals("vm vm0001")), "region rows: " + inRegion);
        browser.screenshot("4-region");
        browser.find(".virtue-clear-region").click();
        Poll.until("the whole table again", PAGE, () -> explorerData("regionRows"), String::isEmpty);
        WebElement filter = browser.find(".virtue-resources .hg-filter");
        filter.sendKeys("vm0002");
        // the VM and its own two links, which name it
        Poll.until("the text filter", PAGE, this::tableRows, rows -> rows.size() == 3 && rows.contains("vm vm0002")
                && rows.stream().allMatch(r -> r.contains("vm0002")));
        filter.clear();

        // a refused EDF: its problems, each at its JSON path
        Path bad = artifacts.resolve("bad-edf.json");
        Map<String, Object> broken = edf();
        ((List<?>) broken.get("links")).clear();
        Files.writeString(bad, JSON.writeValueAsString(broken));
        browser.find(".virtue-create input[type=file]").sendKeys(bad.toString());
        browser.find(".virtue-create-submit").click();
        List<String> problems = Poll.until("the refusal's problems", PAGE, () -> browser.driver()
                .findElements(By.cssSelector(".virtue-problems li")).stream().map(WebElement::getText).toList(), p -> !p.isEmpty());
        assertTrue(problems.stream().allMatch(p -> p.startsWith("$")), "each problem at its JSON path: " + problems);
        assertTrue(problems.stream().anyMatch(p -> p.contains("vm0001")), problems.toString());
        System.out.printf("refused EDF, problems shown: %s%n", problems);
        browser.screenshot("5-refused-edf");

        // deleted from the list, after saying yes
        WebElement row = browser.find(".virtue-experiments tr[data-key='" + id + "']");
        row.findElement(By.cssSelector(".virtue-delete")).click();
        browser.find(".virtue-experiments tr[data-key='" + id + "'] .virtue-delete-yes").click();
        Poll.until("the experiment deleted", PAGE, () -> rest.get(BASE + "/" + id).status(), s -> s == 404);
        List<String> errors = browser.consoleErrors().stream()
                .filter(e -> !e.contains("status of 400")).toList();   // the refused EDF
        assertEquals(List.of(), errors, "the page's console");
    }

    // ---- the experiment

    /** One ToR switch, three PMs (software switches on its ports 1-3), four VMs, links both ways. */
    private static Map<String, Object> edf() {
        List<Object> switches = new ArrayList<>();
        switches.add(Map.of("id", TOR, "parameters", Map.of(), "software", false));
        List<Object> links = new ArrayList<>();
        List<Object> pms = new ArrayList<>();
        for (int p = 0; p < PM_SWITCHES.size(); p++) {
            String sw = PM_SWITCHES.get(p);
            switches.add(Map.of("id", sw, "parameters", Map.of(), "software", true));
            links.add(link(TOR, p + 1, sw, 1));
            links.add(link(sw, 1, TOR, p + 1));
            Map<String, Object> vms = new LinkedHashMap<>();
            int port = 2;
            for (List<Object> vm : VMS) {
                if ((int) vm.get(1) == p) {
                    String name = (String) vm.get(0);
                    vms.put(name, Map.of("id", name, "parameters", Map.of("MAC", vm.get(2))));
                    links.add(link(name, 0, sw, port));
                    links.add(link(sw, port, name, 0));
                    port++;
                }
            }
            pms.add(Map.of("id", String.format("host%04d", p + 1), "parameters", Map.of(), "vms", vms));
        }
        Map<String, Object> edf = new LinkedHashMap<>();
        edf.put("parameters", Map.of("CPU_COUNT", "2", "CPU_SPEED", "2.8E9", "LINK_SPEED", "1000000000",
                "INTRA_PM_LINK_SPEED", "10000000000"));
        edf.put("pms", pms);
        edf.put("switches", switches);
        edf.put("links", links);
        edf.put("routes", List.of());
        return edf;
    }

    private static Map<String, Object> link(String source, int sourcePort, String destination, int destinationPort) {
        return Map.of("id", source + ":" + sourcePort + "->" + destination + ":" + destinationPort, "sourceId", source,
                "sourcePort", sourcePort, "destinationId", destination, "destinationPort", destinationPort,
                "parameters", Map.of());
    }

    /** A host agent's report, with its VM's key. */
    private static void report(String id, String key, String vm, double cpu, double requests) {
        RestClient.Response answer = controller.rest().withHeader("X-Virtue-Agent-Key", key).post(BASE + "/" + id + "/reports",
                Map.of("vm", vm, "cpu", cpu, "metrics", Map.of("requests", requests)));
        assertEquals(202, answer.status(), answer.toString());
    }

    /** The latest sample's time when its VMs' CPU is `cpu`, else null. */
    private static String sampleWith(RestClient rest, String id, Map<String, Double> cpu) {
        JsonNode snapshot = rest.get(BASE + "/" + id + "/snapshot").json();
        for (JsonNode vm : snapshot.path("vms")) {
            Double expected = cpu.get(vm.path("id").asText());
            if (expected == null || vm.path("cpu").isNull() || Math.abs(vm.path("cpu").asDouble() - expected) > 1e-9) {
                return null;
            }
        }
        // a sample's time: null before the first round (reports alone make no sample)
        return snapshot.path("vms").size() == cpu.size() && snapshot.path("at").isTextual() ? snapshot.path("at").asText() : null;
    }

    // ---- the page

    private String explorerData(String name) {
        Object value = browser.script("const e = document.querySelector('.virtue-explorer');"
                + " return e ? (e.dataset[arguments[0]] ?? '') : '';", name);
        return value == null ? "" : value.toString();
    }

    /** The resource table's rows by key ("vm vm0001", "pm host0001", "link ..."), as shown. */
    private List<String> tableRows() {
        return browser.driver().findElements(By.cssSelector(".virtue-resources tbody tr[data-key]")).stream()
                .map(r -> r.getAttribute("data-key")).toList();
    }

    private String useOf(String key) {
        List<WebElement> rows = browser.driver().findElements(By.cssSelector(".virtue-resources tbody tr[data-key='" + key + "']"));
        return rows.isEmpty() ? "" : rows.get(0).findElements(By.tagName("td")).get(3).getText();
    }

    private double hostUtilisation(String mac) {
        return ((Number) browser.script("const m = document.querySelector('.hg-topology').topologyGraph.scene.model;"
                + " return m.hosts.find(h => h.mac === arguments[0]).utilisation;", mac)).doubleValue();
    }

    /**
     * The pixel at the centre of PM {@code pm}'s switch on the graph's canvas has the colour of the band
     * of that PM's CPU in the sample at {@code at} (the role's colour when it has none).
     */
    private void assertPmColour(RestClient rest, String id, String at, int pm) {
        JsonNode snapshot = rest.get(BASE + "/" + id + "/snapshot?at=" + at).json();
        JsonNode cpu = null;
        for (JsonNode p : snapshot.path("pms")) {
            if (p.path("id").asText().equals(String.format("host%04d", pm + 1))) {
                cpu = p.path("cpu");
            }
        }
        assertTrue(cpu != null && cpu.isNumber(), "host" + (pm + 1) + "'s CPU at " + at + ": " + snapshot);
        double u = cpu.asDouble();
        int band = u < 0.3 ? 1 : u < 0.6 ? 2 : u < 0.85 ? 3 : 4;
        String dpid = PM_SWITCHES.get(pm);
        String expected = BANDS.get(band);
        String seen = Poll.until(dpid + " drawn in band " + band + " (" + expected + ")", PAGE, () -> (String) browser.script("""
                const graph = document.querySelector('.hg-topology').topologyGraph;
                const p = graph.screenPositionOfSwitch(arguments[0]);
                const ratio = graph.pixelRatio;
                const [r, g, b] = graph.canvas.getContext('2d')
                    .getImageData(Math.round(p.x * ratio), Math.round(p.y * ratio), 1, 1).data;
                return '#' + [r, g, b].map(v => v.toString(16).padStart(2, '0')).join('');""", dpid), expected::equals);
        assertEquals(expected, seen);
    }

    private int markerX(String metric) {
        return Integer.parseInt(chartData(metric, "markerX"));
    }

    private String chartData(String metric, String name) {
        Object value = browser.script("const c = document.querySelector(`.time-chart[data-metric='${arguments[0]}']"
                + " .time-chart-stage`); return c ? (c.dataset[arguments[1]] ?? '') : '';", metric, name);
        return String.valueOf(value);
    }

    /** Shift and drag a square of `half` pixels round a switch of the graph, as an operator selects a region. */
    private void selectRegionAround(String dpid, int half) {
        @SuppressWarnings("unchecked")
        Map<String, Number> p = (Map<String, Number>) browser.script(
                "return document.querySelector('.hg-topology').topologyGraph.screenPositionOfSwitch(arguments[0]);", dpid);
        WebElement canvas = browser.find(".hg-topology-canvas");
        int width = canvas.getRect().getWidth();
        int height = canvas.getRect().getHeight();
        // WebDriver offsets are from the element's centre
        int x = (int) Math.round(p.get("x").doubleValue() - width / 2.0);
        int y = (int) Math.round(p.get("y").doubleValue() - height / 2.0);
        new Actions(browser.driver()).keyDown(Keys.SHIFT).moveToElement(canvas, x - half, y - half).clickAndHold()
                .moveByOffset(half, half).moveByOffset(half, half).release().keyUp(Keys.SHIFT).perform();
    }
}
