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
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.RestResource;

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
        assertEquals("[\"EDGE\",\"CORE\"]", item.at("/kind/enum").toString());
        assertEquals("#/components/schemas/OpenApiDocumentTest.Port", item.at("/ports/items/$ref").asText());
        assertEquals("int64", item.at("/counters/additionalProperties/format").asText());
        assertEquals("date-time", item.at("/seen/format").asText());
        assertEquals("#/components/schemas/OpenApiDocumentTest.Item", item.at("/parent/$ref").asText(),
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

    private JsonNode document() throws IOException {
        var response = server.get(OpenApiDocument.PATH);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }
}
