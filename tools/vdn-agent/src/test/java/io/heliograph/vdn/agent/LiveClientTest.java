package io.heliograph.vdn.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The emulation's instrument checked against a reference: a chunk server that answers on a known plan
 * (a denial, a slow first chunk, one late chunk) and notes when each request arrived and when it sent each
 * answer. What the client measures (join, stalls, arrivals, bitrate) must agree with the server's own
 * clock; the client's figures may only exceed it by what the loopback and its timers add.
 */
class LiveClientTest {

    private static final int CHUNK_SECONDS = 1;
    private static final long FIRST_CHUNK_DELAY_MILLIS = 300;
    private static final long LATE_CHUNK_DELAY_MILLIS = 500;
    /** What loopback, thread hand-offs and a loaded test machine may add to a client-side figure. */
    private static final long SLACK_MILLIS = 250;

    /** One answer as the server saw it. */
    private record Answered(int status, int bitrateKbps, long arrivedNanos, long sentNanos) {
    }

    private final List<Answered> answers = new ArrayList<>();
    private HttpServer server;
    private LiveClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            AgentFixtures.stop(server);
        }
    }

    /**
     * {@code /live/v0/{bitrate}/{chunk}}: 800 kbit/s is denied; at 400 the first chunk comes after 300 ms,
     * the third after 500 ms, the others at once.
     */
    private void handle(HttpExchange exchange) throws IOException {
        long arrived = System.nanoTime();
        String[] path = exchange.getRequestURI().getPath().split("/");
        int bitrate = Integer.parseInt(path[3]);
        long chunk = Long.parseLong(path[4]);
        try (exchange) {
            if (bitrate == 800) {
                exchange.sendResponseHeaders(503, -1);
                record(new Answered(503, bitrate, arrived, System.nanoTime()));
                return;
            }
            int served = served();
            long delay = served == 0 ? FIRST_CHUNK_DELAY_MILLIS : served == 2 ? LATE_CHUNK_DELAY_MILLIS : 0;
            sleepUntil(arrived + TimeUnit.MILLISECONDS.toNanos(delay));
            byte[] body = LiveChunk.content("v0", bitrate, chunk, CHUNK_SECONDS);
            exchange.getResponseHeaders().set(VdnAgent.PATH_HEADER, "E1,S1");
            long sent = System.nanoTime();
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            record(new Answered(200, bitrate, arrived, sent));
        }
    }

    private synchronized void record(Answered answered) {
        answers.add(answered);
    }

    private synchronized int served() {
        return (int) answers.stream().filter(a -> a.status() == 200).count();
    }

    private synchronized List<Answered> answers() {
        return List.copyOf(answers);
    }

    /** The server's plan is the reference, so it keeps its own time (the test's condition is the clock itself). */
    private static void sleepUntil(long nanos) {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Test
    void joinStallsArrivalsAndBitrateAgreeWithTheServersClock() throws Exception {
        server = AgentFixtures.loopback("/live/", this::handle);
        client = new LiveClient(CHUNK_SECONDS, System.currentTimeMillis() - 60_000);
        URI edge = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        LiveClient.Result result = client.play(new LiveClient.Session(edge, "G1", "v0", List.of(800, 400), 4, 0))
                .get(30, TimeUnit.SECONDS);

        List<Answered> seen = answers();
        List<Answered> chunks = seen.stream().filter(a -> a.status() == 200).toList();
        assertNull(result.error());
        assertEquals(4, result.chunks());
        assertEquals(1, result.denied(), "the 800 kbit/s request was refused once");
        assertEquals(400, result.bitrateKbpsMean());
        assertEquals(List.of(400L, 400L, 400L, 400L), result.chunkKbps());
        assertEquals("E1,S1", result.lastPath());

        // join: the first request's arrival to the first chunk's first byte, on the server's clock
        long join = millis(chunks.get(0).sentNanos() - seen.get(0).arrivedNanos());
        assertTrue(join >= FIRST_CHUNK_DELAY_MILLIS, "the server's plan held: " + join);
        assertBetween(join, result.joinMillis(), "join time");

        // the client asks each next chunk one chunk after the previous arrived, so each chunk's wait at the
        // server is how long playback ran dry before it: only the late chunk's counts as a stall
        long dry = 0;
        for (Answered a : chunks.subList(1, chunks.size())) {
            dry += millis(a.sentNanos() - a.arrivedNanos());
        }
        assertTrue(dry >= LATE_CHUNK_DELAY_MILLIS, "the server's plan held: " + dry);
        assertBetween(dry, result.stallMillis(), "time stalled");
        assertTrue(result.stalls() >= 1, "the late chunk is a stall: " + result);
        System.out.printf("LiveClientTest: join %d ms (server %d ms), stalled %d ms (server %d ms)%n", result.joinMillis(),
                join, result.stallMillis(), dry);

        // arrivals, relative to the first: the server's send times
        List<Long> at = result.chunkAtMillis();
        for (int k = 1; k < chunks.size(); k++) {
            long apart = millis(chunks.get(k).sentNanos() - chunks.get(0).sentNanos());
            long measured = at.get(k) - at.get(0);
            assertTrue(Math.abs(measured - apart) <= SLACK_MILLIS, "chunk " + k + "'s arrival after the first: the client"
                    + " measured " + measured + " ms, the server sent it " + apart + " ms after");
        }
        assertTrue(at.get(3) - at.get(2) >= CHUNK_SECONDS * 1000, "the next chunk is asked a chunk after the last: " + at);
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    /** {@code measured} is the reference plus at most what the loopback and timers add (1 ms for rounding). */
    private static void assertBetween(long reference, long measured, String what) {
        assertTrue(measured >= reference - 1 && measured <= reference + SLACK_MILLIS,
                what + ": the client measured " + measured + " ms, the server " + reference + " ms");
    }
}
