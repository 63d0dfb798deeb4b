package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.GrafanaDashboard;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shipped Grafana dashboard, without a controller (PortRatesIT checks it against a real scrape):
 * panels Grafana can lay out, every query on the dashboard's data source, every metric one the
 * controller's code declares (a renamed metric fails here), and {@code rate()} only of counters.
 */
class GrafanaDashboardTest {

    private static final Path ROOT = repositoryRoot();
    private static final GrafanaDashboard DASHBOARD =
            GrafanaDashboard.read(ROOT.resolve("deploy/src/main/dist").resolve(GrafanaDashboard.SHIPPED));

    @Test
    void panelsAreLaidOutOnTheGridWithUniqueIdsAndQueryTheChosenDataSource() {
        Set<Integer> ids = new HashSet<>();
        int drawn = 0;
        for (JsonNode panel : DASHBOARD.json().get("panels")) {
            String title = panel.path("title").asText();
            assertTrue(ids.add(panel.path("id").asInt()), "panel id given twice: " + title);
            JsonNode grid = panel.get("gridPos");
            assertTrue(grid.get("x").asInt() >= 0 && grid.get("x").asInt() + grid.get("w").asInt() <= 24,
                    title + " is outside the 24 columns: " + grid);
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            drawn++;
            assertEquals("${datasource}", panel.at("/datasource/uid").asText(), title);
            assertFalse(panel.path("targets").isEmpty(), title + " has no query");
            for (JsonNode target : panel.get("targets")) {
                assertFalse(target.path("expr").asText().isBlank(), title);
                assertEquals("${datasource}", target.at("/datasource/uid").asText(), title);
            }
        }
        assertTrue(drawn >= 15, drawn + " panels");
        assertEquals("heliograph", DASHBOARD.json().path("uid").asText());
    }

    @Test
    void everyMetricItDrawsIsOneTheControllersCodeDeclares() {
        Set<String> drawn = DASHBOARD.metrics();
        for (String family : List.of("heliograph_switches_connected", "heliograph_openflow_messages_total",
                "heliograph_openflow_messages_sent_total", "heliograph_port_rx_bytes_total", "heliograph_topology_links",
                "heliograph_devices_hosts", "heliograph_switch_flows", "heliograph_rest_request_seconds_bucket",
                "heliograph_pipeline_seconds_bucket", "jvm_memory_bytes_used", "heliograph_cluster_zookeeper_state")) {
            assertTrue(drawn.contains(family), "the dashboard does not draw " + family + ": " + drawn);
        }
        String sources = mainSources();
        Set<String> undeclared = new TreeSet<>();
        for (String name : drawn) {
            if (!sources.contains("\"" + name + "\"")) {
                undeclared.add(name);
            }
        }
        assertEquals(Set.of(), undeclared, "metrics the dashboard draws that no main source file names");
    }

    @Test
    void rateIsTakenOfCountersOnly() {
        Pattern rate = Pattern.compile("rate\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)");
        for (String query : DASHBOARD.queries()) {
            Matcher m = rate.matcher(query);
            while (m.find()) {
                assertTrue(m.group(1).matches(".*_(total|bucket|count|sum)"), "rate() of a gauge in " + query);
            }
        }
    }

    /** Every main Java source of the controller's modules, joined. */
    private static String mainSources() {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/java/")
                    && !f.toString().contains("/target/")).toList()) {
                all.append(Files.readString(file)).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }

    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("deploy/src/main/dist"))) {
                return dir;
            }
        }
        throw new IllegalStateException("not inside the repository: " + Path.of("").toAbsolutePath());
    }
}
