package io.heliograph.testbed;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A client of a controller's live events ({@code GET /api/v1/events}, server-sent events) with a bearer
 * token, as a tool or the web UI reads them: a thread of its own keeps every event with the moment it
 * arrived, so a test can wait for one and time it.
 */
public final class EventStreamClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** An event: its type, its JSON data and when it arrived ({@link System#nanoTime}, and wall-clock milliseconds). */
    public record Event(String type, JsonNode data, long arrivedNanos, long arrivedMillis) {
    }

    private final HttpResponse<InputStream> response;
    private final List<Event> events = new ArrayList<>();
    private int comments;
    private boolean ended;

    private EventStreamClient(HttpResponse<InputStream> response) {
        this.response = response;
        Thread reader = new Thread(this::read, "live-events-client");
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens the stream of the API at {@code base} with {@code bearerToken}; fails with the answer unless it is 200. */
    public static EventStreamClient open(URI base, String bearerToken) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/api/v1/events"))
                .header("Authorization", "Bearer " + bearerToken).header("Accept", "text/event-stream").build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() != 200) {
                String body;
                try (InputStream in = response.body()) {
                    body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
                throw new IllegalStateException("GET /api/v1/events answered " + response.statusCode() + ": " + body);
            }
            return new EventStreamClient(response);
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String type = "message";
            StringBuilder data = null;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isEmpty()) {
                    if (data != null) {
                        Event event = new Event(type, JSON.readTree(data.toString()), System.nanoTime(),
                                System.currentTimeMillis());
                        synchronized (this) {
                            events.add(event);
                        }
                    }
                    type = "message";
                    data = null;
                } else if (line.startsWith(":")) {
                    synchronized (this) {
                        comments++;
                    }
                } else if (line.startsWith("event:")) {
                    type = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(5).strip());
                }
            }
        } catch (IOException e) {
            // a reset or a close() ends the stream as well
        }
        synchronized (this) {
            ended = true;
        }
    }

    /** Every event so far, in arrival order. */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** The first event so far of {@code type} whose data {@code matches}. */
    public synchronized Optional<Event> find(String type, Predicate<JsonNode> matches) {
        return events.stream().filter(e -> e.type().equals(type) && matches.test(e.data())).findFirst();
    }

    /** Waits for the first event of {@code type} whose data {@code matches} (described by {@code what}). */
    public Event await(String what, Duration timeout, String type, Predicate<JsonNode> matches) {
        return Poll.until(what, timeout, Duration.ofMillis(20), () -> find(type, matches), Optional::isPresent)
                .orElseThrow();
    }

    /** Comment lines so far (the opening one and the keep-alives). */
    public synchronized int comments() {
        return comments;
    }

    /** Whether the server ended the stream (or the connection broke). */
    public synchronized boolean ended() {
        return ended;
    }

    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException e) {
            // closing a stream that broke already
        }
    }
}
