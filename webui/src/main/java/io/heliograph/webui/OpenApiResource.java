package io.heliograph.webui;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;

/**
 * {@code GET /api/v1/openapi.json}, built on every request from the mappings of the moment, so it
 * never describes a path that is gone or misses one that came. It needs authentication like the rest
 * of the API: it tells which apps run, and the web UI that renders it is logged in anyway.
 */
@RestController
@ApiDescription("The API's own description")
final class OpenApiResource {

    private final ResourceMappings mappings;
    private final String version;
    private final ObjectMapper json;

    OpenApiResource(ResourceMappings mappings, String version, ObjectMapper json) {
        this.mappings = mappings;
        this.version = version;
        this.json = json;
    }

    @GetMapping(path = OpenApiDocument.PATH, produces = MediaType.APPLICATION_JSON_VALUE)
    @ApiDescription("The OpenAPI 3 document of every resource mapped now")
    @OperationId("getOpenApiDocument")
    public ResponseEntity<ObjectNode> document() {
        return ResponseEntity.ok().cacheControl(CacheControl.noStore())
                .body(OpenApiDocument.of(mappings.getHandlerMethods(), version, json));
    }
}
