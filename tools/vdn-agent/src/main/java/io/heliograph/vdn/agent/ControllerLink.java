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
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

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
    private final Consumer<String> log;

    ControllerLink(HttpClient http, List<URI> controllers, String cluster, String user, String password, String key,
            Consumer<String> log) {
        if (controllers.isEmpty()) {
            throw new IllegalArgumentException("no controller instance");
        }
        this.http = http;
        this.controllers = List.copyOf(controllers);
        this.clusterPath = "/api/v1/vdn/clusters/" + cluster + "/";
        this.authorization = "Basic "
                + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.key = key;
        this.log = log;
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
        return exchange("report", builder -> builder.POST(HttpRequest.BodyPublishers.ofByteArray(Json.compact(report))))
                .thenApply(ControllerLink::body).thenApply(ControllerLink::object);
    }

    /** The cluster's RIB, empty while the controller has decided none for it (404). */
    CompletableFuture<Optional<DecisionTable<String>>> rib() {
        return exchange("rib", HttpRequest.Builder::GET).thenApply(response -> {
            if (response.statusCode() == 404) {
                return Optional.empty();
            }
            return Optional.of(TABLES.decode(body(response)));
        });
    }

    /** Publishes the FIB and serving figures. */
    CompletableFuture<Map<String, Object>> putFib(Map<String, Object> fib) {
        return exchange("fib", builder -> builder.PUT(HttpRequest.BodyPublishers.ofByteArray(Json.compact(fib))))
                .thenApply(ControllerLink::body).thenApply(ControllerLink::object);
    }

    /**
     * One exchange with the current instance; moves to the next when this one is unreachable or failing. The
     * instance is read once: the request goes to it and only its failure moves the link.
     */
    private CompletableFuture<HttpResponse<byte[]>> exchange(String path, UnaryOperator<HttpRequest.Builder> method) {
        int spokenTo = current.get();
        HttpRequest request = method.apply(HttpRequest.newBuilder(URI.create(controllers.get(spokenTo) + clusterPath + path))
                .timeout(TIMEOUT)
                .header("Authorization", authorization)
                .header(KEY_HEADER, key)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
            if (error != null || response.statusCode() >= 500) {
                moveOn(spokenTo, error != null ? VdnAgent.why(error) : "answered " + response.statusCode());
            }
        });
    }

    /** The next instance after {@code failed}, unless another call already moved on from it. */
    private void moveOn(int failed, String why) {
        int next = (failed + 1) % controllers.size();
        if (controllers.size() > 1 && current.compareAndSet(failed, next)) {
            moves.incrementAndGet();
            log.accept("controller instance " + controllers.get(failed) + " failed (" + why + "); speaking to "
                    + controllers.get(next));
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
