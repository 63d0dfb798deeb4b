package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.webui.cluster.ClusterPage;
import io.heliograph.webui.cluster.FakeCluster;
import io.heliograph.webui.cluster.FakeMasterships;
import io.heliograph.webui.cluster.ClusterResourceAccess;

/**
 * The cluster resource mapped by the real web server: its operations in the OpenAPI document with
 * summaries and the PUT body's schema, its page in the navigation, and what a client sees of refusals
 * the web bundle makes before the resource runs (JSON the body cannot be read as) and of the resource's
 * own: the JSON error body with status, field and message.
 */
class ClusterApiServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String S1 = "00:00:00:00:00:00:00:01";

    @TempDir
    Path dataDir;
    private RunningServer server;
    private final FakeCluster cluster = new FakeCluster("c1").join("c2");
    private final FakeMasterships masterships = new FakeMasterships().put(1, "c1", "c1", "c2");
    private final ClusterResourceAccess resource = new ClusterResourceAccess();

    @BeforeEach
    void start() throws IOException {
        server = new RunningServer(dataDir);
        resource.bind(cluster, masterships);
        server.component.addResource(resource.resource());
        server.component.addPage(new ClusterPage());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> put(String path, String body) {
        return server.send(server.request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static JsonNode json(HttpResponse<String> response, int status) throws IOException {
        assertEquals(status, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private static void refused(HttpResponse<String> response, int status, String field, String messagePart)
            throws IOException {
        JsonNode error = json(response, status);
        assertEquals(status, error.get("status").asInt(), response.body());
        assertEquals(field, error.path("field").isNull() || error.path("field").isMissingNode() ? null
                : error.get("field").asText(), response.body());
        assertTrue(error.get("message").asText().contains(messagePart), response.body());
    }

    @Test
    void everyClusterOperationIsDocumentedWithASummary() throws IOException {
        JsonNode document = json(server.get("/api/v1/openapi.json"), 200);
        JsonNode paths = document.get("paths");
        for (String[] operation : new String[][] {{"/api/v1/cluster", "get"}, {"/api/v1/cluster/masterships", "get"},
                {"/api/v1/cluster/masterships/{dpid}", "put"}, {"/api/v1/cluster/rebalance", "post"},
                {"/wm/core/role/json", "get"}}) {
            JsonNode documented = paths.path(operation[0]).path(operation[1]);
            assertFalse(documented.path("summary").asText().isBlank(), operation[1] + " " + operation[0] + ": " + paths);
        }
        JsonNode move = paths.at("/~1api~1v1~1cluster~1masterships~1{dpid}/put");
        assertEquals("dpid", move.at("/parameters/0/name").asText());
        JsonNode body = schema(document, move.at("/requestBody/content/application~1json/schema"));
        assertTrue(body.at("/properties/master/description").asText().contains("the instance to become the switch's"
                + " master"), body.toString());
        JsonNode answer = schema(document, move.at("/responses/200/content/application~1json/schema"));
        assertEquals(List.of("dpid", "master", "generation", "candidates"), names(answer.get("properties")));
        JsonNode cluster = schema(document, paths.at("/~1api~1v1~1cluster/get/responses/200/content/application~1json/schema"));
        assertEquals(List.of("local", "connected", "zookeeper", "instances"), names(cluster.get("properties")));
        JsonNode instance = schema(document, cluster.at("/properties/instances/items"));
        assertTrue(instance.at("/properties/masterOf/description").asText().contains("how many switches it is master of"),
                instance.toString());
    }

    /** The schema itself, where the document refers to it by $ref. */
    private static JsonNode schema(JsonNode document, JsonNode schema) {
        String ref = schema.path("$ref").asText();
        JsonNode found = ref.isEmpty() ? schema : document.at(ref.substring(1));
        assertFalse(found.isMissingNode(), ref + " is in the document");
        return found;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new java.util.ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void thePageIsInTheNavigationAndItsModulesAreServed() throws IOException {
        assertTrue(server.get(UiResource.PAGES).body().contains(
                "{\"id\":\"cluster\",\"title\":\"Cluster\",\"script\":\"/ui/pages/cluster.js\"}"));
        for (String path : List.of("/ui/pages/cluster.js", "/ui/cluster/instance-table.js",
                "/ui/cluster/mastership-table.js", "/ui/cluster/cluster.css")) {
            assertEquals(200, server.getWithout(path).statusCode(), path);
        }
    }

    @Test
    void aMoveThroughTheServerAnswersTheNewMastership() throws IOException {
        JsonNode moved = json(put("/api/v1/cluster/masterships/1", "{\"master\": \"c2\"}"), 200);
        assertEquals(S1, moved.get("dpid").asText());
        assertEquals("c2", moved.get("master").asText());
        assertEquals(List.of("move " + S1 + " to c2"), masterships.asked());
    }

    @Test
    void bodiesJsonCannotReadAreRefusedNamingTheField() throws IOException {
        refused(put("/api/v1/cluster/masterships/1", "{\"master\": 2}"), 400, "master", "string");
        refused(put("/api/v1/cluster/masterships/1", "{\"master\": \"c2\", \"force\": true}"), 400, "force",
                "unknown field 'force'");
        refused(put("/api/v1/cluster/masterships/1", "{\"master\": "), 400, null, "malformed JSON");
        refused(put("/api/v1/cluster/masterships/1", "{}"), 400, "master", "master is required");
        refused(put("/api/v1/cluster/masterships/1", ""), 400, "master", "{\"master\": \"<instance id>\"}");
        assertEquals(List.of(), masterships.asked(), "nothing was moved");
    }

    @Test
    void refusalsAreJsonWithStatusFieldAndMessage() throws IOException {
        refused(put("/api/v1/cluster/masterships/0x99", "{\"master\": \"c2\"}"), 404, "dpid",
                "no instance of the cluster is connected to switch 00:00:00:00:00:00:00:99");
        refused(put("/api/v1/cluster/masterships/1", "{\"master\": \"c3\"}"), 409, "master",
                "instance c3 is not connected to switch " + S1);
        resource.bind(null, null);
        refused(server.get("/api/v1/cluster"), 503, null, "the cluster is not running");
        refused(server.postJson("/wm/core/role/json", "{\"role\": \"MASTER\"}"), 405, null, "allowed: GET");
    }
}
