package io.heliograph.webui.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import io.heliograph.webui.api.ApiException;

class TopologyGraphFilesTest {

    private final TopologyGraphFiles files = new TopologyGraphFiles();

    @Test
    void servesTheGraphModulesAsJavaScript() {
        ResponseEntity<byte[]> response = files.file("topology-graph.js");
        assertEquals(HttpStatus.OK, response.getStatusCode());
        assertEquals("text/javascript;charset=utf-8", response.getHeaders().getContentType().toString());
        assertTrue(new String(response.getBody(), StandardCharsets.UTF_8).contains("export class TopologyGraph"));
        assertEquals("text/html;charset=utf-8", files.file("bench.html").getHeaders().getContentType().toString());
    }

    @Test
    void refusesWhatIsNotAGraphFile() {
        for (String name : new String[] {"missing.js", "..%2Fapp.js", "../app.js", "Topology-Graph.js", "layout.java"}) {
            ApiException refused = assertThrows(ApiException.class, () -> files.file(name), name);
            assertEquals(HttpStatus.NOT_FOUND, refused.getStatusCode(), name);
            assertEquals("file", refused.field(), name);
        }
    }

    @Test
    void theTopologyPageScriptIsInTheBundle() {
        TopologyPage page = new TopologyPage();
        assertEquals("topology", page.id());
        assertNotNull(page.script(), "ui/topology/topology-page.js");
    }
}
