package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;

class WebServerTest {

    @TempDir
    Path dataDir;
    private RunningServer server;

    @BeforeEach
    void start() throws IOException {
        server = new RunningServer(dataDir);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void healthIsDownWithoutSwitchServiceAndNeedsNoCredentials() {
        HttpResponse<String> response = server.getWithout("/api/v1/health");
        assertEquals(503, response.statusCode());
        assertEquals("{\"status\":\"DOWN\",\"switches\":0}", response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void healthIsUpAndCountsSwitchesOnceTheServiceArrives() {
        server.switches(switchesWith(2));
        HttpResponse<String> response = server.getWithout("/api/v1/health");
        assertEquals(200, response.statusCode());
        assertEquals("{\"status\":\"UP\",\"switches\":2}", response.body());

        server.switches(null); // the OpenFlow bundle stopped
        assertEquals(503, server.getWithout("/api/v1/health").statusCode());
    }

    @Test
    void otherPathsAreNotFoundAndOtherMethodsNotAllowedInJson() {
        HttpResponse<String> missing = server.get("/api/v1/healthz");
        assertEquals(404, missing.statusCode());
        assertEquals("{\"status\":404,\"error\":\"Not Found\",\"message\":\"no resource at /api/v1/healthz\"}",
                missing.body());
        assertEquals("application/json", missing.headers().firstValue("Content-Type").orElse(""));

        HttpResponse<String> post = server.send(server.request("/api/v1/health")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        assertEquals(405, post.statusCode());
        assertTrue(post.headers().firstValue("Allow").orElse("").contains("GET"), post.headers().toString());
        assertTrue(post.body().startsWith("{\"status\":405,\"error\":\"Method Not Allowed\""), post.body());
    }

    @Test
    void aBusyPortIsAClearError() {
        IOException e = assertThrows(IOException.class,
                () -> new RunningServer(dataDir.resolve("second"), HttpSettings.http("127.0.0.1", server.port())));
        assertTrue(e.getMessage().contains("in use"), e.getMessage());
        assertTrue(e.getMessage().contains(Integer.toString(server.port())), e.getMessage());
    }

    static SwitchService switchesWith(int count) {
        Map<DatapathId, OFSwitch> switches = new HashMap<>();
        for (int i = 1; i <= count; i++) {
            switches.put(DatapathId.of(i), (OFSwitch) Proxy.newProxyInstance(OFSwitch.class.getClassLoader(),
                    new Class<?>[] {OFSwitch.class}, (proxy, method, args) -> null));
        }
        return new SwitchService() {
            @Override
            public Map<DatapathId, OFSwitch> getSwitches() {
                return switches;
            }

            @Override
            public OFSwitch getSwitch(DatapathId id) {
                return switches.get(id);
            }
        };
    }
}
