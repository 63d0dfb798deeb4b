package io.heliograph.staticflows.internal.rest;

import static io.heliograph.webui.testing.Responses.answer;
import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.internal.ConnectedStaticFlows;
import io.heliograph.webui.api.ApiException;

class StaticEntriesResourceTest {

    static final String WEB = """
            {"switch": "00:00:00:00:00:00:00:01", "name": "web", "priority": 100, "eth_type": "0x0800",
             "ip_proto": "6", "tcp_dst": "80", "actions": "output=2"}""";
    static final String GROUP = """
            {"switch": "1", "name": "g1", "group_id": 1, "group_type": "all",
             "group_buckets": [{"bucket_actions": "output=3"}, {"bucket_actions": "output=4"}]}""";
    static final String METER = """
            {"switch": "1", "name": "m1", "meter_id": 1, "meter_flags": ["kbps"],
             "meter_bands": [{"type": "drop", "rate": 1000}]}""";

    private ConnectedStaticFlows flows;
    private MockMvc mvc;

    @BeforeEach
    void start() {
        flows = new ConnectedStaticFlows();
        mvc = MockMvcBuilders.standaloneSetup(new StaticEntriesResource(flows.service())).build();
    }

    static RequestBuilder json(org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder request,
            String body) {
        return request.contentType(MediaType.APPLICATION_JSON).content(body);
    }

    private List<EntryStatus> stored() {
        return flows.service().list();
    }

    /** Refused with this status and field, and neither the store nor the switch changed. */
    private ApiException refusedUnchanged(RequestBuilder request, int status, String field) throws Exception {
        List<EntryStatus> before = stored();
        String onSwitch = flows.onSwitch();
        ApiException e = refused(mvc, request, status, field);
        assertEquals(before, stored(), "a refused request changes nothing stored");
        assertEquals(onSwitch, flows.onSwitch(), "a refused request sends nothing to the switch");
        return e;
    }

    @Test
    void aCreatedFlowIsInstalledAndReadBack() throws Exception {
        JsonNode created = answer(mvc, json(post("/api/v1/staticflows/flows"), WEB), 201);
        assertEquals("INSTALLED", created.get("outcome").asText());
        assertEquals("web", created.at("/stored/name").asText());
        assertEquals("flow", created.at("/stored/kind").asText());
        assertEquals("1/0/0", flows.onSwitch());

        JsonNode one = ok(mvc, get("/api/v1/staticflows/flows/0x1/web"));
        assertEquals("00:00:00:00:00:00:00:01", one.get("dpid").asText());
        assertEquals("INSTALLED", one.get("state").asText());
        assertEquals(100, one.at("/entry/priority").asInt());
        assertEquals("0x0800", one.at("/entry/eth_type").asText());
        assertEquals("80", one.at("/entry/tcp_dst").asText());
        assertEquals("output=2", one.at("/entry/instruction_apply_actions").asText());

        assertEquals(1, ok(mvc, get("/api/v1/staticflows/flows")).size());
        assertEquals(1, ok(mvc, get("/api/v1/staticflows/flows").param("dpid", "1")).size());
        assertEquals(0, ok(mvc, get("/api/v1/staticflows/flows").param("dpid", "2")).size());
        assertEquals(0, ok(mvc, get("/api/v1/staticflows/groups")).size());
        assertEquals(1, ok(mvc, get("/api/v1/staticflows")).size());
    }

    @Test
    void anEntryForASwitchNotConnectedIsStored() throws Exception {
        JsonNode created = answer(mvc, json(post("/api/v1/staticflows/flows"),
                "{\"switch\": \"0x2\", \"name\": \"later\", \"actions\": \"output=1\"}"), 201);
        assertEquals("STORED", created.get("outcome").asText());
        assertEquals("PENDING", ok(mvc, get("/api/v1/staticflows/flows/2/later")).get("state").asText());
        assertEquals("0/0/0", flows.onSwitch());
    }

    @Test
    void withoutTheClusterStoreWritesAre503AndChangeNothing() throws Exception {
        answer(mvc, json(post("/api/v1/staticflows/flows"), WEB), 201);
        flows.store().setAvailable(false);

        ApiException create = refusedUnchanged(json(post("/api/v1/staticflows/groups"), GROUP), 503, null);
        assertTrue(create.message().contains("shared store cannot be reached") && create.message().contains("nothing was changed"),
                create.message());
        ApiException replace = refusedUnchanged(json(put("/api/v1/staticflows/flows/1/web"), WEB.replace("100", "200")),
                503, null);
        assertTrue(replace.message().contains("shared store"), replace.message());
        refusedUnchanged(delete("/api/v1/staticflows/flows/1/web"), 503, null);

        flows.store().setAvailable(true);
        assertEquals(100, ok(mvc, get("/api/v1/staticflows/flows/1/web")).at("/entry/priority").asInt());
    }

    @Test
    void missingPrerequisitesAreRefusedNamingTheFieldToAdd() throws Exception {
        ApiException e = refusedUnchanged(json(post("/api/v1/staticflows/flows"),
                "{\"switch\": \"1\", \"name\": \"f\", \"ipv4_dst\": \"10.0.0.1\", \"actions\": \"output=2\"}"), 400,
                "eth_type");
        assertTrue(e.message().contains("ipv4_dst"), e.message());
        refusedUnchanged(json(post("/api/v1/staticflows/flows"),
                "{\"switch\": \"1\", \"name\": \"f\", \"eth_type\": \"0x0800\", \"tcp_dst\": \"80\"}"), 400, "ip_proto");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"),
                "{\"switch\": \"1\", \"name\": \"f\", \"eth_vlan_pcp\": \"3\"}"), 400, "eth_vlan_vid");
    }

    @Test
    void badMembersAreRefusedNamingThem() throws Exception {
        String flow = "{\"switch\": \"1\", \"name\": \"f\", %s}";
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), flow.formatted("\"tcp_dts\": \"80\"")), 400, "tcp_dts");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), flow.formatted("\"priority\": 70000")), 400, "priority");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), flow.formatted("\"priority\": \"high\"")), 400,
                "priority");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), flow.formatted("\"table\": 9")), 400, "table");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), flow.formatted("\"eth_type\": \"ip\"")), 400,
                "eth_type");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), flow.formatted("\"actions\": \"output=9\"")), 400,
                "actions");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), flow.formatted("\"actions\": \"teleport=1\"")), 400,
                "actions");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), flow.formatted("\"cookie\": [1]")), 400, "cookie");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), "{\"switch\": \"1\", \"name\": \"no spaces\"}"), 400,
                "name");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), "{\"name\": \"f\"}"), 400, "switch");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), "{\"switch\": \"s1\", \"name\": \"f\"}"), 400,
                "switch");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), "{\"switch\": \"1\"}"), 400, "name");
        refusedUnchanged(json(post("/api/v1/staticflows/groups"), GROUP.replace("\"group_type\"", "\"grp_type\"")),
                400, "grp_type");
        refusedUnchanged(json(post("/api/v1/staticflows/groups"), GROUP.replace("bucket_actions\": \"output=4",
                "bucket_action\": \"output=4")), 400, "group_buckets[1].bucket_action");
        refusedUnchanged(json(post("/api/v1/staticflows/groups"), GROUP.replace("\"all\"", "\"some\"")), 400,
                "group_type");
        refusedUnchanged(json(post("/api/v1/staticflows/meters"), METER.replace("1000", "0")), 400, "meter_bands");
    }

    @Test
    void aBodyThatIsNotOneJsonObjectIsRefused() throws Exception {
        for (String body : List.of("", "{", "[]", "\"web\"", "42", "{\"switch\": \"1\",}", "{\"a\": 1} {}", "null")) {
            ApiException e = refusedUnchanged(json(post("/api/v1/staticflows/flows"), body), 400, null);
            assertTrue(e.message().contains("JSON") || e.message().contains("body"), e.message());
        }
    }

    @Test
    void aNameInUseIsAConflictOnCreateAndReplacedByPut() throws Exception {
        answer(mvc, json(post("/api/v1/staticflows/flows"), WEB), 201);
        refusedUnchanged(json(post("/api/v1/staticflows/flows"), WEB.replace("100", "200")), 409, "name");

        JsonNode replaced = ok(mvc, json(put("/api/v1/staticflows/flows/1/web"), WEB.replace("100", "200")));
        assertEquals("INSTALLED", replaced.get("outcome").asText());
        assertEquals(200, ok(mvc, get("/api/v1/staticflows/flows/1/web")).at("/entry/priority").asInt());
        assertEquals("1/0/0", flows.onSwitch(), "the replacement took the old flow's place");

        // a PUT body may leave out what the path says, but must not contradict it
        ok(mvc, json(put("/api/v1/staticflows/flows/00:00:00:00:00:00:00:01/web"), "{\"actions\": \"output=3\"}"));
        assertEquals("output=3", ok(mvc, get("/api/v1/staticflows/flows/1/web")).at("/entry/instruction_apply_actions")
                .asText());
        refusedUnchanged(json(put("/api/v1/staticflows/flows/1/web"), WEB.replace("\"web\"", "\"www\"")), 400, "name");
        refusedUnchanged(json(put("/api/v1/staticflows/flows/2/web"), WEB), 400, "switch");
        refusedUnchanged(json(put("/api/v1/staticflows/groups/1/web"), GROUP.replace("\"g1\"", "\"web\"")), 409, "name");
    }

    @Test
    void theKindInThePathAndTheBodyMustAgree() throws Exception {
        refusedUnchanged(json(post("/api/v1/staticflows/groups"), "{\"switch\": \"1\", \"name\": \"g\", "
                + "\"entry_type\": \"flow\"}"), 400, "entry_type");
        refusedUnchanged(json(post("/api/v1/staticflows/tables"), WEB), 404, "kind");
        answer(mvc, json(post("/api/v1/staticflows/flows"), WEB.replaceFirst("\\{", "{\"entry_type\": \"FLOW\", ")), 201);
    }

    @Test
    void groupsAndMetersAndWhatUsesThem() throws Exception {
        answer(mvc, json(post("/api/v1/staticflows/groups"), GROUP), 201);
        answer(mvc, json(post("/api/v1/staticflows/meters"), METER), 201);
        answer(mvc, json(post("/api/v1/staticflows/flows"),
                "{\"switch\": \"1\", \"name\": \"to-group\", \"actions\": \"group=1\", \"instruction_goto_meter\": 1}"),
                201);
        assertEquals("1/1/1", flows.onSwitch());
        assertEquals(1, ok(mvc, get("/api/v1/staticflows/groups")).size());
        JsonNode meter = ok(mvc, get("/api/v1/staticflows/meters/1/m1"));
        assertEquals(1000, meter.at("/entry/meter_bands/0/rate").asInt());

        refusedUnchanged(json(post("/api/v1/staticflows/groups"), GROUP.replace("\"g1\"", "\"g2\"")), 409, "group_id");
        refusedUnchanged(delete("/api/v1/staticflows/groups/1/g1"), 409, "group_id");
        refusedUnchanged(delete("/api/v1/staticflows/meters/1/m1"), 409, "meter_id");
        refusedUnchanged(json(post("/api/v1/staticflows/flows"),
                "{\"switch\": \"1\", \"name\": \"f\", \"actions\": \"group=7\"}"), 400, "actions");

        assertEquals("DELETED", ok(mvc, delete("/api/v1/staticflows/flows/1/to-group")).get("outcome").asText());
        ok(mvc, delete("/api/v1/staticflows/groups/1/g1"));
        ok(mvc, delete("/api/v1/staticflows/meters/0x1/m1"));
        assertEquals("0/0/0", flows.onSwitch());
        assertEquals(List.of(), stored());
    }

    @Test
    void deletingOrReadingWhatIsNotThereIsNotFound() throws Exception {
        answer(mvc, json(post("/api/v1/staticflows/flows"), WEB), 201);
        refusedUnchanged(delete("/api/v1/staticflows/flows/1/nothing"), 404, "name");
        refusedUnchanged(delete("/api/v1/staticflows/groups/1/web"), 404, "name");
        refused(mvc, get("/api/v1/staticflows/flows/2/web"), 404, "name");
        refused(mvc, get("/api/v1/staticflows/meters/1/web"), 404, "name");
        refused(mvc, get("/api/v1/staticflows/flows/one/web"), 400, "dpid");
        refused(mvc, get("/api/v1/staticflows").param("dpid", "one"), 400, "dpid");
    }

    /** Issue 18, D2: 10,000 levels (20 KB) used to overflow the parser's stack and answer 500. */
    @Test
    void aBodyNestedTenThousandDeepIsABadRequestNamingTheNesting() throws Exception {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        for (RequestBuilder write : List.of(json(post("/api/v1/staticflows/flows"), deep),
                json(put("/api/v1/staticflows/groups/1/g1"), deep))) {
            ApiException e = refusedUnchanged(write, 400, null);
            assertTrue(e.message().contains("nested deeper than 64 levels"), e.message());
        }
    }
}
