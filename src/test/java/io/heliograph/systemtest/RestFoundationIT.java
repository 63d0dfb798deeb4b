package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.SourceBundle;
import io.heliograph.testbed.TestPki;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 5, the REST foundation against the real distribution: authentication on by default (a
 * generated password in a file only its owner reads, HTTP Basic, bearer tokens that can be revoked),
 * the public health check, JSON errors, and an app bundle's REST resource that answers while the app
 * runs and is 404 once it stops. The app is a bundle built by the test from source against the
 * distribution's jars, so it imports Spring's annotations exactly as a real app must.
 */
@Timeout(300)
class RestFoundationIT {

    private static final Duration APP = Duration.ofSeconds(30);
    private static final String GREETER_NAME = "Heliograph test app: greeter";
    private static final String GREETER_PAGE =
            "export async function render(element, api) { element.textContent = 'greeter'; }\n";

    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Path artifacts;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("RestFoundationIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("RestFoundationIT");
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void healthNeedsNoCredentialsAndEverythingElseDoes() {
        RestClient anonymous = controller.anonymousRest();
        RestClient.Response health = anonymous.get("/api/v1/health");
        assertEquals(200, health.status(), health.toString());
        assertEquals("UP", health.json().get("status").asText());

        RestClient.Response refused = anonymous.get("/api/v1/auth/tokens");
        assertEquals(401, refused.status(), refused.toString());
        assertTrue(refused.headers().allValues("WWW-Authenticate").stream().anyMatch(c -> c.startsWith("Basic ")),
                refused.toString());
        assertEquals(401, refused.json().get("status").asInt());

        RestClient.Response wrong = anonymous.withBasic("admin", "not-the-password").get("/api/v1/auth/tokens");
        assertEquals(401, wrong.status(), wrong.toString());
    }

    @Test
    void theGeneratedPasswordIsInAFileOnlyItsOwnerCanReadAndTheLogSaysWhereNotWhat() throws IOException {
        ControllerProcess.Credentials admin = controller.credentials(Duration.ofSeconds(10));
        Path file = controller.dataDir().resolve("initial-credentials");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("admin", admin.user());
        assertTrue(controller.log().contains(file.toString()), "the log names the file");
        assertFalse(controller.log().contains(admin.password()), "the log does not show the password");

        RestClient.Response ok = controller.rest().get("/api/v1/auth/tokens");
        assertEquals(200, ok.status(), ok.toString());
    }

    @Test
    void aBearerTokenAuthenticatesUntilItIsRevoked() {
        RestClient admin = controller.rest();
        RestClient.Response created = admin.post("/api/v1/auth/tokens", Map.of("name", "RestFoundationIT"));
        assertEquals(201, created.status(), created.toString());
        String id = created.json().get("id").asText();
        RestClient asToken = admin.withBearer(created.json().get("token").asText());

        RestClient.Response listed = asToken.get("/api/v1/auth/tokens");
        assertEquals(200, listed.status(), listed.toString());
        assertTrue(listed.json().findValuesAsText("id").contains(id), listed.toString());
        assertFalse(listed.body().contains(created.json().get("token").asText()), "no secret in the list");

        assertEquals(204, admin.delete("/api/v1/auth/tokens/" + id).status());
        RestClient.Response revoked = asToken.get("/api/v1/auth/tokens");
        assertEquals(401, revoked.status(), revoked.toString());
    }

    @Test
    void badRequestsAreJsonNamingTheProblem() {
        RestClient admin = controller.rest();
        RestClient.Response malformed = admin.post("/api/v1/auth/tokens", "{\"name\": ");
        assertEquals(400, malformed.status(), malformed.toString());
        assertTrue(malformed.json().get("message").asText().contains("line 1"), malformed.toString());

        RestClient.Response unknown = admin.post("/api/v1/auth/tokens", Map.of("name", "x", "scope", "all"));
        assertEquals(400, unknown.status(), unknown.toString());
        assertEquals("scope", unknown.json().get("field").asText());

        RestClient.Response missing = admin.get("/api/v1/no/such/resource");
        assertEquals(404, missing.status(), missing.toString());
        assertEquals("application/json", missing.header("Content-Type").orElse(""));

        RestClient.Response tooLarge = admin.post("/api/v1/auth/tokens",
                "{\"name\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}");
        assertEquals(413, tooLarge.status(), tooLarge.request() + " -> " + tooLarge.status());
    }

    @Test
    void theControllerDescribesItselfItsApiAndItsMetrics() throws IOException {
        RestClient admin = controller.rest();
        RestClient.Response info = admin.get("/api/v1/controller");
        assertEquals(200, info.status(), info.toString());
        assertEquals(Files.readString(controller.dataDir().resolve("instance-id")).strip(),
                info.json().get("instanceId").asText());
        assertEquals(0, info.json().get("switches").asInt());
        assertTrue(info.json().get("messages").isObject(), "the pipelines run: " + info);

        JsonNode paths = admin.get("/api/v1/openapi.json").json().get("paths");
        for (String path : List.of("/api/v1/controller", "/api/v1/health", "/api/v1/auth/tokens", "/metrics")) {
            assertTrue(paths.has(path), path + " in " + paths.fieldNames());
        }

        RestClient.Response metrics = admin.get("/metrics");
        assertEquals(200, metrics.status(), metrics.toString());
        assertTrue(metrics.body().lines().anyMatch(l -> l.equals("heliograph_switches_connected 0")), metrics.body());
    }

    @Test
    void anAppsResourceAnswersWhileTheAppRunsAndIsNotFoundOnceItStops() throws IOException {
        RestClient admin = controller.rest();
        Path jar = artifacts.resolve("greeter.jar").toAbsolutePath();
        SourceBundle.build(distribution, jar, Map.of(
                "Bundle-SymbolicName", "io.heliograph.test.greeter",
                "Bundle-Name", GREETER_NAME,
                "Bundle-Version", "1.0.0",
                "Bundle-Activator", "test.greeter.Activator",
                "Import-Package", "org.osgi.framework, org.springframework.web.bind.annotation,"
                        + " io.heliograph.webui.api"), Map.of(
                "test.greeter.Activator", """
                        package test.greeter;

                        import org.osgi.framework.BundleActivator;
                        import org.osgi.framework.BundleContext;
                        import io.heliograph.webui.api.RestResource;
                        import io.heliograph.webui.api.UiPage;

                        public class Activator implements BundleActivator {
                            public void start(BundleContext context) {
                                context.registerService(RestResource.class, new Greeter(), null);
                                context.registerService(UiPage.class, new UiPage() {
                                    public String id() {
                                        return "greeter";
                                    }

                                    public String title() {
                                        return "Greeter";
                                    }

                                    public java.net.URL script() {
                                        return context.getBundle().getEntry("/ui/greeter.js");
                                    }
                                }, null);
                            }

                            public void stop(BundleContext context) {
                            }
                        }
                        """,
                "test.greeter.Greeter", """
                        package test.greeter;

                        import org.springframework.web.bind.annotation.*;
                        import io.heliograph.webui.api.RestResource;

                        @RestController
                        public class Greeter implements RestResource {
                            public record Greeting(String text, int times) {
                            }

                            @GetMapping("/api/v1/greeter")
                            public Greeting greet(@RequestParam(defaultValue = "world") String name) {
                                return new Greeting("hello " + name, 1);
                            }

                            @PostMapping("/api/v1/greeter")
                            public Greeting echo(@RequestBody Greeting greeting) {
                                return new Greeting(greeting.text(), greeting.times() + 1);
                            }
                        }
                        """), Map.of("ui/greeter.js", GREETER_PAGE));
        // Hot swap over REST: upload, start, stop, start, uninstall.
        RestClient.Response installed = admin.upload("/api/v1/bundles?start=false", "file", jar);
        assertEquals(201, installed.status(), installed.toString());
        long id = installed.json().get("id").asLong();
        assertEquals(404, admin.get("/api/v1/greeter").status(), "an installed, unstarted app serves nothing");
        RestClient.Response started = admin.post("/api/v1/bundles/" + id + "/start", "");
        assertEquals("ACTIVE", started.json().get("state").asText(), started.toString());
        RestClient.Response running = Poll.until("the greeter app's resource to answer", APP,
                () -> admin.get("/api/v1/greeter?name=operator"), r -> r.status() == 200);
        assertEquals("{\"text\":\"hello operator\",\"times\":1}", running.body());
        RestClient.Response echoed = admin.post("/api/v1/greeter", Map.of("text", "hi", "times", 41));
        assertEquals("{\"text\":\"hi\",\"times\":42}", echoed.body(), echoed.toString());
        JsonNode documented = admin.get("/api/v1/openapi.json").json();
        assertTrue(documented.at("/paths/~1api~1v1~1greeter/get").isObject(), "the app's path is documented");
        assertEquals("string", documented.at("/components/schemas/Greeter.Greeting/properties/text/type").asText());

        RestClient.Response pages = admin.get("/api/v1/ui/pages");
        assertTrue(pages.body().contains("{\"id\":\"greeter\",\"title\":\"Greeter\",\"script\":\"/ui/pages/greeter.js\"}"),
                pages.toString());
        assertEquals(GREETER_PAGE, controller.anonymousRest().get("/ui/pages/greeter.js").body(),
                "the page's script, from the app's own bundle");

        RestClient.Response stop = admin.post("/api/v1/bundles/" + id + "/stop", "");
        assertEquals("RESOLVED", stop.json().get("state").asText(), stop.toString());
        RestClient.Response stopped = Poll.until("the stopped app's path to be gone", APP,
                () -> admin.get("/api/v1/greeter"), r -> r.status() != 200);
        assertEquals(404, stopped.status(), stopped.toString());
        assertEquals("application/json", stopped.header("Content-Type").orElse(""));
        assertTrue(stopped.json().get("message").asText().contains("/api/v1/greeter"), stopped.toString());
        assertFalse(admin.get("/api/v1/openapi.json").json().get("paths").has("/api/v1/greeter"),
                "a stopped app's paths leave the API document");
        assertFalse(admin.get("/api/v1/ui/pages").json().findValuesAsText("id").contains("greeter"),
                "a stopped app's page leaves the navigation");
        assertEquals(404, controller.anonymousRest().get("/ui/pages/greeter.js").status());

        assertEquals(200, admin.post("/api/v1/bundles/" + id + "/start", "").status());
        Poll.until("the restarted app's resource to answer again", APP, () -> admin.get("/api/v1/greeter"),
                r -> r.status() == 200);

        assertEquals(200, admin.delete("/api/v1/bundles/" + id).status());
        Poll.until("the uninstalled app's path to be gone", APP, () -> admin.get("/api/v1/greeter").status(),
                status -> status == 404);
        assertFalse(controller.log().contains(" ERROR "), "no error in the log");
    }

    @Test
    void httpsServesTheApiWithTheConfiguredKeystore() {
        Path pki = artifacts.resolve("pki").toAbsolutePath();   // the controller runs in its own directory
        TestPki authority = TestPki.createAuthority(pki, "rest");
        Path keystore = authority.pkcs12(authority.issue("127.0.0.1"), pki.resolve("https.p12"), "keystore-secret");
        int httpsPort = ControllerProcess.freePort();
        try (ControllerDistribution secured = ControllerDistribution.copyOfBuilt(Path.of("/tmp"))) {
            secured.configure("io.heliograph.webui", Map.of("https.port", Integer.toString(httpsPort),
                    "https.keystore", keystore.toString(), "https.keystore.password", "keystore-secret"));
            try (ControllerProcess https = ControllerProcess.start(secured, artifacts.resolve("controller-https.log"))) {
                https.awaitHealthy(Duration.ofSeconds(60));
                ControllerProcess.Credentials admin = https.credentials(Duration.ofSeconds(10));
                RestClient overTls = RestClient.anonymous(URI.create("https://127.0.0.1:" + httpsPort),
                        authority.trustingClient());
                assertEquals(200, overTls.get("/api/v1/health").status());
                assertEquals(401, overTls.get("/api/v1/controller").status());
                RestClient.Response info = overTls.withBasic(admin.user(), admin.password()).get("/api/v1/controller");
                assertEquals(200, info.status(), info.toString());
                assertTrue(https.log().contains("HTTPS on port " + httpsPort), "the log says where HTTPS listens");
            }
        }
    }

}
