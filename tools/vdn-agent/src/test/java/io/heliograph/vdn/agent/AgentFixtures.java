package io.heliograph.vdn.agent;

import static org.junit.jupiter.api.Assertions.fail;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.heliograph.core.hybrid.Decision;
import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.hybrid.DecisionTableJson;
import io.heliograph.core.hybrid.Evidence;
import io.heliograph.core.hybrid.Origin;
import io.heliograph.core.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** Agents, fake parents and a fake controller on loopback, and waiting for a condition with a deadline. */
final class AgentFixtures {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private AgentFixtures() {
    }

    /** A free loopback port (agents that advertise to each other need each other's URLs before they start). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static URI local(int port) {
        return URI.create("http://127.0.0.1:" + port);
    }

    static Map<String, Object> parent(String id, URI url, long capacityKbps) {
        return Map.of("id", id, "url", url.toString(), "capacityKbps", capacityKbps);
    }

    static Map<String, Object> child(String id, URI url) {
        return Map.of("id", id, "url", url.toString());
    }

    /** A configuration of these members (JSON values) on top of the essentials. */
    static AgentConfig config(String cluster, String tier, int port, Map<String, Object> more) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("cluster", cluster);
        json.put("tier", tier);
        json.put("listen", "127.0.0.1:" + port);
        json.put("chunkSeconds", 1L);
        json.put("seed", 7L);
        json.putAll(more);
        return AgentConfig.read(Json.parse(Json.compact(json)));
    }

    static HttpResponse<byte[]> get(URI uri, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    static HttpResponse<byte[]> post(URI uri, String body) {
        return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static HttpResponse<byte[]> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    /** The live chunk now, for chunks of one second from the epoch. */
    static long liveChunk() {
        return LiveChunk.live(System.currentTimeMillis(), 0, 1);
    }

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("gave up waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for " + what);
            }
        }
    }

    /** A server on a free loopback port with one handler. */
    static HttpServer loopback(String context, HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext(context, handler);
        server.start();
        return server;
    }

    static void stop(HttpServer server) {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }

    /** A RIB of one cluster: key to next hop, each with the evidence of the link from the hop. */
    static DecisionTable<String> rib(String cluster, long version, Map<String, String> hops, long capacityKbps) {
        List<Decision<String>> decisions = new ArrayList<>();
        Instant at = Instant.ofEpochMilli(System.currentTimeMillis());
        hops.forEach((key, hop) -> decisions.add(new Decision<>(key, hop, Origin.CENTRAL, version,
                Evidence.of(Map.of(hop + "->" + cluster, (double) capacityKbps)), at)));
        return new DecisionTable<>(cluster, version, at, decisions);
    }

    /**
     * A parent that is not an agent: it serves every chunk at once (the content a source would send) and
     * counts the requests and the RIB versions they were tagged with.
     */
    static final class FakeParent implements AutoCloseable {
        final String id;
        final HttpServer server;
        final AtomicInteger requests = new AtomicInteger();
        final List<String> versions = new CopyOnWriteArrayList<>();

        FakeParent(String id) throws IOException {
            this.id = id;
            server = loopback("/live/", this::live);
        }

        URI url() {
            return local(server.getAddress().getPort());
        }

        private void live(HttpExchange exchange) throws IOException {
            requests.incrementAndGet();
            String version = exchange.getRequestHeaders().getFirst(VdnAgent.VERSION_HEADER);
            versions.add(version == null ? "none" : version);
            String[] parts = exchange.getRequestURI().getPath().split("/");
            byte[] body = LiveChunk.content(parts[2], Integer.parseInt(parts[3]), Long.parseLong(parts[4]), 1);
            exchange.getResponseHeaders().set(VdnAgent.PATH_HEADER, id);
            exchange.sendResponseHeaders(200, body.length);
            try (exchange) {
                exchange.getResponseBody().write(body);
            }
        }

        /** Tells the agent at {@code child} this parent's distances: {key: [hops, capacity]}. */
        void advertise(URI child, Map<String, long[]> distances) {
            StringBuilder json = new StringBuilder("{\"sender\":\"" + id + "\",\"distances\":{");
            distances.forEach((key, d) -> json.append(json.charAt(json.length() - 1) == '{' ? "" : ",").append('"').append(key)
                    .append("\":{\"hops\":").append(d[0]).append(",\"capacityKbps\":").append(d[1]).append('}'));
            json.append("}}");
            HttpResponse<byte[]> response = post(URI.create(child + "/vdn/dv"), json.toString());
            if (response.statusCode() != 204) {
                fail("advertising " + json + ": " + response.statusCode() + " " + text(response));
            }
        }

        @Override
        public void close() {
            stop(server);
        }
    }

    /**
     * The VDN app's agent endpoints as a test sets them: the RIB it answers (404 before one is set, 503 while
     * silent), the reports and FIBs it was sent, the agent settings it answers reports with.
     */
    static final class FakeController implements AutoCloseable {
        final HttpServer server;
        final List<Map<String, Object>> reports = new CopyOnWriteArrayList<>();
        final List<Map<String, Object>> fibs = new CopyOnWriteArrayList<>();
        final List<String> authorizations = new CopyOnWriteArrayList<>();
        volatile byte[] rib;
        volatile boolean silent;
        volatile long controllerTimeoutSeconds = 120;
        private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

        FakeController() throws IOException {
            server = loopback("/api/v1/vdn/clusters/", this::cluster);
        }

        URI url() {
            return local(server.getAddress().getPort());
        }

        void rib(DecisionTable<String> table) {
            rib = DecisionTableJson.ofStrings().encode(table);
        }

        @SuppressWarnings("unchecked")
        private void cluster(HttpExchange exchange) throws IOException {
            try (exchange) {
                authorizations.add(exchange.getRequestHeaders().getFirst("Authorization") + " "
                        + exchange.getRequestHeaders().getFirst(ControllerLink.KEY_HEADER));
                String[] parts = exchange.getRequestURI().getPath().split("/");
                String cluster = parts[5];
                String what = parts[6];
                if (silent) {
                    answer(exchange, 503, "{\"status\":503,\"error\":\"Service Unavailable\",\"field\":null,\"message\":\"down\"}");
                    return;
                }
                switch (what) {
                    case "rib" -> {
                        byte[] table = rib;
                        if (table == null) {
                            answer(exchange, 404, "{\"status\":404,\"error\":\"Not Found\",\"field\":\"cluster\",\"message\":\"no RIB\"}");
                        } else {
                            exchange.sendResponseHeaders(200, table.length);
                            exchange.getResponseBody().write(table);
                        }
                    }
                    case "report" -> {
                        reports.add((Map<String, Object>) Json.parse(exchange.getRequestBody().readAllBytes()));
                        answer(exchange, 200, "{\"cluster\":\"" + cluster + "\",\"ribVersion\":0,\"agent\":{\"stalePercent\":20,"
                                + "\"controllerTimeoutSeconds\":" + controllerTimeoutSeconds + ",\"shadowVersions\":3,\"periodSeconds\":60}}");
                    }
                    case "fib" -> {
                        fibs.add((Map<String, Object>) Json.parse(exchange.getRequestBody().readAllBytes()));
                        answer(exchange, 200, "{\"cluster\":\"" + cluster + "\",\"entries\":0}");
                    }
                    default -> answer(exchange, 404, "{}");
                }
            }
        }

        private static void answer(HttpExchange exchange, int status, String json) throws IOException {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        }

        @Override
        public void close() {
            if (!closed.getAndSet(true)) {
                stop(server);
            }
        }
    }
}
