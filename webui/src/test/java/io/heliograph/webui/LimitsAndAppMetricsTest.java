package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.core.MetricSource;
import io.heliograph.core.MetricSource.Sample;
import io.heliograph.core.MetricSource.Type;
import io.heliograph.core.StateBounds;
import io.heliograph.core.StateBounds.Bound;

/**
 * {@code /api/v1/limits} and the apps' part of {@code /metrics}: what the StateBounds and MetricSource
 * whiteboards give.
 */
class LimitsAndAppMetricsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;
    private RunningServer server;

    @BeforeEach
    void start() throws IOException {
        server = new RunningServer(dataDir);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** An app's bounds, with a fill and counters the test moves on. */
    private static final class Tables implements StateBounds {
        final AtomicLong size = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        private final String app;

        Tables(String app) {
            this.app = app;
        }

        @Override
        public List<Bound> bounds() {
            return List.of(new Bound(app + ".tables", "io.heliograph." + app + "/maxTables", 16, 1, 0, 0,
                            "one per switch"),
                    new Bound(app + ".hosts", "io.heliograph." + app + "/maxHosts", 100, size.get(), 3,
                            refused.get(), "hosts; new ones refused at the bound"));
        }
    }

    @Test
    void limitsListEveryRunningAppsBoundsByTableAndLeaveWithTheApp() throws IOException {
        assertEquals("[]", server.get(LimitsResource.PATH).body(), "no app running: no bounds");
        Tables devices = new Tables("devices");
        Tables forwarding = new Tables("forwarding");
        server.component.addStateBounds(forwarding);
        server.component.addStateBounds(devices);
        devices.size.set(42);
        devices.refused.set(7);

        JsonNode limits = limits();
        List<String> tables = new ArrayList<>();
        limits.forEach(l -> tables.add(l.get("table").asText()));
        assertEquals(List.of("devices.hosts", "devices.tables", "forwarding.hosts", "forwarding.tables"), tables);
        JsonNode hosts = limits.get(0);
        assertEquals("io.heliograph.devices/maxHosts", hosts.get("setting").asText());
        assertEquals(100, hosts.get("limit").asLong());
        assertEquals(42, hosts.get("size").asLong());
        assertEquals(3, hosts.get("evicted").asLong());
        assertEquals(7, hosts.get("refused").asLong());
        assertEquals("hosts; new ones refused at the bound", hosts.get("description").asText());

        devices.refused.set(9);
        assertEquals(9, limits().get(0).get("refused").asLong(), "read afresh on each request");

        server.component.removeStateBounds(devices); // the devices app stopped
        tables.clear();
        limits().forEach(l -> tables.add(l.get("table").asText()));
        assertEquals(List.of("forwarding.hosts", "forwarding.tables"), tables);
    }

    @Test
    void anAppThatFailsToReportIsLeftOutAndTheOthersStay() throws IOException {
        server.component.addStateBounds(new Tables("devices"));
        server.component.addStateBounds(() -> {
            throw new IllegalStateException("broken app");
        });
        server.component.addMetricSource(() -> {
            throw new IllegalStateException("broken app");
        });
        assertEquals(2, limits().size());
        var metrics = server.get(MetricsResource.PATH);
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.body().contains("heliograph_state_limit{table=\"devices.hosts\"} 100\n"), metrics.body());
    }

    @Test
    void limitsNeedCredentialsAndAreDocumented() throws IOException {
        assertEquals(401, server.getWithout(LimitsResource.PATH).statusCode());
        JsonNode operation = JSON.readTree(server.get(OpenApiDocument.PATH).body())
                .at("/paths/~1api~1v1~1limits/get");
        assertFalse(operation.path("summary").asText().isBlank(), operation.toString());
    }

    @Test
    void metricsCarryEveryBoundAsFourFamiliesLabelledByTable() {
        Tables devices = new Tables("devices");
        devices.size.set(42);
        devices.refused.set(7);
        server.component.addStateBounds(devices);

        List<String> lines = metrics();
        for (String expected : List.of("# TYPE heliograph_state_limit gauge",
                "heliograph_state_limit{table=\"devices.hosts\"} 100",
                "heliograph_state_limit{table=\"devices.tables\"} 16", "# TYPE heliograph_state_entries gauge",
                "heliograph_state_entries{table=\"devices.hosts\"} 42", "# TYPE heliograph_state_evicted_total counter",
                "heliograph_state_evicted_total{table=\"devices.hosts\"} 3",
                "# TYPE heliograph_state_refused_total counter",
                "heliograph_state_refused_total{table=\"devices.hosts\"} 7")) {
            assertTrue(lines.contains(expected), expected + " in\n" + String.join("\n", lines));
        }
        server.component.removeStateBounds(devices);
        assertFalse(String.join("\n", metrics()).contains("devices.hosts"), "gone with the app");
    }

    @Test
    void appSamplesAreGroupedIntoFamiliesWithSortedLabelsAndEscapedValues() {
        Map<String, String> twoLabels = new LinkedHashMap<>();
        twoLabels.put("switch", "00:00:00:00:00:00:00:02");
        twoLabels.put("reason", "say \"hi\"\\\nbye");
        MetricSource one = () -> List.of(
                new Sample("heliograph_test_drops_total", Type.COUNTER, "Drops by switch", twoLabels, 5),
                new Sample("heliograph_test_queue", Type.GAUGE, "Queue length\nnow", Map.of(), 2.5),
                new Sample("heliograph_test_mixed", Type.GAUGE, "", Map.of(), 1));
        MetricSource other = () -> List.of(
                new Sample("heliograph_test_drops_total", Type.COUNTER, "Drops by switch",
                        Map.of("switch", "00:00:00:00:00:00:00:01", "reason", "x"), 3),
                new Sample("heliograph_test_mixed", Type.COUNTER, "", Map.of("a", "b"), 1),
                new Sample("heliograph_test_bad_label", Type.GAUGE, "", Map.of("9lives", "x"), 1),
                new Sample("jvm_threads_current", Type.GAUGE, "Live JVM threads", Map.of(), 1e9),
                new Sample("heliograph_test_inf", Type.GAUGE, "", Map.of(), Double.POSITIVE_INFINITY));
        server.component.addMetricSource(one);
        server.component.addMetricSource(other);

        List<String> lines = metrics();
        String text = String.join("\n", lines);
        assertEquals(1, lines.stream().filter(l -> l.equals("# TYPE heliograph_test_drops_total counter")).count(),
                text);
        int type = lines.indexOf("# TYPE heliograph_test_drops_total counter");
        assertEquals("# HELP heliograph_test_drops_total Drops by switch", lines.get(type - 1));
        assertEquals(List.of(
                "heliograph_test_drops_total{reason=\"say \\\"hi\\\"\\\\\\nbye\",switch=\"00:00:00:00:00:00:00:02\"} 5",
                "heliograph_test_drops_total{reason=\"x\",switch=\"00:00:00:00:00:00:00:01\"} 3"),
                lines.subList(type + 1, type + 3), "both apps' samples in one family, labels in name order");
        assertTrue(lines.contains("# HELP heliograph_test_queue Queue length\\nnow"), text);
        assertTrue(lines.contains("heliograph_test_queue 2.5"), text);
        assertFalse(text.contains("heliograph_test_mixed"), "a family whose samples disagree on type is left out");
        assertFalse(text.contains("heliograph_test_bad_label"), "a bad label name is left out");
        assertEquals(1, lines.stream().filter(l -> l.startsWith("jvm_threads_current ")).count(),
                "an app cannot take the controller's own family");
        assertFalse(text.contains("1000000000"), text);
        assertTrue(lines.contains("heliograph_test_inf +Inf"), text);

        server.component.removeMetricSource(one);
        server.component.removeMetricSource(other);
        assertFalse(String.join("\n", metrics()).contains("heliograph_test_"), "gone with the apps");
    }

    private JsonNode limits() throws IOException {
        var response = server.get(LimitsResource.PATH);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private List<String> metrics() {
        var response = server.get(MetricsResource.PATH);
        assertEquals(200, response.statusCode(), response.body());
        return response.body().lines().toList();
    }
}
