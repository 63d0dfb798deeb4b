package io.heliograph.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Polls the controller's health resource ({@code {"status":"UP","switches":N}}) on a daemon thread,
 * every 50 ms until the count first reaches the target, every second after that: the controller's
 * own word on how many switches finished their handshake. Read from any thread.
 */
final class ControllerHealth implements AutoCloseable {

    private static final Pattern SWITCHES = Pattern.compile("\"switches\"\\s*:\\s*(\\d+)");
    private static final long FAST_POLL_MS = 50;
    private static final long SLOW_POLL_MS = 1000;

    private final URI uri;
    private final int target;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Thread poller;
    private volatile int switches = -1;
    /** System.nanoTime when the count first reached the target; 0 until then. */
    private volatile long reachedAt;
    private volatile String problem;

    private ControllerHealth(URI uri, int target) {
        this.uri = uri;
        this.target = target;
        this.poller = new Thread(this::poll, "health-poller");
        poller.setDaemon(true);
    }

    /** Starts polling {@code uri} until closed. */
    static ControllerHealth start(URI uri, int target) {
        ControllerHealth health = new ControllerHealth(uri, target);
        health.poller.start();
        return health;
    }

    /** The last count the controller gave; -1 before its first answer. */
    int switches() {
        return switches;
    }

    /** When (System.nanoTime) the count first reached the target; 0 if it has not. */
    long reachedAt() {
        return reachedAt;
    }

    /** The last failure to read the count, or null. */
    String problem() {
        return problem;
    }

    private void poll() {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                long now = System.nanoTime();
                Matcher m = SWITCHES.matcher(response.body());
                if (response.statusCode() == 200 && m.find()) {
                    int count = Integer.parseInt(m.group(1));
                    switches = count;
                    if (count >= target && reachedAt == 0) {
                        reachedAt = now;
                    }
                    problem = null;
                } else {
                    problem = "HTTP " + response.statusCode() + " from " + uri + ": " + response.body();
                }
                Thread.sleep(reachedAt == 0 ? FAST_POLL_MS : SLOW_POLL_MS);
            } catch (IOException e) {
                problem = uri + ": " + e;
                try {
                    Thread.sleep(SLOW_POLL_MS);
                } catch (InterruptedException stop) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        poller.interrupt();
    }
}
