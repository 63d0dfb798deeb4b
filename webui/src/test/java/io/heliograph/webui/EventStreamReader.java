package io.heliograph.webui;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A server-sent event stream read on a thread of its own, frame by frame: {@code event:}/{@code data:}
 * blocks and comment lines, in the order they arrive, then an end marker when the stream ends.
 */
final class EventStreamReader implements AutoCloseable {

    /** An event (type and data), a comment (comment set), or the stream's end ({@link #END}). */
    record Frame(String event, String data, String comment) {
        boolean isComment() {
            return comment != null;
        }
    }

    static final Frame END = new Frame(null, null, null);

    final HttpResponse<InputStream> response;
    private final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
    private final Thread thread;

    private EventStreamReader(HttpResponse<InputStream> response) {
        this.response = response;
        thread = new Thread(this::read, "event-stream-reader");
        thread.setDaemon(true);
        thread.start();
    }

    /** Sends {@code request} and, once the answer's headers are in, reads its body (whatever the status). */
    static EventStreamReader open(HttpClient client, HttpRequest request) throws IOException, InterruptedException {
        return new EventStreamReader(client.send(request, HttpResponse.BodyHandlers.ofInputStream()));
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String event = null;
            StringBuilder data = null;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isEmpty()) {
                    if (data != null) {
                        frames.add(new Frame(event == null ? "message" : event, data.toString(), null));
                    }
                    event = null;
                    data = null;
                } else if (line.startsWith(":")) {
                    frames.add(new Frame(null, null, line.substring(1).strip()));
                } else if (line.startsWith("event:")) {
                    event = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(5).strip());
                }
            }
        } catch (IOException e) {
            // a reset connection ends the stream as well
        }
        frames.add(END);
    }

    /** The next frame, or fails after {@code timeout}. */
    Frame next(Duration timeout) throws InterruptedException {
        Frame frame = frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (frame == null) {
            throw new AssertionError("no frame within " + timeout);
        }
        return frame;
    }

    /** The next event, skipping comments; fails after {@code timeout} or if the stream ends first. */
    Frame nextEvent(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (;;) {
            Frame frame = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (frame == END) {
                throw new AssertionError("the stream ended before the next event");
            }
            if (!frame.isComment()) {
                return frame;
            }
        }
    }

    /** Waits for the end of the stream, skipping whatever comes before it. */
    void awaitEnd(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime()))) != END) {
            // skip
        }
    }

    @Override
    public void close() throws IOException {
        response.body().close();
    }
}
