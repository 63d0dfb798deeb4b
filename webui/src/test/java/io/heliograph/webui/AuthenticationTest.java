package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.webui.auth.AdminCredentials;

/** Authentication is on by default: a generated admin password, HTTP Basic and bearer tokens. */
class AuthenticationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

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
    void theFirstStartWritesAGeneratedPasswordReadableOnlyByItsOwnerAndKeepsOnlyItsHash() throws IOException {
        Path initial = dataDir.resolve(AdminCredentials.INITIAL_CREDENTIALS);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(initial)));
        String password = server.adminPassword();
        assertTrue(password.length() >= 20, "a long random password: " + password);
        try (var files = Files.walk(dataDir)) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.equals(initial)).toList()) {
                assertFalse(Files.readString(file).contains(password), file + " holds the clear text");
            }
        }
        assertEquals(200, server.get("/api/v1/auth/tokens").statusCode());
    }

    @Test
    void withoutValidCredentials401ChallengesWithJson() {
        HttpResponse<String> none = server.getWithout("/api/v1/auth/tokens");
        assertEquals(401, none.statusCode());
        List<String> challenges = none.headers().allValues("WWW-Authenticate");
        assertTrue(challenges.stream().anyMatch(c -> c.startsWith("Basic realm=")), challenges.toString());
        assertTrue(challenges.stream().anyMatch(c -> c.startsWith("Bearer realm=")), challenges.toString());
        assertEquals("application/json", none.headers().firstValue("Content-Type").orElse(""));
        assertTrue(none.body().startsWith("{\"status\":401,\"error\":\"Unauthorized\""), none.body());

        assertEquals(401, withAuthorization("/api/v1/auth/tokens", basic("admin", "wrong")).statusCode());
        assertEquals(401, withAuthorization("/api/v1/auth/tokens", basic("root", server.adminPassword())).statusCode());
        assertEquals(401, withAuthorization("/api/v1/auth/tokens", "Bearer hgt_madeup").statusCode());
        assertEquals(401, withAuthorization("/api/v1/auth/tokens", "Basic !!!").statusCode());
        assertEquals(401, server.getWithout("/api/v1/no-such-thing").statusCode(), "no hint what exists");
    }

    @Test
    void theWebUisRequestsGetNoBasicChallengeSoTheBrowserShowsNoDialog() {
        HttpResponse<String> ui = server.send(HttpRequest.newBuilder(server.uri("/api/v1/auth/tokens"))
                .header("X-Requested-With", "XMLHttpRequest").GET().build());
        assertEquals(401, ui.statusCode());
        assertEquals(List.of("Bearer realm=\"Heliograph\""), ui.headers().allValues("WWW-Authenticate"));
    }

    @Test
    void aTokenWorksUntilRevokedAndItsSecretIsShownOnlyOnce() throws IOException {
        HttpResponse<String> created = server.postJson("/api/v1/auth/tokens", "{\"name\":\"orchestrator\"}");
        assertEquals(201, created.statusCode(), created.body());
        JsonNode token = JSON.readTree(created.body());
        String secret = token.get("token").asText();
        String id = token.get("id").asText();
        assertTrue(secret.startsWith("hgt_"), secret);

        assertEquals(200, withAuthorization("/api/v1/auth/tokens", "Bearer " + secret).statusCode());
        HttpResponse<String> list = server.get("/api/v1/auth/tokens");
        JsonNode listed = JSON.readTree(list.body());
        assertEquals(1, listed.size());
        assertEquals(id, listed.get(0).get("id").asText());
        assertEquals("orchestrator", listed.get(0).get("name").asText());
        assertFalse(list.body().contains(secret.substring(4)), "the list shows no secret: " + list.body());
        try (var files = Files.walk(dataDir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertFalse(Files.readString(file).contains(secret.substring(4)), file + " holds the token");
            }
        }

        HttpResponse<String> revoked = server.send(server.request("/api/v1/auth/tokens/" + id).DELETE().build());
        assertEquals(204, revoked.statusCode(), revoked.body());
        assertEquals(401, withAuthorization("/api/v1/auth/tokens", "Bearer " + secret).statusCode());

        HttpResponse<String> again = server.send(server.request("/api/v1/auth/tokens/" + id).DELETE().build());
        assertEquals(404, again.statusCode());
        assertEquals("id", JSON.readTree(again.body()).get("field").asText());
    }

    @Test
    void aTokenNeedsASensibleName() throws IOException {
        HttpResponse<String> blank = server.postJson("/api/v1/auth/tokens", "{\"name\":\"  \"}");
        assertEquals(400, blank.statusCode());
        assertEquals("name", JSON.readTree(blank.body()).get("field").asText());
        assertEquals(400, server.postJson("/api/v1/auth/tokens", "{\"name\":\"" + "n".repeat(65) + "\"}").statusCode());
        assertEquals(400, server.postJson("/api/v1/auth/tokens", "{}").statusCode());
    }

    @Test
    void aTokenMayBeGivenALifetimeInSeconds() throws IOException {
        HttpResponse<String> created = server.postJson("/api/v1/auth/tokens",
                "{\"name\":\"web UI\",\"expiresInSeconds\":3600}");
        assertEquals(201, created.statusCode(), created.body());
        JsonNode token = JSON.readTree(created.body());
        assertEquals(java.time.Instant.parse(token.get("created").asText()).plusSeconds(3600),
                java.time.Instant.parse(token.get("expires").asText()));
        assertEquals(200, withAuthorization("/api/v1/auth/tokens", "Bearer " + token.get("token").asText()).statusCode());
        assertTrue(JSON.readTree(server.postJson("/api/v1/auth/tokens", "{\"name\":\"ci\"}").body()).get("expires").isNull(),
                "without expiresInSeconds a token never expires");

        for (String bad : List.of("0", "-5", "400000000", "\"soon\"")) {
            HttpResponse<String> refused = server.postJson("/api/v1/auth/tokens",
                    "{\"name\":\"x\",\"expiresInSeconds\":" + bad + "}");
            assertEquals(400, refused.statusCode(), bad + ": " + refused.body());
            assertEquals("expiresInSeconds", JSON.readTree(refused.body()).get("field").asText(), refused.body());
        }
        assertEquals(2, JSON.readTree(server.get("/api/v1/auth/tokens").body()).size(), "the refused requests made no token");
    }

    @Test
    void aRestartKeepsThePasswordAndTheTokensAndGeneratesNothingNew() throws IOException {
        String password = server.adminPassword();
        String secret = JSON.readTree(server.postJson("/api/v1/auth/tokens", "{\"name\":\"ci\"}").body())
                .get("token").asText();
        Path initial = dataDir.resolve(AdminCredentials.INITIAL_CREDENTIALS);
        Files.delete(initial);   // as the operator is told to, once the password is noted
        server.close();

        server = new RunningServer(dataDir);
        assertFalse(Files.exists(initial), "no second password is generated");
        assertEquals(200, withAuthorization("/api/v1/auth/tokens", basic("admin", password)).statusCode());
        assertEquals(200, withAuthorization("/api/v1/auth/tokens", "Bearer " + secret).statusCode());
    }

    private HttpResponse<String> withAuthorization(String path, String authorization) {
        return server.send(HttpRequest.newBuilder(server.uri(path)).header("Authorization", authorization).GET().build());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
