package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.rest.BundleResource;
import io.heliograph.webui.testing.OpenApiContract;

/** The OpenAPI document describes exactly the resources mapped at the moment, from their code. */
class OpenApiDocumentTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    enum Kind { EDGE, CORE }

    record Port(int number, String name) {
    }

    record Item(@ApiDescription("what the operator calls it") String name, Kind kind, List<Port> ports,
                Map<String, Long> counters, Optional<Instant> seen, Item parent) {
    }

    @RestController
    @RequestMapping("/api/v1/test/items")
    @ApiDescription("Things to describe")
    static class ItemsResource implements RestResource {
        @GetMapping("/{id:[0-9]+}")
        @ApiDescription("One item")
        public Item get(@PathVariable long id, @RequestParam(defaultValue = "10") int limit,
                @RequestParam Optional<String> filter) {
            return null;
        }

        @GetMapping
        public List<Item> list() {
            return List.of();
        }

        @PostMapping
        @ResponseStatus(HttpStatus.CREATED)
        public ResponseEntity<Item> create(@RequestBody Item item) {
            return ResponseEntity.ok(item);
        }

        @DeleteMapping("/{id}")
        @ResponseStatus(HttpStatus.NO_CONTENT)
        public void delete(@PathVariable("id") long id) {
        }

        @PostMapping("/upload")
        public Map<String, Long> upload(@RequestParam("jar") MultipartFile jar) {
            return Map.of();
        }

        @PostMapping("/text")
        @ApiDescription("An item sent as text the handler validates itself")
        @OperationId("importItem")
        public Outcome importItem(@ApiSchema(type = Item.class) @RequestBody String item,
                @ApiSchema(values = {"edge", "core"}) @RequestParam(required = false) String as) {
            return null;
        }

        @GetMapping({"/legacy/json", "/older/json"})
        @ApiDescription("The items under their older paths")
        @OperationId(value = "legacyListItems", aliases = @OperationId.Alias(path = "/api/v1/test/items/older/json",
                id = "olderListItems"))
        public List<Item> legacy() {
            return List.of();
        }
    }

    /** What a write did; the entry is null after a delete, and the count left out when unknown. */
    record Outcome(@ApiSchema(values = {"DONE", "GONE"}, required = true) String outcome, Item stored,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer count, int version) {
    }

    @RestController
    static class CarelessResource {
        @GetMapping("/api/v1/test/careless")
        @OperationId("listItems")
        public List<Item> noSummary() {
            return List.of();
        }

        @GetMapping({"/api/v1/test/careless/a", "/api/v1/test/careless/b"})
        @ApiDescription("Two paths, one id")
        @OperationId(value = "list_items2", aliases = @OperationId.Alias(path = "/api/v1/test/elsewhere", id = "x"))
        public List<Item> twoPaths() {
            return List.of();
        }

        @DeleteMapping("/api/v1/test/careless/{id}")
        @ApiDescription("No id")
        public void noId(@PathVariable String id) {
        }

        @PutMapping(path = "/api/v1/test/careless/{id}", consumes = "application/json")
        @ApiDescription("Any JSON")
        @OperationId("replaceCarelessItem")
        public void anyJson(@PathVariable String id, @RequestBody Object body) {
        }

        @PutMapping(path = "/api/v1/test/careless/{id}/note", consumes = "text/plain")
        @ApiDescription("Text is text")
        @OperationId("setCarelessNote")
        public void text(@PathVariable String id, @RequestBody String note) {
        }
    }

    @TempDir
    Path dataDir;
    private RunningServer server;
    private final ItemsResource items = new ItemsResource();

    @BeforeEach
    void start() throws IOException {
        server = new RunningServer(dataDir);
        server.component.addResource(items);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void everyMappedEndpointIsDocumentedAndNothingElse() throws IOException {
        JsonNode paths = document().get("paths");
        List<String> mapped = new ArrayList<>();
        for (RequestMappingInfo info : server.server().mappings().getHandlerMethods().keySet()) {
            for (String pattern : info.getPatternValues()) {
                if (!OpenApiDocument.describes(pattern)) {
                    continue;   // the web UI's shell and page scripts are not API
                }
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    String path = OpenApiDocument.openApiPath(pattern);
                    String verb = method.name().toLowerCase(Locale.ROOT);
                    assertNotNull(paths.path(path).get(verb), verb + " " + path + " is documented");
                    mapped.add(verb + " " + path);
                }
            }
        }
        List<String> documented = new ArrayList<>();
        paths.fields().forEachRemaining(p -> p.getValue().fieldNames().forEachRemaining(v -> documented.add(v + " " + p.getKey())));
        assertEquals(mapped.stream().sorted().toList(), documented.stream().sorted().toList());
        for (String own : List.of("get /api/v1/health", "get /api/v1/openapi.json", "get /api/v1/controller",
                "get /metrics", "get /api/v1/limits", "post /api/v1/auth/tokens", "delete /api/v1/auth/tokens/{id}",
                "get /api/v1/test/items/{id}", "post /api/v1/test/items/upload")) {
            assertTrue(documented.contains(own), own + " in " + documented);
        }
    }

    @Test
    void parametersBodiesAndResponsesComeFromTheHandlerMethods() throws IOException {
        JsonNode doc = document();
        JsonNode get = doc.at("/paths/~1api~1v1~1test~1items~1{id}/get");
        assertEquals("One item", get.get("summary").asText());
        assertEquals("Items", get.get("tags").get(0).asText());
        JsonNode id = get.get("parameters").get(0);
        assertEquals("id", id.get("name").asText());
        assertEquals("path", id.get("in").asText());
        assertTrue(id.get("required").asBoolean());
        assertEquals("int64", id.at("/schema/format").asText());
        JsonNode limit = get.get("parameters").get(1);
        assertEquals("limit", limit.get("name").asText());
        assertFalse(limit.get("required").asBoolean(), "a default makes it optional");
        assertEquals("10", limit.at("/schema/default").asText());
        assertFalse(get.get("parameters").get(2).get("required").asBoolean(), "Optional is optional");
        assertEquals("#/components/schemas/OpenApiDocumentTest.Item",
                get.at("/responses/200/content/application~1json/schema/$ref").asText());
        assertEquals("#/components/schemas/Error", get.at("/responses/default/content/application~1json/schema/$ref").asText());

        JsonNode create = doc.at("/paths/~1api~1v1~1test~1items/post");
        assertTrue(create.at("/requestBody/required").asBoolean());
        assertEquals("#/components/schemas/OpenApiDocumentTest.Item",
                create.at("/requestBody/content/application~1json/schema/$ref").asText());
        assertTrue(create.at("/responses/201/content").isObject(), "ResponseEntity<Item> is an Item: " + create);
        JsonNode delete = doc.at("/paths/~1api~1v1~1test~1items~1{id}/delete");
        assertTrue(delete.at("/responses/204").isObject() && delete.at("/responses/204/content").isMissingNode());
        assertEquals("array", doc.at("/paths/~1api~1v1~1test~1items/get/responses/200/content/application~1json/schema/type").asText());
        assertEquals("binary", doc.at("/paths/~1api~1v1~1test~1items~1upload/post/requestBody/content/"
                + "multipart~1form-data/schema/properties/jar/format").asText());
        assertEquals(0, doc.at("/paths/~1api~1v1~1health/get/security").size(), "health is public");
        assertEquals("basic", doc.at("/components/securitySchemes/basicAuth/scheme").asText());
    }

    @Test
    void schemasFollowTheJavaTypesAsJacksonWritesThem() throws IOException {
        JsonNode item = document().at("/components/schemas/OpenApiDocumentTest.Item/properties");
        assertEquals("what the operator calls it", item.at("/name/description").asText());
        assertEquals("string", item.at("/name/type").asText());
        assertEquals("[\"EDGE\",\"CORE\",null]", item.at("/kind/enum").toString(), "a record's enum may be null");
        assertEquals("#/components/schemas/OpenApiDocumentTest.Port", item.at("/ports/items/$ref").asText());
        assertEquals("int64", item.at("/counters/additionalProperties/format").asText());
        assertEquals("date-time", item.at("/seen/format").asText());
        assertEquals("#/components/schemas/OpenApiDocumentTest.Item", item.at("/parent/allOf/0/$ref").asText(),
                "a recursive type refers to itself");
        JsonNode port = document().at("/components/schemas/OpenApiDocumentTest.Port");
        assertEquals("[\"number\"]", port.get("required").toString(), "primitives are always there");
    }

    @Test
    void aResourceThatGoesTakesItsPathsOutOfTheDocument() throws IOException {
        server.component.removeResource(items);
        JsonNode paths = document().get("paths");
        paths.fieldNames().forEachRemaining(p -> assertFalse(p.startsWith("/api/v1/test/"), p));
        assertTrue(paths.has("/api/v1/controller"));
        assertFalse(document().at("/components/schemas").has("OpenApiDocumentTest.Item"));
    }

    @Test
    void operationIdsAreDeclaredUniqueAndEachAliasHasItsOwn() throws IOException {
        JsonNode paths = document().get("paths");
        assertEquals("importItem", paths.at("/~1api~1v1~1test~1items~1text/post/operationId").asText());
        assertEquals("legacyListItems", paths.at("/~1api~1v1~1test~1items~1legacy~1json/get/operationId").asText());
        assertEquals("olderListItems", paths.at("/~1api~1v1~1test~1items~1older~1json/get/operationId").asText());
        assertEquals("itemsList", paths.at("/~1api~1v1~1test~1items/get/operationId").asText(),
                "a resource that declares none gets its tag and method name");
        assertEquals("listTokens", paths.at("/~1api~1v1~1auth~1tokens/get/operationId").asText());
        List<String> ids = new ArrayList<>();
        paths.forEach(item -> item.forEach(operation -> ids.add(operation.path("operationId").asText())));
        assertEquals(ids.size(), new java.util.HashSet<>(ids).size(), "unique: " + ids);
    }

    @Test
    void everyOperationOfTheWebBundleHasASummaryAndItsOwnDeclaredId() {
        OpenApiContract.Result result = OpenApiContract.problems("io.heliograph.webui");
        assertTrue(result.resources().size() >= 15, "the web bundle's resources: " + result.resources());
        assertEquals(List.of(), result.problems());
    }

    @Test
    void theContractNamesAMissingSummaryAMissingIdAClashAndAStrayAlias() {
        List<String> problems = OpenApiContract.problems(List.of(CarelessResource.class, ItemsResource.class));
        String all = String.join("\n", problems);
        assertTrue(all.contains("CarelessResource.noSummary has no summary"), all);
        assertTrue(all.contains("CarelessResource.noId has no @OperationId"), all);
        assertTrue(all.contains("'list_items2' is not a verb and a noun in lower camel case"), all);
        assertTrue(all.contains("operation id 'list_items2' is GET /api/v1/test/careless/a's too"), all);
        assertTrue(all.contains("alias path /api/v1/test/elsewhere is not one of its paths"), all);
        assertTrue(all.contains("ItemsResource.list has no @OperationId"), all);
        assertTrue(all.contains("CarelessResource.anyJson: its request body is read as Object with no @ApiSchema"), all);
        assertFalse(all.contains("CarelessResource.text"), all);
    }

    @Test
    void stopAndUninstallOfABundleDescribeForceAndTheListSaysWhichArePlatform() throws IOException {
        server.component.addResource(new BundleResource());
        JsonNode doc = document();
        for (String operation : List.of("/~1api~1v1~1bundles~1{id}~1stop/post", "/~1api~1v1~1bundles~1{id}/delete")) {
            JsonNode force = null;
            for (JsonNode parameter : doc.at("/paths" + operation + "/parameters")) {
                if (parameter.path("name").asText().equals("force")) {
                    force = parameter;
                }
            }
            assertNotNull(force, operation + ": " + doc.at("/paths" + operation));
            assertEquals("query", force.get("in").asText());
            assertFalse(force.get("required").asBoolean());
            assertEquals("[\"true\",\"false\"]", force.at("/schema/enum").toString());
            assertTrue(force.get("description").asText().contains("platform bundle"), force.toString());
        }
        JsonNode platform = doc.at("/components/schemas/BundleResource.BundleInfo/properties/platform");
        assertEquals("boolean", platform.path("type").asText(), doc.at("/components/schemas").toString());
        assertTrue(platform.path("description").asText().contains("bundles/"), platform.toString());
    }

    @Test
    void bodiesReadAsTextAreTypedAndFixedValuesAreEnums() throws IOException {
        JsonNode doc = document();
        JsonNode text = doc.at("/paths/~1api~1v1~1test~1items~1text/post");
        assertEquals("#/components/schemas/OpenApiDocumentTest.Item",
                text.at("/requestBody/content/application~1json/schema/$ref").asText(), text.toString());
        assertEquals("[\"edge\",\"core\"]", text.at("/parameters/0/schema/enum").toString());
        JsonNode outcome = doc.at("/components/schemas/OpenApiDocumentTest.Outcome");
        assertEquals("[\"DONE\",\"GONE\"]", outcome.at("/properties/outcome/enum").toString());
    }

    @Test
    void whatTheServerWritesAsNullIsNullableAndWhatItLeavesOutIsNot() throws IOException {
        JsonNode outcome = document().at("/components/schemas/OpenApiDocumentTest.Outcome/properties");
        assertTrue(outcome.at("/stored/nullable").asBoolean(), outcome.toString());
        assertEquals("#/components/schemas/OpenApiDocumentTest.Item", outcome.at("/stored/allOf/0/$ref").asText());
        assertFalse(outcome.at("/outcome/nullable").asBoolean(), "declared always there: " + outcome);
        assertEquals("[\"outcome\",\"version\"]", document().at("/components/schemas/OpenApiDocumentTest.Outcome/required")
                .toString());
        assertFalse(outcome.at("/count/nullable").asBoolean(), "NON_NULL leaves it out: " + outcome);
        assertFalse(outcome.at("/version/nullable").asBoolean(), "a primitive is never null: " + outcome);

        // the error body: field is left out when none is to blame, the rest always there
        JsonNode error = document().at("/components/schemas/Error");
        List<String> components = new ArrayList<>();
        for (var c : ErrorBody.class.getRecordComponents()) {
            components.add(c.getName());
        }
        List<String> properties = new ArrayList<>();
        error.get("properties").fieldNames().forEachRemaining(properties::add);
        assertEquals(components, properties);
        assertEquals("[\"status\",\"error\",\"message\"]", error.get("required").toString());
        assertFalse(new String(ErrorBody.of(404, null, "gone").toJson(), java.nio.charset.StandardCharsets.UTF_8)
                .contains("field"), "field is left out, not null");
    }

    @Test
    void everyOperationDescribesItsErrorsWithTheErrorBody() throws IOException {
        JsonNode paths = document().get("paths");
        int operations = 0;
        for (var item : (Iterable<Map.Entry<String, JsonNode>>) paths::fields) {
            for (var op : (Iterable<Map.Entry<String, JsonNode>>) item.getValue()::fields) {
                String name = op.getKey() + " " + item.getKey();
                JsonNode responses = op.getValue().get("responses");
                List<String> codes = new ArrayList<>(List.of("400", "404", "default"));
                if (!item.getKey().equals("/api/v1/health")) {
                    codes.add("401");
                }
                if (!op.getKey().equals("get")) {
                    codes.add("409");
                }
                for (String code : codes) {
                    assertEquals("#/components/schemas/Error",
                            responses.at("/" + code + "/content/application~1json/schema/$ref").asText(), name + " " + code);
                }
                assertFalse(op.getValue().path("operationId").asText().isEmpty(), name);
                operations++;
            }
        }
        assertTrue(operations > 10, "operations: " + operations);
        assertEquals("#/components/schemas/Error", paths.at("/~1api~1v1~1test~1items~1text/post/responses/413"
                + "/content/application~1json/schema/$ref").asText(), "a body may be too large");
    }

    private JsonNode document() throws IOException {
        var response = server.get(OpenApiDocument.PATH);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }
}
