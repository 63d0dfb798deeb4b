package io.heliograph.webui.events;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.core.WorkerThreads;
import io.heliograph.webui.RestJson;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.LiveEvents;
import io.heliograph.webui.auth.Authentication;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The open server-sent event streams and the events published to them. Publishing writes the event as
 * JSON once and appends the frame to each stream's backlog; one thread, "heliograph-live-events", hands
 * backlogs to the connections without ever waiting for one (non-blocking servlet output), and sends a
 * comment line to every stream each keep-alive period so that a dead client's connection fails and is
 * found; at that moment each stream's credentials are checked again, and the stream of a token revoked
 * or expired since it opened is ended. The number of streams and each stream's backlog are bounded: beyond the first a new stream is
 * refused with 503, beyond the second the stream is dropped and its client reconnects.
 */
public final class EventStreams implements LiveEvents, AutoCloseable {

    /**
     * @param maxStreams      streams open at once; one more is refused with 503
     * @param maxBacklogBytes bytes published to a stream and not yet taken by its connection; one more drops it
     * @param keepAlive       how often an idle stream gets a comment line
     */
    public record Limits(int maxStreams, long maxBacklogBytes, Duration keepAlive) {

        /** 64 streams (a UI tab each, and tools), 1 MiB behind (thousands of events), a comment every 15 s. */
        public static final Limits DEFAULTS = new Limits(64, 1 << 20, Duration.ofSeconds(15));

        public Limits {
            if (maxStreams < 1) {
                throw new IllegalArgumentException("maxStreams must be at least 1, was " + maxStreams);
            }
            if (maxBacklogBytes < 1024) {
                throw new IllegalArgumentException("maxBacklogBytes must be at least 1024, was " + maxBacklogBytes);
            }
            if (keepAlive.toMillis() < 1) {
                throw new IllegalArgumentException("keepAlive must be at least a millisecond, was " + keepAlive);
            }
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(EventStreams.class);
    private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9-]{0,31}");
    /** The web UI's name for a stream that (re)connected: never published. */
    static final String RESERVED_TYPE = "open";
    private static final byte[] OPENING = ": heliograph live events\n\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8);

    private final Limits limits;
    private final ObjectMapper json = RestJson.objectMapper();
    private final Set<EventStream> open = ConcurrentHashMap.newKeySet();
    /** Streams open or being opened: the bound is checked and taken in one step. */
    private final AtomicInteger taken = new AtomicInteger();
    private final ScheduledExecutorService writer;
    private volatile boolean closed;

    public EventStreams(Limits limits) {
        this.limits = limits;
        writer = WorkerThreads.single("heliograph-live-events");
        long period = limits.keepAlive().toMillis();
        writer.scheduleWithFixedDelay(this::keepAlive, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Turns the request into an event stream: 200 with {@code text/event-stream} at once, then the events
     * published from now on. Refuses with 503 (nothing started) when the streams are full or closing.
     */
    void open(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (closed) {
            throw ApiException.unavailable("live events are shutting down");
        }
        if (taken.incrementAndGet() > limits.maxStreams()) {
            taken.decrementAndGet();
            throw ApiException.unavailable("too many event streams: " + limits.maxStreams()
                    + " are open, the most this controller serves; close one or try again later");
        }
        EventStream stream;
        try {
            response.setStatus(200);
            response.setContentType("text/event-stream");
            response.setCharacterEncoding("UTF-8");
            response.setHeader("Cache-Control", "no-store");
            // Proxies that buffer responses (nginx) would hold events back.
            response.setHeader("X-Accel-Buffering", "no");
            AsyncContext async = request.startAsync(request, response);
            async.setTimeout(0); // a stream lasts as long as its client; dead clients are found by writing
            ServletOutputStream out = response.getOutputStream();
            stream = new EventStream(async, out, client(request), stillValid(request), limits.maxBacklogBytes(), writer,
                    this::ended);
            async.addListener(stream);
            stream.offer(OPENING); // commits the response, so the client knows the stream is open
        } catch (IOException | RuntimeException e) {
            taken.decrementAndGet();
            throw e;
        }
        open.add(stream);
        if (stream.isEnded()) {
            ended(stream); // it ended before it was in the set: release its place now
        }
        response.getOutputStream().setWriteListener(stream);
        stream.listening();
        LOG.debug("event stream of {} opened ({} open)", stream.client(), open.size());
    }

    @Override
    public void publish(String type, Supplier<?> payload) {
        if (type == null || !TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException("event type '" + type + "' is not a name of lower-case letters,"
                    + " digits and dashes starting with a letter (at most 32), such as 'switch'");
        }
        if (RESERVED_TYPE.equals(type)) {
            throw new IllegalArgumentException("event type 'open' is reserved: the web UI delivers it when its"
                    + " stream (re)connects");
        }
        if (open.isEmpty()) {
            return;
        }
        byte[] data;
        try {
            data = json.writeValueAsBytes(payload.get());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the payload of a '" + type + "' event cannot be written as JSON: "
                    + e.getOriginalMessage(), e);
        }
        byte[] head = ("event: " + type + "\ndata: ").getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[head.length + data.length + 2];
        System.arraycopy(head, 0, frame, 0, head.length);
        System.arraycopy(data, 0, frame, head.length, data.length);
        frame[frame.length - 2] = '\n';
        frame[frame.length - 1] = '\n';
        offerToAll(frame);
    }

    private void offerToAll(byte[] frame) {
        for (EventStream stream : open) {
            if (!stream.offer(frame)) {
                LOG.info("event stream of {} dropped: it is {} bytes behind, the limit is {}", stream.client(),
                        stream.backlogBytes(), limits.maxBacklogBytes());
                stream.endLater(true);
            }
        }
    }

    private void keepAlive() {
        for (EventStream stream : open) {
            if (!stream.credentialsStillValid()) {
                LOG.info("event stream of {} ended: its credentials were revoked or expired", stream.client());
                stream.endLater(false);
            }
        }
        offerToAll(KEEP_ALIVE);
    }

    /** Streams open now. */
    public int openStreams() {
        return open.size();
    }

    /** Completes every stream open now (clients see the end of their stream); new ones may open. */
    public void endAll() {
        for (EventStream stream : List.copyOf(open)) {
            stream.end(false);
        }
    }

    /** Completes every stream (clients see the end of their stream) and refuses new ones. */
    @Override
    public void close() {
        closed = true;
        endAll();
        writer.shutdown();
        try {
            // streams dropped just before still have their connection closed on the writer thread
            if (!writer.awaitTermination(2, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void ended(EventStream stream) {
        if (open.remove(stream)) {
            taken.decrementAndGet();
            LOG.debug("event stream of {} ended ({} open)", stream.client(), open.size());
        }
    }

    /** The authentication filter's check of the request's credentials; a request it did not see stays valid. */
    private static BooleanSupplier stillValid(HttpServletRequest request) {
        return request.getAttribute(Authentication.STILL_VALID) instanceof BooleanSupplier check ? check : () -> true;
    }

    private static String client(HttpServletRequest request) {
        Object principal = request.getAttribute(Authentication.PRINCIPAL);
        return request.getRemoteAddr() + ":" + request.getRemotePort() + (principal != null ? " (" + principal + ")" : "");
    }
}
