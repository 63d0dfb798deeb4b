package io.heliograph.vdn.agent;

import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.hybrid.DecisionTableJson;
import io.heliograph.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The agent's side of the VDN app's REST API: its cluster's report, RIB and FIB under
 * {@code /api/v1/vdn/clusters/{id}}, with the REST API's credentials (HTTP basic) and the cluster's agent
 * key (header {@code X-Vdn-Agent-Key}). Every call is asynchronous and bounded by a timeout; a refusal
 * completes exceptionally with the controller's message.
 */
final class ControllerLink {

    static final String KEY_HEADER = "X-Vdn-Agent-Key";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final DecisionTableJson<String> TABLES = DecisionTableJson.ofStrings();

    private final HttpClient http;
    private final URI base;
    private final String authorization;
    private final String key;

    ControllerLink(HttpClient http, URI controller, String cluster, String user, String password, String key) {
        this.http = http;
        this.base = URI.create(controller + "/api/v1/vdn/clusters/" + cluster + "/");
        this.authorization = "Basic "
                + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.key = key;
    }

    /** Sends a report; the controller's answer (ribVersion, and how the agent must behave). */
    CompletableFuture<Map<String, Object>> report(Map<String, Object> report) {
        return send(request("report").POST(HttpRequest.BodyPublishers.ofByteArray(Json.compact(report))))
                .thenApply(ControllerLink::object);
    }

    /** The cluster's RIB, empty while the controller has decided none for it (404). */
    CompletableFuture<Optional<DecisionTable<String>>> rib() {
        return http.sendAsync(request("rib").GET().build(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(response -> {
            if (response.statusCode() == 404) {
                return Optional.empty();
            }
            return Optional.of(TABLES.decode(body(response)));
        });
    }

    /** Publishes the FIB and serving figures. */
    CompletableFuture<Map<String, Object>> putFib(Map<String, Object> fib) {
        return send(request("fib").PUT(HttpRequest.BodyPublishers.ofByteArray(Json.compact(fib))))
                .thenApply(ControllerLink::object);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .header("Authorization", authorization)
                .header(KEY_HEADER, key)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
    }

    private CompletableFuture<byte[]> send(HttpRequest.Builder request) {
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(ControllerLink::body);
    }

    private static byte[] body(HttpResponse<byte[]> response) {
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException(response.request().method() + " " + response.uri().getPath() + ": "
                    + response.statusCode() + " " + new String(response.body(), StandardCharsets.UTF_8).strip());
        }
        return response.body();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(byte[] body) {
        Object document = Json.parse(body);
        if (!(document instanceof Map<?, ?>)) {
            throw new IllegalStateException("the controller answered " + new String(body, StandardCharsets.UTF_8));
        }
        return (Map<String, Object>) document;
    }
}
