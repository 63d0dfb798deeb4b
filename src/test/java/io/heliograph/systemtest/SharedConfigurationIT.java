package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.RestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 6: app configuration shared through the cluster's store, in one real controller (embedded
 * ZooKeeper). Settings PUT through REST reach the forwarding component live, through Configuration Admin's
 * plugin and Declarative Services, over its etc/ file's; deleting them brings the file's values back; bad
 * input is refused naming the problem, and changes nothing.
 */
@Timeout(300)
class SharedConfigurationIT {

    private static final String FORWARDING = "io.heliograph.forwarding";
    private static final String PATH = "/api/v1/config/" + FORWARDING;
    private static final Duration APPLIED = Duration.ofSeconds(30);

    private static ControllerDistribution distribution;
    private static ControllerProcess controller;

    @BeforeAll
    static void start() {
        Path artifacts = ArtifactDirectory.forTest("SharedConfigurationIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        distribution.configure(FORWARDING, Map.of("idleTimeout", "11"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        controller.awaitLog(forwarding("active", 11, "TRANSPORT"), 0, APPLIED);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("SharedConfigurationIT");
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void sharedSettingsApplyLiveOverTheFileAndDeletingThemBringsTheFileBack() {
        RestClient rest = controller.rest();
        JsonNode all = ok(rest.get("/api/v1/config"));
        List<String> pids = new ArrayList<>();
        all.forEach(p -> pids.add(p.get("pid").asText()));
        assertTrue(pids.containsAll(List.of(FORWARDING, "io.heliograph.learningswitch", "io.heliograph.routing")),
                "shareable pids: " + pids);
        assertFalse(pids.contains("io.heliograph.openflow") || pids.contains("io.heliograph.webui")
                || pids.contains("io.heliograph.cluster"), "an instance's own pids listed as shareable: " + pids);
        assertTrue(pids.stream().allMatch(p -> p.startsWith("io.heliograph.")), "platform pids listed: " + pids);
        JsonNode before = ok(rest.get(PATH));
        assertEquals(0, before.get("settings").size(), before.toString());
        assertTrue(before.get("version").isNull(), before.toString());
        assertTrue(known(before).contains("idleTimeout Integer 5"), "the metatype's settings: " + known(before));

        int mark = controller.logMark();
        JsonNode written = ok(rest.put(PATH, Map.of("idleTimeout", "7", "matchGranularity", "MAC")));
        assertEquals("7", written.at("/settings/idleTimeout").asText());
        assertEquals("MAC", written.at("/settings/matchGranularity").asText());
        assertEquals(0, written.get("version").asLong());
        controller.awaitLog(forwarding("reconfigured", 7, "MAC"), mark, APPLIED);
        assertEquals(written, ok(rest.get(PATH)));

        // refused, naming the problem; the shared settings stay as they were
        assertRefused(rest.put(PATH, Map.of("idleTimout", "8")), "idleTimout", "no setting 'idleTimout'",
                "idleTimeout");
        assertRefused(rest.put(PATH, Map.of("idleTimeout", "70000")), "idleTimeout", "idleTimeout = '70000'");
        assertRefused(rest.put(PATH, Map.of("ecmp", "maybe")), "ecmp", "ecmp = 'maybe'");
        assertRefused(rest.put(PATH, Map.of("matchGranularity", "PORT")), "matchGranularity", "matchGranularity = 'PORT'");
        assertRefused(rest.put(PATH, "{\"idleTimeout\": 8}"), "idleTimeout", "must be a string");
        assertRefused(rest.put("/api/v1/config/io.heliograph.openflow", Map.of("port", "7000")), "pid",
                "io.heliograph.openflow is this instance's own configuration");
        assertRefused(rest.put("/api/v1/config/io.heliograph.nosuchapp", Map.of("a", "1")), "pid",
                "'io.heliograph.nosuchapp'", FORWARDING);
        assertRefused(rest.put("/api/v1/config/org.apache.felix.scr.ScrService", Map.of("ds.loglevel", "4")), "pid",
                "not a Heliograph pid");
        assertEquals(written, ok(rest.get(PATH)), "a refused write changed the shared settings");

        mark = controller.logMark();
        JsonNode deleted = ok(rest.delete(PATH));
        assertEquals(0, deleted.get("settings").size(), deleted.toString());
        assertTrue(deleted.get("version").isNull(), deleted.toString());
        controller.awaitLog(forwarding("reconfigured", 11, "TRANSPORT"), mark, APPLIED);
    }

    @Test
    void everySharedConfigurationEndpointIsInTheOpenApiDocumentWithASummary() {
        JsonNode paths = ok(controller.rest().get("/api/v1/openapi.json")).get("paths");
        Map<String, List<String>> expected = Map.of("/api/v1/config", List.of("get"),
                "/api/v1/config/{pid}", List.of("get", "put", "delete"));
        expected.forEach((path, methods) -> {
            assertTrue(paths.has(path), path + " missing from the OpenAPI document");
            for (String method : methods) {
                assertFalse(paths.get(path).path(method).path("summary").asText().isBlank(),
                        method + " " + path + " undocumented: " + paths.get(path));
            }
        });
    }

    /** The forwarding component's log line for settings it applied. */
    private static Pattern forwarding(String event, int idleTimeout, String granularity) {
        return Pattern.compile("forwarding " + event + " \\(ForwardingSettings\\[idleTimeout=" + idleTimeout
                + ", .*granularity=" + granularity + "[,\\]]");
    }

    private static List<String> known(JsonNode pid) {
        List<String> known = new ArrayList<>();
        pid.get("known").forEach(s -> known.add(s.get("id").asText() + " " + s.get("type").asText() + " "
                + s.get("defaultValue").asText()));
        return known;
    }

    private static JsonNode ok(RestClient.Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }

    private static void assertRefused(RestClient.Response response, String field, String... named) {
        assertEquals(400, response.status(), response.toString());
        JsonNode error = response.json();
        assertEquals(field, error.get("field").asText(), response.toString());
        for (String name : named) {
            assertTrue(error.get("message").asText().contains(name), "'" + name + "' not in " + response);
        }
    }
}
