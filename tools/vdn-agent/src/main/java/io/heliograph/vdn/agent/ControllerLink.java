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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's side of the VDN app's REST API: its cluster's report, RIB and FIB under
 * {@code /api/v1/vdn/clusters/{id}}, with the REST API's credentials (HTTP basic) and the cluster's agent
 * key (header {@code X-Vdn-Agent-Key}). Every call is asynchronous and bounded by a timeout; a refusal
 * completes exceptionally with the controller's message.
 *
 * <p>Any instance of a controller cluster answers an agent (they share the store). The link speaks to one
 * at a time and moves to the next in its list when that one cannot be reached, times out, or answers 5xx
 * (an instance that is stopping, or cut off from the cluster's store); a 4xx is the agent's own fault and
 * moves nothing. The call that failed is not repeated: the agent reports and polls again on its period.
 */
final class ControllerLink {

    static final String KEY_HEADER = "X-Vdn-Agent-Key";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final DecisionTableJson<String> TABLES = DecisionTableJson.ofStrings();

    private final HttpClient http;
    private final List<URI> controllers;
    private final String clusterPath;
    private final AtomicInteger current = new AtomicInteger();
    private final AtomicLong moves = new AtomicLong();
    private final String authorization;
    private final String key;

    ControllerLink(HttpClient http, List<URI> controllers, String cluster, String user, String password, String key) {
        if (controllers.isEmpty()) {
            throw new IllegalArgumentException("no controller instance");
        }
        this.http = http;
        this.controllers = List.copyOf(controllers);
        this.clusterPath = "/api/v1/vdn/clusters/" + cluster + "/";
        this.authorization = "Basic "
                + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.key = key;
    }

    /** The instance spoken to now (its base URL). */
    URI controller() {
        return controllers.get(current.get());
    }

    /** How many times the link moved to another instance. */
    long moves() {
        return moves.get();
    }

    /** Sends a report; the controller's answer (ribVersion, and how the agent must behave). */
    CompletableFuture<Map<String, Object>> report(Map<String, Object> report) {
        return send(request("report").POST(HttpRequest.BodyPublishers.ofByteArray(Json.compact(report))))
                .thenApply(ControllerLink::object);
    }

    /** The cluster's RIB, empty while the controller has decided none for it (404). */
    CompletableFuture<Optional<DecisionTable<String>>> rib() {
        return exchange(request("rib").GET()).thenApply(response -> {
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
        return HttpRequest.newBuilder(URI.create(controller() + clusterPath + path)).timeout(TIMEOUT)
                .header("Authorization", authorization)
                .header(KEY_HEADER, key)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
    }

    private CompletableFuture<byte[]> send(HttpRequest.Builder request) {
        return exchange(request).thenApply(ControllerLink::body);
    }

    /** One exchange with the current instance; moves to the next when this one is unreachable or failing. */
    private CompletableFuture<HttpResponse<byte[]>> exchange(HttpRequest.Builder builder) {
        HttpRequest request = builder.build();
        int spokenTo = current.get();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
            if (error != null || response.statusCode() >= 500) {
                moveOn(spokenTo);
            }
        });
    }

    /** The next instance after {@code failed}, unless another call already moved on from it. */
    private void moveOn(int failed) {
        if (controllers.size() > 1 && current.compareAndSet(failed, (failed + 1) % controllers.size())) {
            moves.incrementAndGet();
        }
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
