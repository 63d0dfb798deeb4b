package io.heliograph.webui.rest;

import static io.heliograph.webui.rest.RestFixture.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.projectfloodlight.openflow.protocol.OFType;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import io.heliograph.webui.rest.RestFixture.Answer;

class PipelineResourceTest {

    private final FakePipelines pipelines = new FakePipelines()
            .register(OFType.PACKET_IN, "learningswitch", "topology", "devices")
            .register(OFType.PORT_STATUS, "topology");
    private final PipelineResource resource = new PipelineResource();
    private MockMvc mvc;

    @BeforeEach
    void start() {
        resource.pipelines = pipelines;
        mvc = RestFixture.mvc(resource);
    }

    private Answer reorder(String type, String body) throws Exception {
        return call(mvc, put("/api/v1/pipelines/" + type).contentType(MediaType.APPLICATION_JSON).content(body));
    }

    @Test
    void listsEveryPipelineWithListenersInOrder() throws Exception {
        pipelines.setOrder(OFType.FLOW_REMOVED, List.of("staticflows"));
        Answer a = call(mvc, get("/api/v1/pipelines")).expect(200);
        assertEquals(3, a.size(""), a.body());
        assertEquals("PACKET_IN", a.text("/0/type"));
        assertEquals(List.of("learningswitch", "topology", "devices"), texts(a, "/0/listeners"));
        assertEquals("FLOW_REMOVED", a.text("/1/type"), "a configured order without listeners is shown too");
        assertEquals(List.of("staticflows"), texts(a, "/1/order"));
        assertEquals(List.of(), texts(a, "/1/listeners"));
        assertEquals("PORT_STATUS", a.text("/2/type"));
    }

    @Test
    void reorderingChangesTheOrderAtOnce() throws Exception {
        Answer a = reorder("PACKET_IN", "[\"topology\",\"devices\",\"learningswitch\"]").expect(200);
        assertEquals(List.of("topology", "devices", "learningswitch"), texts(a, "/listeners"));
        assertEquals(List.of("topology", "devices", "learningswitch"), pipelines.getOrder(OFType.PACKET_IN));
        Answer again = call(mvc, get("/api/v1/pipelines/packet_in")).expect(200);
        assertEquals(List.of("topology", "devices", "learningswitch"), texts(again, "/listeners"));
    }

    @Test
    void aPartialOrderPutsTheOthersLast() throws Exception {
        Answer a = reorder("packet_in", "[\"devices\"]").expect(200);
        assertEquals(List.of("devices", "learningswitch", "topology"), texts(a, "/listeners"));
    }

    @Test
    void aStoppedAppKeepsItsPlaceInTheConfiguredOrder() throws Exception {
        pipelines.setOrder(OFType.PACKET_IN, List.of("topology", "forwarding", "devices"));
        Answer a = reorder("PACKET_IN", "[\"devices\",\"topology\"]").expect(200);
        assertEquals(List.of("devices", "topology", "forwarding"), texts(a, "/order"),
                "forwarding is not running: it stays in the order");
        assertEquals(List.of("devices", "topology", "learningswitch"), texts(a, "/listeners"));
        reorder("PACKET_IN", "[\"forwarding\",\"topology\",\"devices\"]").expect(200);
        assertEquals(List.of("forwarding", "topology", "devices"), pipelines.getOrder(OFType.PACKET_IN));
    }

    @Test
    void aRunningListenerLeftOutIsDroppedFromTheOrder() throws Exception {
        pipelines.setOrder(OFType.PACKET_IN, List.of("topology", "devices"));
        Answer a = reorder("PACKET_IN", "[\"devices\"]").expect(200);
        assertEquals(List.of("devices"), texts(a, "/order"));
        assertEquals(List.of("devices", "learningswitch", "topology"), texts(a, "/listeners"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "PACKET_OUT_OF_NOWHERE|[]|type|is not an OpenFlow message type",
        "PACKET_IN|{\"names\":[]}|names|must be a JSON array of listener names, not object",
        "PACKET_IN|\"topology\"|names|not string",
        "PACKET_IN|[\"topology\",1]|names[1]|must be a string, not number",
        "PACKET_IN|[null]|names[0]|must be a string, not null",
        "PACKET_IN|[[\"topology\"]]|names[0]|must be a string, not array",
        "PACKET_IN|[\"topology\",\"topology\"]|names[1]|is named twice",
        "PACKET_IN|[\"topology\",\"learningswtich\"]|names[1]|'learningswtich' is not a listener of the PACKET_IN pipeline",
        "PACKET_IN|[\"\"]|names[0]|is not a listener name",
        "PACKET_IN|[\"top ology\"]|names[0]|is not a listener name",
        "PORT_STATUS|[\"devices\"]|names[0]|is not a listener of the PORT_STATUS pipeline (listeners: topology)",
    })
    void badRequestsAre400NamingTheFieldAndChangeNothing(String type, String body, String field, String message)
            throws Exception {
        Map<OFType, List<String>> before = pipelines.getPipelines();
        reorder(type, body).refused(400, field, message);
        assertEquals(0, pipelines.setOrderCalls, "a refused request changed the order");
        assertEquals(before, pipelines.getPipelines());
    }

    @Test
    void malformedJsonIsABadRequestThatChangesNothing() throws Exception {
        for (String body : List.of("[\"topology\"", "{", "[topology]", "nul")) {
            assertEquals(400, reorder("PACKET_IN", body).status(), body);
        }
        assertEquals(0, pipelines.setOrderCalls);
    }

    @Test
    void anEmptyBodyIs400() throws Exception {
        reorder("PACKET_IN", "").refused(400, "names", "must be a JSON array");
        call(mvc, get("/api/v1/pipelines/NOT_A_TYPE")).refused(400, "type", "is not an OpenFlow message type");
        assertEquals(0, pipelines.setOrderCalls);
    }

    @Test
    void randomAndMutatedBodiesNeverFailAnyOtherWay() throws Exception {
        Random random = new Random(5);
        String valid = "[\"topology\",\"devices\",\"learningswitch\"]";
        for (int i = 0; i < 500; i++) {
            String body = i % 2 == 0 ? mutate(valid, random) : randomText(random);
            int callsBefore = pipelines.setOrderCalls;
            List<String> orderBefore = pipelines.getOrder(OFType.PACKET_IN);
            Answer a = reorder("PACKET_IN", body);
            assertTrue(a.status() == 200 || a.status() == 400, "status " + a.status() + " for " + body);
            if (a.status() == 400) {
                assertEquals(callsBefore, pipelines.setOrderCalls, "refused body changed the order: " + body);
                assertEquals(orderBefore, pipelines.getOrder(OFType.PACKET_IN));
                assertTrue(a.body().isEmpty() || a.json().path("field").asText().startsWith("names"), a.body());
            }
        }
    }

    @Test
    void withoutThePipelinesItIs503() throws Exception {
        resource.pipelines = null;
        call(mvc, get("/api/v1/pipelines")).refused(503, null, "not running");
        reorder("PACKET_IN", "[]").refused(503, null, "not running");
    }

    static String mutate(String s, Random random) {
        StringBuilder b = new StringBuilder(s);
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits && b.length() > 0; e++) {
            int at = random.nextInt(b.length());
            switch (random.nextInt(3)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, (char) (32 + random.nextInt(95)));
                default -> b.setCharAt(at, (char) random.nextInt(0x3000));
            }
        }
        return b.toString();
    }

    static String randomText(Random random) {
        String alphabet = "[]{}\",:0123456789abc \\nul-";
        char[] c = new char[random.nextInt(40)];
        for (int i = 0; i < c.length; i++) {
            c[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(c);
    }

    private static List<String> texts(Answer a, String pointer) {
        List<String> texts = new java.util.ArrayList<>();
        a.at(pointer).forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
