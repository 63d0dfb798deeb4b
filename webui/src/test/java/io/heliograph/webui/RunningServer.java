package io.heliograph.webui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Properties;

import io.heliograph.core.SwitchService;
import io.heliograph.webui.auth.AdminCredentials;

/**
 * A web server on a free loopback port with its own data directory, and an HTTP client for it that
 * can send the administrator's credentials (read from the initial-credentials file, as an operator would).
 */
final class RunningServer implements AutoCloseable {

    /** The instance id the launcher would set as the framework property heliograph.instance.id. */
    static final String INSTANCE_ID = "test-instance-1";

    final Path dataDir;
    final WebServer component;
    private final HttpClient client = HttpClient.newHttpClient();

    RunningServer(Path dataDir) throws IOException {
        this(dataDir, HttpSettings.http("127.0.0.1", 0));
    }

    RunningServer(Path dataDir, HttpSettings settings) throws IOException {
        this(new WebServer(), dataDir);
        component.activate(dataDir, INSTANCE_ID, settings, "0.0.0-test");
    }

    private RunningServer(WebServer component, Path dataDir) {
        this.component = component;
        this.dataDir = dataDir;
    }

    /** A component the test activated itself. */
    static RunningServer wrapping(WebServer activated, Path dataDir) {
        return new RunningServer(activated, dataDir);
    }

    void switches(SwitchService switches) {
        component.switches = switches;
    }

    void messages(io.heliograph.core.MessageStatistics messages) {
        component.messages = messages;
    }

    RestServer server() {
        return component.server();
    }

    int port() {
        return server().port();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    String adminPassword() {
        Properties p = new Properties();
        try {
            p.load(new java.io.StringReader(Files.readString(dataDir.resolve(AdminCredentials.INITIAL_CREDENTIALS))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("password");
    }

    String basic() {
        return "Basic " + Base64.getEncoder().encodeToString(("admin:" + adminPassword()).getBytes(StandardCharsets.UTF_8));
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(uri(path)).header("Authorization", basic());
    }

    HttpResponse<String> get(String path) {
        return send(request(path).GET().build());
    }

    HttpResponse<String> getWithout(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET().build());
    }

    HttpResponse<String> postJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        component.deactivate();
    }
}
