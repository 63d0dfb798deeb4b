package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.heliograph.webui.auth.AdminCredentials;

/** HTTPS beside HTTP, with a keystore the operator configures (here one keytool generates). */
class HttpsTest {

    private static final String PASSWORD = "test-keystore-secret";

    @TempDir
    Path dir;
    private Path keystore;

    @BeforeEach
    void generateKeystore() throws Exception {
        keystore = dir.resolve("https.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "heliograph", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);
    }

    @Test
    void httpsServesTheSameApiWithTheConfiguredCertificate() throws Exception {
        try (RunningServer server = new RunningServer(dir.resolve("data"), settings(PASSWORD))) {
            int httpsPort = server.server().httpsPort();
            assertTrue(httpsPort > 0 && httpsPort != server.port());
            HttpClient trusting = HttpClient.newBuilder().sslContext(trusting(keystore)).build();
            HttpResponse<String> health = trusting.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + httpsPort + "/api/v1/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(503, health.statusCode());
            assertEquals("{\"status\":\"DOWN\",\"switches\":0}", health.body());

            HttpResponse<String> tokens = trusting.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + httpsPort + "/api/v1/auth/tokens"))
                    .header("Authorization", server.basic()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, tokens.statusCode(), tokens.body());
            assertEquals(401, server.getWithout("/api/v1/auth/tokens").statusCode(), "plain HTTP still answers");

            HttpClient untrusting = HttpClient.newHttpClient();
            assertThrows(SSLHandshakeException.class, () -> untrusting.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + httpsPort + "/api/v1/health")).build(),
                    HttpResponse.BodyHandlers.ofString()), "a client that does not trust the certificate refuses it");
        }
    }

    @Test
    void aWrongKeystorePasswordIsAClearErrorAtStart() throws IOException {
        Path data = dir.resolve("data");
        IOException e = assertThrows(IOException.class, () -> new RunningServer(data, settings("wrong")));
        assertTrue(e.getMessage().contains(keystore.toString()), e.getMessage());
        // The first start's credentials are written before the failure is reported, not after it behind the caller's back.
        assertTrue(Files.exists(data.resolve(AdminCredentials.INITIAL_CREDENTIALS)), "credentials written by the time start fails");
        try (var files = Files.list(data)) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no write left half done");
        }
    }

    @Test
    void httpsWithoutAKeystoreIsRefusedBeforeStarting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new HttpSettings("127.0.0.1",
                0, 0, Optional.empty(), "", "PKCS12", 1024, 1024, true));
        assertTrue(e.getMessage().contains("https.keystore"), e.getMessage());
    }

    private HttpSettings settings(String password) {
        return new HttpSettings("127.0.0.1", 0, 0, Optional.of(keystore), password, "PKCS12",
                HttpSettings.DEFAULT_MAX_BODY_BYTES, HttpSettings.DEFAULT_MAX_UPLOAD_BYTES, true);
    }

    private static SSLContext trusting(Path keystore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
