package io.heliograph.vdn.internal.rest;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import io.heliograph.vdn.internal.Vdn;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The REST mapping: paths, the agent key header and bodies reach the app as the controller's plain JSON
 * (whole numbers as longs), answers come back as JSON, and a body that is not JSON is refused before the
 * app sees it.
 */
class VdnResourceTest {

    private final AtomicReference<Object> received = new AtomicReference<>();
    private final AtomicReference<String> key = new AtomicReference<>();
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new VdnResource(new Recording())).build();

    private static MockHttpServletRequestBuilder json(MockHttpServletRequestBuilder b, String body) {
        return b.contentType(MediaType.APPLICATION_JSON).content(body);
    }

    @Test
    void bodiesAndTheAgentKeyReachTheAppAsPlainJson() throws Exception {
        JsonNode answer = ok(mvc, json(post("/api/v1/vdn/clusters/E1/report"), "{\"cluster\": \"E1\", \"links\": {\"R1->E1\": 9000}}")
                .header(Vdn.AGENT_KEY_HEADER, "k1"));
        assertEquals("E1", answer.get("cluster").asText());
        assertEquals("k1", key.get());
        assertEquals(Map.of("cluster", "E1", "links", Map.of("R1->E1", 9000L)), received.get());

        ok(mvc, json(put("/api/v1/vdn/knobs"), "{\"costWeight\": 2}"));
        assertEquals(Map.of("costWeight", 2L), received.get());
        assertEquals("news", ok(mvc, get("/api/v1/vdn/trees/news")).get("video").asText());
        assertEquals(2, ok(mvc, get("/api/v1/vdn/clusters")).size());
    }

    @Test
    void aBodyThatIsNotJsonIsRefusedBeforeTheAppSeesIt() throws Exception {
        refusal(mvc, json(put("/api/v1/vdn/topology"), "{\"nodes\": ["), 400, null);
        refusal(mvc, json(put("/api/v1/vdn/knobs"), ""), 400, null);
        assertEquals(null, received.get());
    }

    /** Records what reaches the app. */
    private final class Recording implements Vdn {
        @Override
        public Map<String, Object> topology() {
            return Map.of();
        }

        @Override
        public Map<String, Object> putTopology(Object body) {
            received.set(body);
            return Map.of();
        }

        @Override
        public Map<String, Object> knobs() {
            return Map.of();
        }

        @Override
        public Map<String, Object> putKnobs(Object body) {
            received.set(body);
            return Map.of();
        }

        @Override
        public Map<String, String> agentKeys() {
            return Map.of();
        }

        @Override
        public List<Map<String, Object>> clusters() {
            return List.of(Map.of("id", "E1"), Map.of("id", "R1"));
        }

        @Override
        public Map<String, Object> report(String cluster, String agentKey, Object body) {
            received.set(body);
            key.set(agentKey);
            return Map.of("cluster", cluster);
        }

        @Override
        public Map<String, Object> rib(String cluster) {
            return Map.of();
        }

        @Override
        public Map<String, Object> fib(String cluster) {
            return Map.of();
        }

        @Override
        public Map<String, Object> putFib(String cluster, String agentKey, Object body) {
            received.set(body);
            return Map.of();
        }

        @Override
        public Map<String, Object> serving() {
            return Map.of();
        }

        @Override
        public Map<String, Object> trees(String video) {
            return Map.of("video", video);
        }

        @Override
        public Map<String, Object> decision() {
            return Map.of();
        }
    }
}
