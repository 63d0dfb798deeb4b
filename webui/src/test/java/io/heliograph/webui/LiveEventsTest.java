package io.heliograph.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.webui.EventStreamReader.Frame;
import io.heliograph.webui.events.EventStreams;
import io.heliograph.webui.events.EventsResource;

/**
 * GET /api/v1/events on a real Jetty: what is published reaches every stream as server-sent events,
 * authenticated like the rest of the API, with a bound on streams (503 beyond), a bound on each stream's
 * backlog (a client that does not read is dropped, the others and the publisher carry on), keep-alive
 * comments (which also find clients that went away), and every stream completed when the events stop.
 */
@Timeout(60)
class LiveEventsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;
    private RunningServer server;
    private EventsResource events;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    record Move(String action, String mac, List<Integer> ports) {
    }

    /** A payload whose one property cannot be read. */
    public static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("no value");
        }
    }

    private void start(EventStreams.Limits limits) throws IOException {
        server = new RunningServer(dataDir);
        events = new EventsResource(limits);
        server.component.addResource(events);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        if (events != null) {
            events.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private EventStreamReader stream() throws Exception {
        EventStreamReader reader = EventStreamReader.open(client, server.request("/api/v1/events").build());
        toClose.add(reader);
        return reader;
    }

    /** A stream that is open: its headers and opening comment are in. */
    private EventStreamReader openStream() throws Exception {
        EventStreamReader reader = stream();
        assertEquals(200, reader.response.statusCode());
        assertTrue(reader.next(WAIT).isComment(), "a stream opens with a comment");
        return reader;
    }

    @Test
    void publishedEventsReachEveryStreamAsServerSentEventsInOrder() throws Exception {
        start(EventStreams.Limits.DEFAULTS);
        EventStreamReader first = stream();
        assertEquals(200, first.response.statusCode());
        assertEquals("text/event-stream;charset=utf-8",
                first.response.headers().firstValue("Content-Type").orElse("").toLowerCase(java.util.Locale.ROOT));
        assertEquals("no-store", first.response.headers().firstValue("Cache-Control").orElse(""));
        assertTrue(first.next(WAIT).isComment(), "the stream opens with a comment, so the client knows it is open");
        EventStreamReader second = openStream();
        Poll.until(() -> events.openStreams() == 2);

        events.publish("switch", () -> Map.of("action", "connected", "dpid", "00:00:00:00:00:00:00:01"));
        events.publish("host", () -> new Move("moved", "02:00:00:00:00:01", List.of(1, 2)));
        events.publish("link", () -> Map.of("action", "removed", "text", "line one\nline two"));

        for (EventStreamReader reader : List.of(first, second)) {
            Frame s = reader.nextEvent(WAIT);
            assertEquals("switch", s.event());
            assertEquals(JSON.readTree("{\"action\":\"connected\",\"dpid\":\"00:00:00:00:00:00:00:01\"}"),
                    JSON.readTree(s.data()));
            Frame h = reader.nextEvent(WAIT);
            assertEquals("host", h.event());
            assertEquals("{\"action\":\"moved\",\"mac\":\"02:00:00:00:00:01\",\"ports\":[1,2]}", h.data());
            Frame l = reader.nextEvent(WAIT);
            assertEquals("link", l.event());
            // one data line: a newline inside a value is escaped by the JSON, never a second line
            assertEquals("line one\nline two", JSON.readTree(l.data()).get("text").asText());
        }
    }

    @Test
    void theStreamNeedsCredentialsAsTheRestOfTheApi() throws Exception {
        start(EventStreams.Limits.DEFAULTS);
        HttpResponse<String> anonymous = server.getWithout("/api/v1/events");
        assertEquals(401, anonymous.statusCode());
        assertEquals("authentication required", JSON.readTree(anonymous.body()).get("message").asText().split(":")[0]);
        HttpResponse<String> wrong = server.send(HttpRequest.newBuilder(server.uri("/api/v1/events"))
                .header("Authorization", "Bearer not-a-token").build());
        assertEquals(401, wrong.statusCode());
        assertEquals(0, events.openStreams());
    }

    @Test
    void badEventTypesAndPayloadsAreRefusedWithTheReason() throws Exception {
        start(EventStreams.Limits.DEFAULTS);
        openStream();
        IllegalArgumentException reserved = assertThrows(IllegalArgumentException.class,
                () -> events.publish("open", () -> Map.of()));
        assertTrue(reserved.getMessage().contains("'open' is reserved"), reserved.getMessage());
        for (String bad : new String[] {"Switch", "", "switch\ndata: x", "1link"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> events.publish(bad, () -> Map.of()));
            assertTrue(e.getMessage().contains("lower-case letters"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> events.publish("broken", () -> new Unwritable()));
        assertTrue(e.getMessage().startsWith("the payload of a 'broken' event cannot be written as JSON"), e.getMessage());
    }

    @Test
    void streamsBeyondTheLimitAreRefusedWith503UntilOneCloses() throws Exception {
        start(new EventStreams.Limits(2, 1 << 20, Duration.ofSeconds(15)));
        EventStreamReader first = openStream();
        openStream();

        HttpResponse<String> third = server.get("/api/v1/events");
        assertEquals(503, third.statusCode());
        assertEquals("application/json", third.headers().firstValue("Content-Type").orElse(""));
        JsonNode body = JSON.readTree(third.body());
        assertEquals("too many event streams: 2 are open, the most this controller serves; close one or try again later",
                body.get("message").asText());

        first.close();
        // the server learns of a client that left when it writes to it: events or keep-alive comments do
        Poll.until(() -> {
            events.publish("tick", () -> Map.of());
            return events.openStreams() == 1;
        });
        openStream();
        assertEquals(2, events.openStreams());
    }

    @Test
    void aClientThatDoesNotReadIsDroppedWhileTheOthersAndThePublisherCarryOn() throws Exception {
        int backlog = 256 << 10;
        start(new EventStreams.Limits(8, backlog, Duration.ofSeconds(15)));
        EventStreamReader healthy = openStream();
        try (Socket slow = new Socket()) {
            slow.setReceiveBufferSize(1024);
            slow.connect(new java.net.InetSocketAddress("127.0.0.1", server.port()));
            OutputStream request = slow.getOutputStream();
            request.write(("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + server.basic()
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            request.flush();
            Poll.until(() -> events.openStreams() == 2);

            String padding = "x".repeat(1000);
            int sent = 0;
            // rounds the healthy client keeps up with, until the one that never reads is dropped
            while (events.openStreams() == 2) {
                for (int i = 0; i < 100; i++) {
                    int n = sent++;
                    events.publish("tick", () -> Map.of("n", n, "padding", padding));
                }
                for (int expected = sent - 100; expected < sent; expected++) {
                    assertEquals(expected, JSON.readTree(healthy.nextEvent(WAIT).data()).get("n").asInt());
                }
                assertTrue(sent < 100_000, "the client that does not read was never dropped");
            }
            System.out.printf("live events: the client that does not read was dropped after %d events of 1 KB"
                    + " (backlog limit %d bytes)%n", sent, backlog);
            // dropped means disconnected: reading what reached it ends in the end of the stream or a reset
            slow.setSoTimeout((int) WAIT.toMillis());
            InputStream in = slow.getInputStream();
            try {
                while (in.read(new byte[8192]) >= 0) {
                    // what was sent before the drop
                }
            } catch (java.net.SocketException reset) {
                // closed with data unread: a reset
            }
        }
        events.publish("tick", () -> Map.of("n", -1));
        assertEquals(-1, JSON.readTree(healthy.nextEvent(WAIT).data()).get("n").asInt());
        assertEquals(1, events.openStreams());
    }

    @Test
    void idleStreamsGetKeepAliveCommentsAndAClientThatLeftIsFoundByThem() throws Exception {
        start(new EventStreams.Limits(8, 1 << 20, Duration.ofMillis(100)));
        EventStreamReader reader = openStream();
        for (int i = 0; i < 3; i++) {
            Frame frame = reader.next(WAIT);
            assertEquals("keep-alive", frame.comment(), "an idle stream gets keep-alive comments: " + frame);
        }
        reader.close();
        Poll.until(() -> events.openStreams() == 0);
    }

    @Test
    void theStreamOfARevokedTokenEndsAtTheNextKeepAliveWhileOthersCarryOn() throws Exception {
        start(new EventStreams.Limits(8, 1 << 20, Duration.ofMillis(100)));
        JsonNode token = JSON.readTree(server.postJson("/api/v1/auth/tokens", "{\"name\":\"dashboard\"}").body());
        EventStreamReader withToken = EventStreamReader.open(client, HttpRequest.newBuilder(server.uri("/api/v1/events"))
                .header("Authorization", "Bearer " + token.get("token").asText()).build());
        toClose.add(withToken);
        assertEquals(200, withToken.response.statusCode());
        EventStreamReader withPassword = openStream();
        Poll.until(() -> events.openStreams() == 2);

        HttpResponse<String> revoked = server.send(server.request("/api/v1/auth/tokens/" + token.get("id").asText())
                .DELETE().build());
        assertEquals(204, revoked.statusCode(), revoked.body());
        withToken.awaitEnd(WAIT);
        Poll.until(() -> events.openStreams() == 1);

        events.publish("tick", () -> Map.of("n", 1));
        assertEquals(1, JSON.readTree(withPassword.nextEvent(WAIT).data()).get("n").asInt(),
                "the administrator's stream carries on");
    }

    @Test
    void closingTheEventsCompletesEveryStreamAndRefusesNewOnes() throws Exception {
        start(EventStreams.Limits.DEFAULTS);
        EventStreamReader first = openStream();
        EventStreamReader second = openStream();
        events.close();
        first.awaitEnd(WAIT);
        second.awaitEnd(WAIT);
        assertEquals(0, events.openStreams());
        assertEquals(503, server.get("/api/v1/events").statusCode());
    }

    @Test
    void stoppingTheServerEndsOpenStreams() throws Exception {
        start(EventStreams.Limits.DEFAULTS);
        EventStreamReader reader = openStream();
        server.close();
        server = null;
        assertEquals(0, events.openStreams(), "ended before the server stopped, not at the next keep-alive");
        reader.awaitEnd(WAIT);
    }

    @Test
    void aServerThatRestartsEndsItsStreamsAndTheResourceTakesNewOnes() throws Exception {
        start(EventStreams.Limits.DEFAULTS);
        EventStreamReader reader = openStream();
        server.close();
        reader.awaitEnd(WAIT);
        server = new RunningServer(dataDir);
        server.component.addResource(events);
        EventStreamReader again = openStream();
        Poll.until(() -> events.openStreams() == 1);
        events.publish("switch", () -> java.util.Map.of("action", "added"));
        assertEquals("switch", again.nextEvent(WAIT).event(), "the resource serves the new server's streams");
    }

    @Test
    void theOpenApiDocumentDescribesTheStream() throws Exception {
        start(EventStreams.Limits.DEFAULTS);
        JsonNode get = JSON.readTree(server.get("/api/v1/openapi.json").body()).at("/paths/~1api~1v1~1events/get");
        assertTrue(get.get("summary").asText().startsWith("A text/event-stream"), get.toString());
        assertTrue(get.at("/responses/200/content").has("text/event-stream"), get.toString());
    }

    /** Polls a condition every 10 ms until it holds, for up to 20 s. */
    private static final class Poll {
        static void until(java.util.function.BooleanSupplier condition) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("not within " + WAIT);
                }
                Thread.sleep(10);
            }
        }
    }
}
