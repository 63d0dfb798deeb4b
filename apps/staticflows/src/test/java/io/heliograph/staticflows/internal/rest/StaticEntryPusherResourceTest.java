package io.heliograph.staticflows.internal.rest;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static io.heliograph.staticflows.internal.rest.StaticEntriesResourceTest.GROUP;
import static io.heliograph.staticflows.internal.rest.StaticEntriesResourceTest.WEB;
import static io.heliograph.staticflows.internal.rest.StaticEntriesResourceTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.staticflows.internal.ConnectedStaticFlows;

class StaticEntryPusherResourceTest {

    private static final List<String> BASES = List.of("/wm/staticentrypusher", "/wm/staticflowpusher",
            "/wm/staticflowentrypusher");

    private ConnectedStaticFlows flows;
    private MockMvc mvc;

    @BeforeEach
    void start() {
        flows = new ConnectedStaticFlows();
        mvc = MockMvcBuilders.standaloneSetup(new StaticEntryPusherResource(flows.service())).build();
    }

    @Test
    void pushListAndDeleteUnderEachOfFloodlightsPaths() throws Exception {
        for (String base : BASES) {
            assertEquals("Entry pushed", ok(mvc, json(post(base + "/json"), WEB)).get("status").asText(), base);
            assertEquals("1/0/0", flows.onSwitch(), base);
            JsonNode listing = ok(mvc, get(base + "/list/00:00:00:00:00:00:00:01/json"));
            assertEquals(List.of("00:00:00:00:00:00:00:01"), fieldNames(listing));
            JsonNode web = listing.at("/00:00:00:00:00:00:00:01/0/web");
            assertEquals("ADD", web.get("command").asText());
            assertEquals("100", web.get("priority").asText(), "numbers as strings, as Floodlight writes them");
            assertEquals("0", web.get("idleTimeoutSec").asText());
            assertEquals("0x0", web.get("tableId").asText());
            assertEquals("0x0800", web.at("/match/eth_type").asText());
            assertEquals("80", web.at("/match/tcp_dst").asText());
            assertEquals("output=2", web.at("/instructions/instruction_apply_actions/actions").asText());
            assertEquals("Entry web deleted", ok(mvc, json(delete(base + "/json"), "{\"name\": \"web\"}"))
                    .get("status").asText());
            assertEquals("0/0/0", flows.onSwitch(), base);
        }
    }

    @Test
    void aBodySentAsCurlDashDSendsItWithTheFormContentTypeIsRead() throws Exception {
        // curl -X POST -d '{...}' URL, as Floodlight's documentation shows it: form-encoded; the
        // servlet splits it at the actions' "=", and Spring joins it again, URL-encoded
        assertEquals("Entry pushed", ok(mvc, post("/wm/staticentrypusher/json")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED).content(WEB)).get("status").asText());
        JsonNode web = ok(mvc, get("/wm/staticentrypusher/list/1/json")).at("/00:00:00:00:00:00:00:01/0/web");
        assertEquals("output=2", web.at("/instructions/instruction_apply_actions/actions").asText());
        assertEquals("80", web.at("/match/tcp_dst").asText());
        assertEquals("1/0/0", flows.onSwitch());
        ok(mvc, delete("/wm/staticentrypusher/json").contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .content("{\"name\": \"web\"}"));
        assertEquals("0/0/0", flows.onSwitch());
    }

    @Test
    void aPushWithTheSameNameReplacesAsFloodlightDoes() throws Exception {
        ok(mvc, json(post("/wm/staticentrypusher/json"), WEB));
        ok(mvc, json(post("/wm/staticentrypusher/json"), WEB.replace("output=2", "output=3")));
        JsonNode listing = ok(mvc, get("/wm/staticentrypusher/list/all/json"));
        assertEquals(1, listing.at("/00:00:00:00:00:00:00:01").size());
        assertEquals("output=3", listing.at("/00:00:00:00:00:00:00:01/0/web/instructions/instruction_apply_actions/actions")
                .asText());
    }

    @Test
    void refusalsNameTheFieldInsteadOfAWarningWithStatus200() throws Exception {
        refused(mvc, json(post("/wm/staticentrypusher/json"),
                "{\"switch\": \"1\", \"name\": \"f\", \"ipv4_src\": \"10.0.0.1\"}"), 400, "eth_type");
        refused(mvc, json(post("/wm/staticflowpusher/json"), "{\"name\": \"f\"}"), 400, "switch");
        refused(mvc, json(delete("/wm/staticentrypusher/json"), "{\"name\": \"nothing\"}"), 404, "name");
        refused(mvc, json(delete("/wm/staticentrypusher/json"), "{}"), 400, "name");
        refused(mvc, get("/wm/staticentrypusher/list/sw1/json"), 400, "dpid");
        assertEquals("0/0/0", flows.onSwitch());
    }

    @Test
    void listingAnEmptySwitchOrEverySwitch() throws Exception {
        assertEquals(0, ok(mvc, get("/wm/staticentrypusher/list/1/json")).at("/00:00:00:00:00:00:00:01").size());
        assertEquals(0, ok(mvc, get("/wm/staticentrypusher/list/all/json")).size());
        ok(mvc, json(post("/wm/staticentrypusher/json"), "{\"switch\": \"2\", \"name\": \"f\", \"actions\": \"output=1\"}"));
        ok(mvc, json(post("/wm/staticentrypusher/json"), WEB));
        assertEquals(List.of("00:00:00:00:00:00:00:01", "00:00:00:00:00:00:00:02"),
                fieldNames(ok(mvc, get("/wm/staticentrypusher/list/all/json"))));
    }

    @Test
    void clearRemovesFlowsBeforeTheGroupsTheyUse() throws Exception {
        // Floodlight's documents say what they are; a flow is the default
        ok(mvc, json(post("/wm/staticentrypusher/json"), GROUP.replaceFirst("\\{", "{\"entry_type\": \"group\", ")));
        ok(mvc, json(post("/wm/staticentrypusher/json"), "{\"switch\": \"1\", \"name\": \"g2\", \"entry_type\": "
                + "\"group\", \"group_id\": 2, \"group_type\": \"indirect\", \"group_buckets\": [{\"bucket_actions\": "
                + "\"group=1\"}]}"));
        ok(mvc, json(post("/wm/staticentrypusher/json"), "{\"switch\": \"1\", \"name\": \"f\", \"actions\": \"group=2\"}"));
        ok(mvc, json(post("/wm/staticentrypusher/json"), "{\"switch\": \"2\", \"name\": \"other\"}"));
        assertEquals("1/2/0", flows.onSwitch());
        assertEquals("Deleted all entries for switch 00:00:00:00:00:00:00:01.",
                ok(mvc, get("/wm/staticflowentrypusher/clear/0x1/json")).get("status").asText());
        assertEquals("0/0/0", flows.onSwitch());
        assertEquals(1, flows.service().list().size(), "switch 2 keeps its entry");
        ok(mvc, get("/wm/staticentrypusher/clear/all/json"));
        assertEquals(List.of(), flows.service().list());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Issue 18, D2: 10,000 levels (20 KB) used to overflow the parser's stack and answer 500. */
    @Test
    void aBodyNestedTenThousandDeepIsABadRequestNamingTheNesting() throws Exception {
        String deep = "{\"name\":".repeat(10_000) + "1" + "}".repeat(10_000);
        for (String base : BASES) {
            for (var write : List.of(post(base + "/json"), delete(base + "/json"))) {
                var e = refused(mvc, json(write, deep), 400, null);
                assertTrue(e.message().contains("nested deeper than 64 levels"), e.message());
            }
        }
        assertEquals("0/0/0", flows.onSwitch());
    }
}
