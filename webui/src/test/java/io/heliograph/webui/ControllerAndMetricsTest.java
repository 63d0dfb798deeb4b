package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.projectfloodlight.openflow.protocol.OFType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.core.MessageStatistics;

class ControllerAndMetricsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A sample line of the Prometheus text format: name, optional labels, a number. */
    private static final Pattern SAMPLE = Pattern.compile(
            "[a-zA-Z_:][a-zA-Z0-9_:]*(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"[^\"]*\"(,[a-zA-Z_][a-zA-Z0-9_]*=\"[^\"]*\")*})? "
                    + "(-?[0-9.eE+-]+|\\+Inf|NaN)");

    private static final MessageStatistics SOME_MESSAGES = new MessageStatistics() {
        @Override
        public Map<OFType, Long> dispatched() {
            return Map.of(OFType.PACKET_IN, 5L, OFType.PORT_STATUS, 2L);
        }

        @Override
        public Latency latency() {
            return new Latency(3, 0.000030, List.of(0.000001, 0.00001, 0.0001), List.of(0L, 2L, 3L));
        }
    };

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

    @Test
    void theControllerSaysWhatItIsWithTheInstanceIdTheLauncherGaveIt() throws IOException {
        JsonNode before = controller();
        assertEquals("0.0.0-test", before.get("version").asText());
        assertEquals(RunningServer.INSTANCE_ID, before.get("instanceId").asText());
        assertEquals(-1, before.get("switches").asInt(), "no OpenFlow layer yet");
        assertTrue(before.get("messages").isNull(), before.toString());
        assertTrue(before.at("/memory/heapUsed").asLong() > 0);
        assertTrue(before.get("threads").asInt() > 0);

        io.heliograph.core.SwitchService two = WebServerTest.switchesWith(2);
        server.switches(new io.heliograph.core.SwitchService() {
            @Override
            public Map<org.projectfloodlight.openflow.types.DatapathId, io.heliograph.core.OFSwitch> getSwitches() {
                return two.getSwitches();
            }

            @Override
            public io.heliograph.core.OFSwitch getSwitch(org.projectfloodlight.openflow.types.DatapathId id) {
                return two.getSwitch(id);
            }

            @Override
            public Map<OFType, Long> getMessagesSent() {
                return Map.of(OFType.FLOW_MOD, 7L, OFType.PACKET_OUT, 3L);
            }
        });
        server.messages(SOME_MESSAGES);
        JsonNode now = controller();
        assertEquals(2, now.get("switches").asInt());
        assertEquals(5, now.at("/messages/dispatched/PACKET_IN").asLong());
        assertEquals(7, now.at("/messages/sent/FLOW_MOD").asLong(), "what the overview's FLOW_MOD rate is drawn from");
        assertEquals(3, now.at("/messages/sent/PACKET_OUT").asLong());
        assertEquals(10.0, now.at("/messages/meanLatencyMicros").asDouble(), 1e-9);
    }

    @Test
    void metricsAreInThePrometheusTextFormatWithEachFamilyInOneGroup() {
        server.switches(WebServerTest.switchesWith(2));
        server.messages(SOME_MESSAGES);
        var response = server.get(MetricsResource.PATH);
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain;version=0.0.4"),
                response.headers().toString());
        String text = response.body();
        List<String> lines = text.lines().toList();
        assertTrue(lines.contains("heliograph_openflow_messages_total{type=\"PACKET_IN\"} 5"), text);
        assertTrue(lines.contains("heliograph_switches_connected 2"), text);
        assertTrue(lines.contains("heliograph_pipeline_seconds_bucket{le=\"1.0E-5\"} 2"), text);
        assertTrue(lines.contains("heliograph_pipeline_seconds_bucket{le=\"+Inf\"} 3"), text);
        assertTrue(lines.contains("heliograph_pipeline_seconds_count 3"), text);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("jvm_memory_bytes_used{area=\"heap\"} ")), text);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("jvm_gc_collection_seconds_count{gc=")), text);

        List<String> families = new ArrayList<>();
        String current = null;
        for (String line : lines) {
            if (line.startsWith("# TYPE ")) {
                current = line.split(" ")[2];
                assertFalse(families.contains(current), current + " declared twice");
                families.add(current);
            } else if (!line.startsWith("# HELP ")) {
                assertTrue(SAMPLE.matcher(line).matches(), "a sample line: " + line);
                assertTrue(line.startsWith(current), line + " belongs to the family declared above it, " + current);
            }
        }
    }

    @Test
    void restRequestsAreTimedByMethodRouteTemplateAndStatusClass() {
        assertEquals(200, server.get(ControllerResource.PATH).statusCode());
        assertEquals(200, server.get(ControllerResource.PATH).statusCode());
        assertEquals(404, server.get("/ui/pages/no-such-page.js").statusCode());
        assertEquals(401, server.getWithout(ControllerResource.PATH).statusCode());
        server.send(server.request(ControllerResource.PATH).method("BREW", HttpRequest.BodyPublishers.noBody())
                .build());

        List<String> lines = server.get(MetricsResource.PATH).body().lines().toList();
        String family = "heliograph_rest_request_seconds";
        assertTrue(lines.contains("# TYPE " + family + " histogram"), String.join("\n", lines));
        assertTrue(lines.contains(family + "_count{method=\"GET\",route=\"/api/v1/controller\",status=\"2xx\"} 2"),
                String.join("\n", lines));
        assertTrue(lines.contains(family + "_bucket{le=\"+Inf\",method=\"GET\",route=\"/api/v1/controller\","
                + "status=\"2xx\"} 2"), String.join("\n", lines));
        assertTrue(lines.contains(family + "_count{method=\"GET\",route=\"/ui/pages/{id}.js\",status=\"4xx\"} 1"),
                "the route's template, not the path asked for: " + String.join("\n", lines));
        assertTrue(lines.contains(family + "_count{method=\"GET\",route=\"none\",status=\"4xx\"} 1"),
                "refused before Spring saw it: " + String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(family + "_count{method=\"OTHER\",")),
                "a method of the client's own making is OTHER: " + String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(l -> l.contains("no-such-page") || l.contains("BREW")));
    }

    @Test
    void metricsNeedCredentialsLikeTheRestOfTheApi() {
        assertEquals(401, server.getWithout(MetricsResource.PATH).statusCode());
        assertEquals(401, server.getWithout(ControllerResource.PATH).statusCode());
    }

    private JsonNode controller() throws IOException {
        var response = server.get(ControllerResource.PATH);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }
}
