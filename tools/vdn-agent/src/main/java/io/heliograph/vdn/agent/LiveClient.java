package io.heliograph.vdn.agent;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The chunk fetcher of §4.8's emulation: plays one channel from an edge, starting at the live chunk and
 * asking for each next chunk one chunk duration after the previous one arrived; when denied (503) it
 * falls back to the next lower bitrate at once, and at the lowest waits a chunk duration and asks again.
 * It measures its join time (first request to the first byte of its first chunk), the chunks and mean
 * bitrate it got, and its stalls against a player that starts playing at the first chunk: a chunk arriving
 * after the buffer ran dry stalls playback for the difference ({@code stallMillis}; a gap over
 * {@value #STALL_MILLIS} ms counts as a stall), and each chunk's arrival (milliseconds from the start of
 * the plan) and bitrate, so that a run's bitrate can be read against the load at each moment. Many
 * sessions share one client (asynchronous, a few threads).
 */
final class LiveClient implements AutoCloseable {

    /** A shorter gap is jitter, not a stall. */
    static final long STALL_MILLIS = 100;
    private static final int MAX_FAILURES = 5;

    /** What to play: a video from an edge, as a client of a group, at the first bitrate that is not denied. */
    record Session(URI edge, String group, String video, List<Integer> bitratesKbps, int chunks, long startDelayMillis) {
    }

    /** How a session went. */
    record Result(Session session, long joinMillis, int chunks, long bitrateKbpsMean, int stalls, long stallMillis,
            int denied, int failures, String lastPath, String error, List<Long> chunkAtMillis, List<Long> chunkKbps) {

        boolean complete() {
            return chunks == session.chunks();
        }

        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("edge", session.edge().toString());
            json.put("group", session.group());
            json.put("video", session.video());
            json.put("joinMillis", joinMillis);
            json.put("chunks", (long) chunks);
            json.put("bitrateKbpsMean", bitrateKbpsMean);
            json.put("stalls", (long) stalls);
            json.put("stallMillis", stallMillis);
            json.put("denied", (long) denied);
            json.put("failures", (long) failures);
            json.put("path", lastPath);
            json.put("error", error);
            json.put("chunkAtMillis", chunkAtMillis);
            json.put("chunkKbps", chunkKbps);
            return json;
        }
    }

    private final HttpClient http;
    private final ScheduledExecutorService timer;
    private final int chunkSeconds;
    private final long streamStartMillis;
    private final AtomicLong ids = new AtomicLong();
    private final String prefix = "c" + Long.toHexString(System.nanoTime() & 0xffffff) + "-";

    LiveClient(int chunkSeconds, long streamStartMillis) {
        this.chunkSeconds = chunkSeconds;
        this.streamStartMillis = streamStartMillis;
        this.timer = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "vdn-client");
            t.setDaemon(true);
            return t;
        });
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                .executor(timer).build();
    }

    /** Plays a session; the future completes when it has its chunks or gave up. */
    CompletableFuture<Result> play(Session session) {
        Play play = new Play(session, prefix + ids.incrementAndGet());
        timer.schedule(play::begin, session.startDelayMillis(), TimeUnit.MILLISECONDS);
        return play.done;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private final class Play {
        final Session session;
        final String id;
        final CompletableFuture<Result> done = new CompletableFuture<>();
        final long chunkMillis = chunkSeconds * 1000L;
        long startNanos;
        long chunk;
        int rung;
        long joinMillis = -1;
        int received;
        long bitrateSum;
        int stalls;
        long stallMillis;
        long playEndNanos;
        int denied;
        int failures;
        int failuresInRow;
        String lastPath;
        final List<Long> chunkAtMillis = new ArrayList<>();
        final List<Long> chunkKbps = new ArrayList<>();

        Play(Session session, String id) {
            this.session = session;
            this.id = id;
        }

        void begin() {
            startNanos = System.nanoTime();
            chunk = Math.max(0, LiveChunk.live(System.currentTimeMillis(), streamStartMillis, chunkSeconds));
            ask();
        }

        void ask() {
            int bitrate = session.bitratesKbps().get(rung);
            HttpRequest.Builder request = HttpRequest.newBuilder(
                    URI.create(session.edge() + "/live/" + session.video() + "/" + bitrate + "/" + chunk))
                    .timeout(Duration.ofMillis(4 * chunkMillis + 30_000)).header(VdnAgent.CLIENT_HEADER, id).GET();
            if (session.group() != null) {
                request.header(VdnAgent.GROUP_HEADER, session.group());
            }
            long[] firstByte = new long[1];
            http.sendAsync(request.build(), info -> {
                firstByte[0] = System.nanoTime();
                return HttpResponse.BodySubscribers.ofByteArray();
            }).whenComplete((response, error) -> {
                try {
                    answered(bitrate, response, error, firstByte[0]);
                } catch (RuntimeException e) {
                    finish(String.valueOf(e));
                }
            });
        }

        void answered(int bitrate, HttpResponse<byte[]> response, Throwable error, long firstByteNanos) {
            if (error == null && response.statusCode() == 503) {
                denied++;
                if (rung < session.bitratesKbps().size() - 1) {
                    rung++;
                    ask();
                } else {
                    timer.schedule(this::ask, chunkMillis, TimeUnit.MILLISECONDS);
                }
                return;
            }
            if (error != null || response.statusCode() != 200
                    || response.body().length != LiveChunk.size(bitrate, chunkSeconds)) {
                failures++;
                if (++failuresInRow >= MAX_FAILURES) {
                    finish(error != null ? String.valueOf(error) : "status " + response.statusCode() + ", "
                            + response.body().length + " bytes");
                } else {
                    timer.schedule(this::ask, chunkMillis, TimeUnit.MILLISECONDS);
                }
                return;
            }
            failuresInRow = 0;
            long arrival = System.nanoTime();
            if (joinMillis < 0) {
                joinMillis = (firstByteNanos - startNanos) / 1_000_000;
                playEndNanos = arrival + chunkMillis * 1_000_000;
            } else if (arrival > playEndNanos) {
                long gap = (arrival - playEndNanos) / 1_000_000;
                stallMillis += gap;
                if (gap > STALL_MILLIS) {
                    stalls++;
                }
                playEndNanos = arrival + chunkMillis * 1_000_000;
            } else {
                playEndNanos += chunkMillis * 1_000_000;
            }
            lastPath = response.headers().firstValue(VdnAgent.PATH_HEADER).orElse(null);
            received++;
            bitrateSum += bitrate;
            chunkAtMillis.add(session.startDelayMillis() + (arrival - startNanos) / 1_000_000);
            chunkKbps.add((long) bitrate);
            chunk++;
            if (received == session.chunks()) {
                finish(null);
            } else {
                timer.schedule(this::ask, chunkMillis, TimeUnit.MILLISECONDS);
            }
        }

        void finish(String error) {
            done.complete(new Result(session, joinMillis, received, received == 0 ? 0 : bitrateSum / received, stalls,
                    stallMillis, denied, failures, lastPath, error, List.copyOf(chunkAtMillis), List.copyOf(chunkKbps)));
        }
    }

    /** The results' summary: sessions, complete ones, mean and median join time, mean bitrate, stalls, denials. */
    static Map<String, Object> summary(List<Result> results) {
        List<Long> joins = new ArrayList<>();
        long bitrate = 0;
        long complete = 0;
        long stalls = 0;
        long denied = 0;
        long played = 0;
        for (Result r : results) {
            if (r.joinMillis() >= 0) {
                joins.add(r.joinMillis());
            }
            if (r.chunks() > 0) {
                bitrate += r.bitrateKbpsMean();
                played++;
            }
            complete += r.complete() ? 1 : 0;
            stalls += r.stalls();
            denied += r.denied();
        }
        joins.sort(null);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("sessions", (long) results.size());
        summary.put("complete", complete);
        summary.put("joinMillisMean", joins.isEmpty() ? null : joins.stream().mapToLong(Long::longValue).sum() / joins.size());
        summary.put("joinMillisMedian", joins.isEmpty() ? null : joins.get((joins.size() - 1) / 2));
        summary.put("bitrateKbpsMean", played == 0 ? 0L : bitrate / played);
        summary.put("stalls", stalls);
        summary.put("denied", denied);
        return summary;
    }
}
