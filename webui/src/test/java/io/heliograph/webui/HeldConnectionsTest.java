package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.webui.api.RestResource;

/** A resource that holds connections open is told to end them while its server still serves, before it stops. */
class HeldConnectionsTest {

    @TempDir
    Path dataDir;

    /** Notes, when told to end its connections, how the server it is mapped on answers then. */
    @RestController
    static class Holding implements RestResource, HeldConnections {
        final List<Integer> healthWhenTold = new CopyOnWriteArrayList<>();
        volatile RunningServer server;

        @GetMapping("/api/v1/test/held")
        public Map<String, String> held() {
            return Map.of("held", "yes");
        }

        @Override
        public void endHeldConnections() {
            try {
                healthWhenTold.add(HttpClient.newHttpClient().send(HttpRequest.newBuilder(server.uri("/api/v1/health"))
                        .build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            } catch (Exception e) {
                healthWhenTold.add(-1); // no answer: the server had stopped already
            }
        }
    }

    @Test
    void theServerEndsHeldConnectionsBeforeItStops() throws Exception {
        Holding holding = new Holding();
        try (RunningServer server = new RunningServer(dataDir)) {
            holding.server = server;
            server.component.addResource(holding);
            assertEquals(200, server.get("/api/v1/test/held").statusCode());
        }
        assertEquals(List.of(503), holding.healthWhenTold, "told once, while the server still answered (health DOWN:"
                + " no switches), not after it stopped");
    }
}
