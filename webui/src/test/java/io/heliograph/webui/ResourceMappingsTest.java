package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.webui.api.RestResource;

/** REST resources are mapped while their service is registered and unmapped when it goes. */
class ResourceMappingsTest {

    @RestController
    static class Greeting implements RestResource {
        private final String greeting;

        Greeting(String greeting) {
            this.greeting = greeting;
        }

        @GetMapping("/api/v1/test/greeting")
        public Map<String, String> greet(@RequestParam(defaultValue = "world") String name) {
            return Map.of("text", greeting + ", " + name);
        }
    }

    /** Clashes with {@link Greeting} on one path and brings one of its own. */
    @RestController
    static class Rival implements RestResource {
        @GetMapping("/api/v1/test/greeting")
        public Map<String, String> greet() {
            return Map.of("text", "rival");
        }

        @GetMapping("/api/v1/test/rival")
        public Map<String, String> own() {
            return Map.of("text", "rival's own");
        }
    }

    /** Answers only when released, and then fails: as an app whose services went away mid-request. */
    @RestController
    static class Stopping implements RestResource {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @GetMapping("/api/v1/test/stopping")
        public Map<String, String> answer() throws InterruptedException {
            entered.countDown();
            release.await(30, TimeUnit.SECONDS);
            throw new IllegalStateException("its services are gone");
        }
    }

    @TempDir
    Path dataDir;
    private RunningServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aResourceAnswersWhileRegisteredAndIsNotFoundOnceItGoes() throws IOException {
        server = new RunningServer(dataDir);
        Greeting hello = new Greeting("hello");
        assertEquals(404, server.get("/api/v1/test/greeting?name=you").statusCode());

        server.component.addResource(hello);
        var answer = server.get("/api/v1/test/greeting?name=you");
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals("{\"text\":\"hello, you\"}", answer.body());

        server.component.removeResource(hello);
        var gone = server.get("/api/v1/test/greeting?name=you");
        assertEquals(404, gone.statusCode());
        assertEquals("application/json", gone.headers().firstValue("Content-Type").orElse(""));
        assertTrue(gone.body().contains("no resource at /api/v1/test/greeting"), gone.body());

        server.component.addResource(new Greeting("welcome back"));
        assertEquals("{\"text\":\"welcome back, world\"}", server.get("/api/v1/test/greeting").body());
    }

    @Test
    void resourcesRegisteredBeforeTheServerStartsAreMappedWhenItStarts() throws IOException {
        WebServer component = new WebServer();
        component.addResource(new Greeting("early"));
        component.activate(dataDir, RunningServer.INSTANCE_ID, HttpSettings.http("127.0.0.1", 0), "0.0.0-test");
        server = RunningServer.wrapping(component, dataDir);
        assertEquals("{\"text\":\"early, world\"}", server.get("/api/v1/test/greeting").body());
    }

    @Test
    void aClashingResourceIsRefusedAsAWholeAndTheFirstKeepsItsPaths() throws IOException {
        server = new RunningServer(dataDir);
        Greeting first = new Greeting("first");
        Rival rival = new Rival();
        assertTrue(server.server().map(first));
        assertFalse(server.server().map(rival));

        assertEquals("{\"text\":\"first, world\"}", server.get("/api/v1/test/greeting").body());
        assertEquals(404, server.get("/api/v1/test/rival").statusCode(), "the refused resource maps nothing");

        server.server().unmap(rival);   // it was never mapped: taking it away leaves the first alone
        assertEquals("{\"text\":\"first, world\"}", server.get("/api/v1/test/greeting").body());

        server.server().unmap(first);
        assertTrue(server.server().map(rival), "the path is free again");
        assertEquals("{\"text\":\"rival\"}", server.get("/api/v1/test/greeting").body());
    }

    @Test
    void aRequestRunningWhileItsAppStopsIsUnavailableNotAServerFault() throws Exception {
        server = new RunningServer(dataDir);
        Stopping app = new Stopping();
        server.component.addResource(app);
        CompletableFuture<HttpResponse<String>> pending = HttpClient.newHttpClient().sendAsync(
                server.request("/api/v1/test/stopping").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(app.entered.await(30, TimeUnit.SECONDS), "the request reached the resource");
        server.component.removeResource(app);
        app.release.countDown();
        HttpResponse<String> answer = pending.get(30, TimeUnit.SECONDS);
        assertEquals(503, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("stopped during the request"), answer.body());
    }

    @Test
    void anObjectWithoutRequestMappingsIsRefused() throws IOException {
        server = new RunningServer(dataDir);
        assertFalse(server.server().map(new Object()));
    }
}
