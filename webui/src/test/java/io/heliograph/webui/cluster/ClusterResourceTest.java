package io.heliograph.webui.cluster;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.webui.RestJson;
import io.heliograph.webui.api.ApiException;

/**
 * The cluster resource against fakes of the cluster services: the shapes it answers, every refusal with
 * its status and field, and the waits for moves and rebalances. A refused request must not move anything.
 */
class ClusterResourceTest {

    private static final String S1 = "00:00:00:00:00:00:00:01";
    private static final String S2A = "00:00:00:00:00:00:00:2a";
    private static final String HIGH = "80:00:00:00:00:00:00:01";

    private final FakeCluster cluster = new FakeCluster("c2").join("c3").join("c1");
    private final FakeMasterships masterships = new FakeMasterships()
            .put(0x8000000000000001L, "c3", "c3", "c1")
            .put(0x2a, "c1", "c1", "c2", "c3")
            .put(0x1, "c1", "c3", "c2", "c1")
            .put(0x7, null, "c2");
    private final ClusterResource resource = new ClusterResource();
    private MockMvc mvc;

    @BeforeEach
    void start() {
        resource.cluster = cluster;
        resource.masterships = masterships;
        resource.moveWait = Duration.ofMillis(300);
        resource.rebalanceWait = Duration.ofMillis(300);
        mvc = MockMvcBuilders.standaloneSetup(resource)
                .setMessageConverters(new MappingJackson2HttpMessageConverter(RestJson.objectMapper())).build();
    }

    private static RequestBuilder move(String dpid, String body) {
        return put("/api/v1/cluster/masterships/" + dpid).contentType(MediaType.APPLICATION_JSON).content(body);
    }

    private static RequestBuilder moveTo(String dpid, String master) {
        return move(dpid, "{\"master\": \"" + master + "\"}");
    }

    /** Refused with this status and field, having asked the election for nothing. */
    private ApiException refusedUnmoved(RequestBuilder request, int status, String field) throws Exception {
        ApiException e = refused(mvc, request, status, field);
        assertEquals(List.of(), masterships.asked(), "a refused request moves nothing");
        return e;
    }

    @Test
    void theClusterListsItsInstancesByIdWithTheLocalOneAndHowManySwitchesEachMasters() throws Exception {
        JsonNode c = ok(mvc, get("/api/v1/cluster"));
        assertEquals("c2", c.get("local").asText());
        assertTrue(c.get("connected").asBoolean());
        assertEquals(FakeCluster.ZOOKEEPER, c.get("zookeeper").asText());
        assertEquals(List.of("c1", "c2", "c3"), c.get("instances").findValuesAsText("id"));
        JsonNode c1 = c.at("/instances/0");
        assertEquals(FakeCluster.instance("c1").openflowAddress(), c1.get("openflowAddress").asText());
        assertEquals(FakeCluster.instance("c1").httpAddress(), c1.get("httpAddress").asText());
        assertEquals("0.1.0.test", c1.get("version").asText());
        assertEquals(FakeCluster.instance("c1").started().toString(), c1.get("started").asText());
        assertEquals(List.of(false, true, false), c.get("instances").findValues("local").stream()
                .map(JsonNode::asBoolean).toList());
        // c1 masters 1 and 2a, c3 masters 80:..:01, switch 7 has no master (a fail-over)
        assertEquals(List.of(2, 0, 1), c.get("instances").findValues("masterOf").stream().map(JsonNode::asInt).toList());
    }

    @Test
    void aDisconnectedInstanceSaysSoAndListsItselfEvenIfItsMembershipIsGone() throws Exception {
        cluster.connected(false).leave("c2");
        JsonNode c = ok(mvc, get("/api/v1/cluster"));
        assertEquals(false, c.get("connected").asBoolean());
        assertEquals(List.of("c1", "c2", "c3"), c.get("instances").findValuesAsText("id"));
        assertTrue(c.at("/instances/1/local").asBoolean());
    }

    @Test
    void withoutTheMastershipServiceTheInstancesAreListedWithoutCounts() throws Exception {
        resource.masterships = null;
        JsonNode c = ok(mvc, get("/api/v1/cluster"));
        assertEquals(3, c.get("instances").size());
        assertTrue(c.at("/instances/0/masterOf").isNull(), c.toString());
    }

    @Test
    void mastershipsAreSortedByUnsignedDatapathIdWithSortedCandidates() throws Exception {
        JsonNode m = ok(mvc, get("/api/v1/cluster/masterships"));
        assertEquals(List.of(S1, "00:00:00:00:00:00:00:07", S2A, HIGH), m.findValuesAsText("dpid"));
        assertEquals("c1", m.at("/0/master").asText());
        assertEquals(List.of("c1", "c2", "c3"), texts(m.at("/0/candidates")));
        assertEquals(masterships.getMastership(org.projectfloodlight.openflow.types.DatapathId.of(1)).orElseThrow()
                .generation(), m.at("/0/generation").asLong());
        assertTrue(m.at("/1/master").isNull(), "a switch in fail-over has no master: " + m);
        assertEquals(List.of("c1", "c3"), texts(m.at("/3/candidates")));
    }

    @ParameterizedTest
    @ValueSource(strings = {S2A, "0x2a", "42"})
    void aMoveAnswersTheNewMastershipOnceDone(String dpid) throws Exception {
        long before = ok(mvc, get("/api/v1/cluster/masterships")).at("/2/generation").asLong();
        JsonNode moved = ok(mvc, moveTo(dpid, "c3"));
        assertEquals(S2A, moved.get("dpid").asText());
        assertEquals("c3", moved.get("master").asText());
        assertTrue(moved.get("generation").asLong() > before, "a new master has a larger generation: " + moved);
        assertEquals(List.of("c1", "c2", "c3"), texts(moved.get("candidates")));
        assertEquals(List.of("move " + S2A + " to c3"), masterships.asked());
        assertEquals("c3", ok(mvc, get("/api/v1/cluster/masterships")).at("/2/master").asText());
        assertEquals(List.of(1, 0, 2), ok(mvc, get("/api/v1/cluster")).get("instances").findValues("masterOf").stream()
                .map(JsonNode::asInt).toList());
    }

    @Test
    void aBadDatapathIdIsRefusedNamingIt() throws Exception {
        ApiException e = refusedUnmoved(moveTo("s1", "c3"), 400, "dpid");
        assertTrue(e.message().contains("s1"), e.message());
    }

    @Test
    void aBodyWithoutAMasterIsRefusedNamingTheField() throws Exception {
        refusedUnmoved(move(S1, "{}"), 400, "master");
        refusedUnmoved(move(S1, "{\"master\": \"  \"}"), 400, "master");
        refusedUnmoved(move(S1, "{\"master\": null}"), 400, "master");
        ApiException empty = refusedUnmoved(put("/api/v1/cluster/masterships/" + S1)
                .contentType(MediaType.APPLICATION_JSON), 400, "master");
        assertTrue(empty.message().contains("{\"master\": \"<instance id>\"}"), empty.message());
    }

    @Test
    void bodiesJsonCannotReadAreBadRequests() throws Exception {
        // Jackson refuses these before the resource runs; the web bundle names the field (ClusterApiServerTest)
        for (String body : new String[] {"{\"master\": 3}", "{\"master\": \"c3\", \"force\": true}", "[\"c3\"]",
                "{\"master\": "}) {
            assertEquals(400, mvc.perform(move(S1, body)).andReturn().getResponse().getStatus(), body);
        }
        assertEquals(List.of(), masterships.asked());
    }

    @Test
    void aSwitchNoInstanceIsConnectedToIsNotFound() throws Exception {
        ApiException e = refusedUnmoved(moveTo("0x99", "c1"), 404, "dpid");
        assertTrue(e.message().contains("00:00:00:00:00:00:00:99"), e.message());
    }

    @Test
    void anInstanceNotConnectedToTheSwitchIsAConflictWithTheElectionsReason() throws Exception {
        ApiException e = refused(mvc, moveTo(HIGH, "c2"), 409, "master");
        assertEquals("instance c2 is not connected to switch " + HIGH + "; its candidates are [c1, c3]", e.message());
        refused(mvc, moveTo(HIGH, "c9"), 409, "master");
        assertEquals("c3", ok(mvc, get("/api/v1/cluster/masterships")).at("/3/master").asText(), "nothing moved");
    }

    @Test
    void aSwitchThatLeavesDuringTheMoveIsNotFound() throws Exception {
        masterships.answerMovesWith(() -> {
            masterships.remove(1);
            return CompletableFuture.failedFuture(new IllegalArgumentException("no instance is connected to it"));
        });
        refused(mvc, moveTo(S1, "c2"), 404, "dpid");
    }

    @Test
    void aMoveThatDoesNotCompleteInTimeIsAGatewayTimeout() throws Exception {
        masterships.answerMovesWith(CompletableFuture::new);
        ApiException e = refused(mvc, moveTo(S1, "c2"), 504, null);
        assertTrue(e.message().contains("300 ms") && e.message().contains("/api/v1/cluster/masterships"), e.message());
        masterships.answerMovesWith(() -> CompletableFuture.failedFuture(new TimeoutException("no role reply from "
                + S1)));
        e = refused(mvc, moveTo(S1, "c2"), 504, null);
        assertTrue(e.message().contains("no role reply from " + S1), e.message());
    }

    @Test
    void aMoveThatFailsOtherwiseIsABadGatewayWithTheReason() throws Exception {
        masterships.answerMovesWith(() -> CompletableFuture.failedFuture(
                new IllegalStateException("switch " + S1 + " refused the role request: STALE")));
        ApiException e = refused(mvc, moveTo(S1, "c2"), 502, null);
        assertTrue(e.message().contains("refused the role request: STALE"), e.message());
    }

    @Test
    void withoutAZooKeeperSessionNothingMovesAndTheRefusalSaysWhy() throws Exception {
        cluster.connected(false);
        ApiException e = refusedUnmoved(moveTo(S1, "c2"), 503, null);
        assertTrue(e.message().contains("no ZooKeeper session") && e.message().contains(FakeCluster.ZOOKEEPER),
                e.message());
        refusedUnmoved(post("/api/v1/cluster/rebalance"), 503, null);
    }

    @Test
    void aRebalanceAnswersEverySwitchsMastershipOnceDone() throws Exception {
        JsonNode m = ok(mvc, post("/api/v1/cluster/rebalance"));
        assertEquals(List.of("rebalance"), masterships.asked());
        assertEquals(List.of(S1, "00:00:00:00:00:00:00:07", S2A, HIGH), m.findValuesAsText("dpid"));
        // the fake's spread: each switch to its sorted candidates in turn
        assertEquals(List.of("c1", "c2", "c3", "c3"), m.findValuesAsText("master"));
        assertEquals(m, ok(mvc, get("/api/v1/cluster/masterships")));
    }

    @Test
    void aRebalanceThatHangsOrFailsSaysSo() throws Exception {
        masterships.answerRebalancesWith(CompletableFuture::new);
        refused(mvc, post("/api/v1/cluster/rebalance"), 504, null);
        masterships.answerRebalancesWith(() -> CompletableFuture.failedFuture(new IllegalStateException("lost")));
        assertTrue(refused(mvc, post("/api/v1/cluster/rebalance"), 502, null).message().contains("lost"));
    }

    @Test
    void withoutTheClusterServicesEveryOperationIsUnavailableNamingWhatIsMissing() throws Exception {
        resource.cluster = null;
        resource.masterships = null;
        for (RequestBuilder request : new RequestBuilder[] {get("/api/v1/cluster"), get("/wm/core/role/json")}) {
            ApiException e = refused(mvc, request, 503, null);
            assertTrue(e.message().contains("ClusterService") && !e.message().contains("MastershipService"), e.message());
        }
        ApiException e = refused(mvc, get("/api/v1/cluster/masterships"), 503, null);
        assertTrue(e.message().contains("MastershipService") && !e.message().contains("ClusterService"), e.message());
        for (RequestBuilder request : new RequestBuilder[] {moveTo(S1, "c2"), post("/api/v1/cluster/rebalance")}) {
            e = refused(mvc, request, 503, null);
            assertTrue(e.message().contains("ClusterService") && e.message().contains("MastershipService"),
                    e.message());
        }
        resource.masterships = masterships;
        e = refusedUnmoved(moveTo(S1, "c2"), 503, null);
        assertTrue(e.message().contains("ClusterService") && !e.message().contains("MastershipService"), e.message());
        resource.cluster = cluster;
        resource.masterships = null;
        e = refused(mvc, post("/api/v1/cluster/rebalance"), 503, null);
        assertTrue(e.message().contains("MastershipService") && !e.message().contains("ClusterService"), e.message());
    }

    @Test
    void floodlightsRoleIsActiveWhileConnectedAndStandbyWithout() throws Exception {
        masterships.put(0x2b, "c2", "c2", "c1");
        JsonNode role = ok(mvc, get("/wm/core/role/json"));
        assertEquals("ACTIVE", role.get("role").asText());
        assertEquals("c2", role.get("instance").asText());
        assertEquals(1, role.get("masterOf").asInt());
        assertEquals(5, role.get("switches").asInt());
        cluster.connected(false);
        assertEquals("STANDBY", ok(mvc, get("/wm/core/role/json")).get("role").asText());
    }

    @Test
    void floodlightsRoleCannotBeSet() throws Exception {
        assertEquals(405, mvc.perform(post("/wm/core/role/json").contentType(MediaType.APPLICATION_JSON)
                .content("{\"role\": \"MASTER\"}")).andReturn().getResponse().getStatus());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new java.util.ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
