package io.heliograph.webui.logging;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.core.LogLevels;
import io.heliograph.webui.RestJson;
import io.heliograph.webui.api.ApiException;

/**
 * The logging resource against a fake level service: the shapes it answers, and every refusal with its
 * status and field. A refused request changes no level.
 */
class LoggingResourceTest {

    private final FakeLevels service = new FakeLevels();
    private final LoggingResource resource = new LoggingResource();
    private MockMvc mvc;

    @BeforeEach
    void start() {
        resource.levels = service;
        mvc = MockMvcBuilders.standaloneSetup(resource)
                .setMessageConverters(new MappingJackson2HttpMessageConverter(RestJson.objectMapper())).build();
    }

    private static RequestBuilder set(String logger, String body) {
        return put("/api/v1/logging/" + logger).contentType(MediaType.APPLICATION_JSON).content(body);
    }

    @Test
    void aLevelIsSetAndAnsweredAndListed() throws Exception {
        JsonNode answer = ok(mvc, set("io.heliograph.topology", "{\"level\": \"DEBUG\"}"));
        assertEquals(List.of("io.heliograph.topology debug"), service.writes);
        assertEquals("io.heliograph.topology", answer.get("logger").asText());
        assertEquals("debug", answer.get("level").asText());
        assertEquals("debug", answer.get("configured").asText());

        JsonNode inherited = ok(mvc, get("/api/v1/logging/io.heliograph.topology.internal.LinkDiscovery"));
        assertEquals("debug", inherited.get("level").asText());
        assertTrue(inherited.get("configured").isNull(), inherited.toString());

        JsonNode all = ok(mvc, get("/api/v1/logging"));
        assertEquals("ROOT", all.at("/0/logger").asText());
        assertEquals("info", all.at("/0/level").asText());
        assertEquals("io.heliograph.topology", all.at("/1/logger").asText());
    }

    @Test
    void aBadLevelIs400NamingTheField() throws Exception {
        ApiException e = refused(mvc, set("io.heliograph", "{\"level\": \"verbose\"}"), 400, "level");
        assertEquals("level must be one of trace, debug, info, warn, error, off; got 'verbose'", e.message());
        e = refused(mvc, set("io.heliograph", "{\"level\": 10}"), 400, "level");
        assertTrue(e.message().startsWith("level must be a string"), e.message());
        e = refused(mvc, set("io.heliograph", "{}"), 400, "level");
        assertTrue(e.message().endsWith("it is missing"), e.message());
        e = refused(mvc, set("io.heliograph", "\"debug\""), 400, "level");
        assertTrue(e.message().startsWith("the body must be a JSON object"), e.message());
        refused(mvc, set("io.heliograph", "[\"debug\"]"), 400, "level");
        refused(mvc, put("/api/v1/logging/io.heliograph").contentType(MediaType.APPLICATION_JSON), 400, "level");
        e = refused(mvc, set("io.heliograph", "{\"level\": \"debug\", \"lvl\": \"x\"}"), 400, "lvl");
        assertTrue(e.message().startsWith("unknown member 'lvl'"), e.message());
        assertEquals(List.of(), service.writes);
    }

    @Test
    void aDeleteTakesTheLevelBack() throws Exception {
        ok(mvc, set("io.heliograph.topology", "{\"level\": \"debug\"}"));
        JsonNode answer = ok(mvc, delete("/api/v1/logging/io.heliograph.topology"));
        assertEquals(List.of("io.heliograph.topology debug", "io.heliograph.topology reset"), service.writes);
        assertEquals("info", answer.get("level").asText());
        assertTrue(answer.get("configured").isNull(), answer.toString());
        refused(mvc, delete("/api/v1/logging/a%20b"), 400, "logger");
        assertEquals(2, service.writes.size());
    }

    @Test
    void aBadLoggerNameIs400NamingTheField() throws Exception {
        ApiException e = refused(mvc, set("io.helio graph", "{\"level\": \"debug\"}"), 400, "logger");
        assertTrue(e.message().startsWith("logger must be a class or package name"), e.message());
        refused(mvc, get("/api/v1/logging/a%2Cb"), 400, "logger");
        assertEquals(List.of(), service.writes);
    }

    @Test
    void withoutTheServiceTheResourceAnswers503() throws Exception {
        resource.levels = null;
        refused(mvc, get("/api/v1/logging"), 503, null);
        refused(mvc, set("io.heliograph", "{\"level\": \"debug\"}"), 503, null);
    }

    /** Levels by name; a name without one has its nearest parent's, the root's is info. */
    private static final class FakeLevels implements LogLevels {
        final Map<String, String> configured = new TreeMap<>(Map.of(ROOT, "info"));
        final List<String> writes = new ArrayList<>();

        @Override
        public List<LoggerLevel> loggers() {
            return configured.keySet().stream().map(this::get).toList();
        }

        @Override
        public LoggerLevel get(String logger) {
            for (String name = logger; ; name = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : ROOT) {
                if (configured.containsKey(name)) {
                    return new LoggerLevel(logger, configured.get(name), name.equals(logger) ? configured.get(name)
                            : null);
                }
            }
        }

        @Override
        public LoggerLevel set(String logger, String level) {
            String parsed = LogLevels.level(level);
            configured.put(LogLevels.logger(logger), parsed);
            writes.add(logger + " " + parsed);
            return get(logger);
        }

        @Override
        public LoggerLevel reset(String logger) {
            if (!logger.equals(ROOT)) {
                configured.remove(LogLevels.logger(logger));
            }
            writes.add(logger + " reset");
            return get(logger);
        }
    }
}
