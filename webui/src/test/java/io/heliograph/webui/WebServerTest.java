package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;

class WebServerTest {

    private final HttpClient client = HttpClient.newHttpClient();
    private WebServer server;

    @BeforeEach
    void start() throws IOException {
        server = new WebServer();
        server.activate(config("127.0.0.1", 0));
    }

    @AfterEach
    void stop() {
        server.deactivate();
    }

    @Test
    void healthIsDownWithoutSwitchService() throws Exception {
        HttpResponse<String> response = get("/api/v1/health");
        assertEquals(503, response.statusCode());
        assertEquals("{\"status\":\"DOWN\",\"switches\":0}", response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void healthIsUpAndCountsSwitchesOnceTheServiceArrives() throws Exception {
        server.switches = switchesWith(2);
        HttpResponse<String> response = get("/api/v1/health");
        assertEquals(200, response.statusCode());
        assertEquals("{\"status\":\"UP\",\"switches\":2}", response.body());

        server.switches = null; // the OpenFlow bundle stopped
        assertEquals(503, get("/api/v1/health").statusCode());
    }

    @Test
    void otherPathsAreNotFoundAndOtherMethodsNotAllowed() throws Exception {
        HttpResponse<String> missing = get("/api/v1/healthz");
        assertEquals(404, missing.statusCode());
        assertEquals("{\"error\":\"no resource at /api/v1/healthz\"}", missing.body());

        HttpResponse<String> post = client.send(HttpRequest.newBuilder(uri("/api/v1/health"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(""));
    }

    @Test
    void aBusyPortIsAClearError() {
        WebServer second = new WebServer();
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> second.activate(config("127.0.0.1", server.address().getPort())));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("in use"), e.getMessage());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
    }

    private static SwitchService switchesWith(int count) {
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

    private static WebServer.Config config(String address, int port) {
        return new WebServer.Config() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return WebServer.Config.class;
            }

            @Override
            public String address() {
                return address;
            }

            @Override
            public int port() {
                return port;
            }
        };
    }
}
