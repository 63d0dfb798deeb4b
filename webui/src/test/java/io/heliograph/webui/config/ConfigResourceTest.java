package io.heliograph.webui.config;

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

import io.heliograph.core.cluster.SharedConfigurationService;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.webui.RestJson;
import io.heliograph.webui.api.ApiException;

/**
 * The shared configuration resource against a fake service: the shapes it answers, the body it takes, and
 * every refusal with its status and field. A refused request writes nothing.
 */
class ConfigResourceTest {

    private static final String FORWARDING = "io.heliograph.forwarding";

    private final FakeSharedConfiguration service = new FakeSharedConfiguration();
    private final ConfigResource resource = new ConfigResource();
    private MockMvc mvc;

    @BeforeEach
    void start() {
        resource.shared = service;
        mvc = MockMvcBuilders.standaloneSetup(resource)
                .setMessageConverters(new MappingJackson2HttpMessageConverter(RestJson.objectMapper())).build();
    }

    private static RequestBuilder replace(String pid, String body) {
        return put("/api/v1/config/" + pid).contentType(MediaType.APPLICATION_JSON).content(body);
    }

    @Test
    void aReplacementIsWrittenAndAnsweredWithItsVersionAndWhatThePidTakes() throws Exception {
        JsonNode answer = ok(mvc, replace(FORWARDING, "{\"idleTimeout\": \"7\", \"ecmp\": \"false\"}"));
        assertEquals(List.of(FORWARDING + " {ecmp=false, idleTimeout=7}"), service.writes);
        assertEquals(FORWARDING, answer.get("pid").asText());
        assertEquals("7", answer.at("/settings/idleTimeout").asText());
        assertEquals("false", answer.at("/settings/ecmp").asText());
        assertEquals(0, answer.get("version").asLong());
        assertEquals("idleTimeout", answer.at("/known/0/id").asText());
        assertEquals("Integer", answer.at("/known/0/type").asText());
        assertEquals("5", answer.at("/known/0/defaultValue").asText());
        assertEquals("seconds without traffic", answer.at("/known/0/description").asText());

        JsonNode read = ok(mvc, get("/api/v1/config/" + FORWARDING));
        assertEquals(answer, read);
    }

    @Test
    void theListHasEveryPidAndAPidWithNothingSharedHasNoVersion() throws Exception {
        ok(mvc, replace(FORWARDING, "{\"idleTimeout\": \"7\"}"));
        JsonNode all = ok(mvc, get("/api/v1/config"));
        assertEquals(2, all.size());
        assertEquals(FORWARDING, all.at("/0/pid").asText());
        assertEquals(0, all.at("/0/version").asLong());
        assertEquals("io.heliograph.learningswitch", all.at("/1/pid").asText());
        assertTrue(all.at("/1/version").isNull(), all.toString());
        assertEquals(0, all.at("/1/settings").size());
    }

    @Test
    void deletingAnswersThePidWithNothingShared() throws Exception {
        ok(mvc, replace(FORWARDING, "{\"idleTimeout\": \"7\"}"));
        JsonNode answer = ok(mvc, delete("/api/v1/config/" + FORWARDING));
        assertEquals(0, answer.get("settings").size());
        assertTrue(answer.get("version").isNull());
        assertEquals(List.of(FORWARDING + " {idleTimeout=7}", "delete " + FORWARDING), service.writes);
    }

    @Test
    void aBodyThatIsNoObjectOfStringsIsRefusedNamingTheProblem() throws Exception {
        ApiException e = refused(mvc, replace(FORWARDING, "[\"idleTimeout\"]"), 400, null);
        assertTrue(e.message().startsWith("the body must be a JSON object of setting → value"), e.message());
        assertTrue(e.message().endsWith("it was a JSON array"), e.message());
        e = refused(mvc, put("/api/v1/config/" + FORWARDING).contentType(MediaType.APPLICATION_JSON), 400, null);
        assertTrue(e.message().startsWith("the body must be a JSON object"), e.message());
        e = refused(mvc, replace(FORWARDING, "{\"idleTimeout\": 7}"), 400, "idleTimeout");
        assertEquals("idleTimeout must be a string, as the cfg file would hold it (\"7\"); it was a JSON number",
                e.message());
        refused(mvc, replace(FORWARDING, "{\"idleTimeout\": null}"), 400, "idleTimeout");
        refused(mvc, replace(FORWARDING, "{\"idleTimeout\": {\"a\": \"1\"}}"), 400, "idleTimeout");
        assertEquals(List.of(), service.writes);
    }

    @Test
    void settingsTheServiceRefusesAre400NamingTheKeyOrThePid() throws Exception {
        ApiException e = refused(mvc, replace(FORWARDING, "{\"idleTimout\": \"7\"}"), 400, "idleTimout");
        assertEquals(FORWARDING + " has no setting 'idleTimout'", e.message());
        e = refused(mvc, replace("io.heliograph.openflow", "{\"port\": \"7\"}"), 400, "pid");
        assertEquals("io.heliograph.openflow is never shared", e.message());
        refused(mvc, get("/api/v1/config/io.heliograph.openflow"), 400, "pid");
        refused(mvc, delete("/api/v1/config/io.heliograph.openflow"), 400, "pid");
        assertEquals(List.of(), service.writes);
    }

    @Test
    void withoutTheServiceOrTheStoreTheResourceAnswers503() throws Exception {
        service.available = false;
        ApiException e = refused(mvc, replace(FORWARDING, "{\"idleTimeout\": \"7\"}"), 503, null);
        assertTrue(e.message().startsWith("the cluster's shared store cannot be reached, nothing was changed"),
                e.message());
        refused(mvc, get("/api/v1/config"), 503, null);

        resource.shared = null;
        e = refused(mvc, get("/api/v1/config/" + FORWARDING), 503, null);
        assertTrue(e.message().contains("io.heliograph.cluster bundle"), e.message());
        assertEquals(List.of(), service.writes);
    }

    @Test
    void withoutTheMetatypeServiceWritesAnswer503() throws Exception {
        service.described = false;
        ApiException e = refused(mvc, replace(FORWARDING, "{\"idleTimeout\": \"7\"}"), 503, null);
        assertTrue(e.message().startsWith("no OSGi Metatype service"), e.message());
    }

    /** Two pids, forwarding with one known setting; refuses the way the real service does. */
    private static final class FakeSharedConfiguration implements SharedConfigurationService {
        final List<String> writes = new ArrayList<>();
        final Map<String, PidSettings> shared = new TreeMap<>();
        volatile boolean available = true;
        volatile boolean described = true;

        private void check(String pid) {
            if (!available) {
                throw new StoreUnavailableException("store: no ZooKeeper session", null);
            }
            if (LOCAL_PIDS.contains(pid)) {
                throw new InvalidSettingsException(null, pid + " is never shared");
            }
        }

        private PidSettings nothing(String pid) {
            return new PidSettings(pid, Map.of(), -1, pid.equals(FORWARDING)
                    ? List.of(new Setting("idleTimeout", "Integer", "5", "seconds without traffic")) : List.of());
        }

        @Override
        public List<PidSettings> list() {
            check("");
            return List.of(get(FORWARDING), get("io.heliograph.learningswitch"));
        }

        @Override
        public PidSettings get(String pid) {
            check(pid);
            return shared.getOrDefault(pid, nothing(pid));
        }

        @Override
        public PidSettings set(String pid, Map<String, String> settings) {
            check(pid);
            if (!described) {
                throw new IllegalStateException("no OSGi Metatype service runs");
            }
            for (String key : settings.keySet()) {
                if (!key.equals("idleTimeout") && !key.equals("ecmp")) {
                    throw new InvalidSettingsException(key, pid + " has no setting '" + key + "'");
                }
            }
            writes.add(pid + " " + new TreeMap<>(settings));
            PidSettings written = new PidSettings(pid, settings, shared.containsKey(pid)
                    ? shared.get(pid).version() + 1 : 0, nothing(pid).known());
            shared.put(pid, written);
            return written;
        }

        @Override
        public boolean delete(String pid) {
            check(pid);
            writes.add("delete " + pid);
            return shared.remove(pid) != null;
        }
    }
}
