package io.heliograph.openflow;

import java.io.IOException;
import java.net.ProtocolException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFStatsType;
import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.OFErrorException;
import io.netty.util.concurrent.EventExecutor;

/**
 * Requests waiting for their answer, keyed by xid. Registration and timeouts work from any thread
 * (the map is concurrent; timers run on the switch's loop); answers arrive on the switch's loop, so
 * multipart parts are collected without locks. Futures complete on the switch's loop: their
 * dependent stages must not block.
 *
 * <p>The apps' requests are bounded ({@code maxPendingRequests}): one beyond the bound fails at
 * once, so a switch that never answers cannot make the controller hold requests without end. The
 * controller's own (handshake, keepalive, role) are not: there are a handful per switch.
 */
final class PendingRequests {

    private final EventExecutor loop;
    private final Object owner;
    private final int maxBounded;
    private final Runnable refused;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicInteger bounded = new AtomicInteger();

    /** {@code refused} is told (on the caller's thread) of each request the bound refuses. */
    PendingRequests(EventExecutor loop, Object owner, int maxBounded, Runnable refused) {
        this.loop = loop;
        this.owner = owner;
        this.maxBounded = maxBounded;
        this.refused = refused;
    }

    /** Registers one of the controller's own requests before it is written; it fails after {@code timeout}. */
    <T> CompletableFuture<T> register(OFMessage request, boolean multipart, Duration timeout) {
        return register(request, multipart, timeout, false);
    }

    /**
     * Registers a request before it is written; the future fails after {@code timeout} without an
     * answer. A {@code bounded} one (an app's) fails at once with a {@link RejectedExecutionException}
     * when {@code maxPendingRequests} of them already wait.
     */
    <T> CompletableFuture<T> register(OFMessage request, boolean multipart, Duration timeout, boolean bounded) {
        CompletableFuture<T> future = new CompletableFuture<>();
        if (bounded && this.bounded.incrementAndGet() > maxBounded) {
            this.bounded.decrementAndGet();
            future.completeExceptionally(new RejectedExecutionException(owner + " already has " + maxBounded
                    + " requests awaiting answers (maxPendingRequests): " + request.getType() + " refused"));
            refused.run();
            return future;
        }
        OFStatsType statsType = request instanceof OFStatsRequest<?> stats ? stats.getStatsType() : null;
        Pending p = new Pending(future, request.getType(), replyType(request.getType()), statsType, multipart, bounded);
        long xid = request.getXid();
        if (pending.putIfAbsent(xid, p) != null) {
            release(p);
            future.completeExceptionally(new IllegalStateException("xid " + xid + " already awaits an answer"));
            return future;
        }
        try {
            p.timer = loop.schedule(() -> {
                if (remove(xid, p)) {
                    p.future.completeExceptionally(new TimeoutException(request.getType() + " xid " + xid + " to "
                            + owner + " unanswered after " + timeout.toMillis() + " ms"));
                }
            }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The controller is shutting down: the switch's loop takes no more work.
            remove(xid, p);
            future.completeExceptionally(new IOException(owner + " is shutting down", e));
        }
        return future;
    }

    /**
     * Offers an incoming message as an answer. Returns true when it answered (or was part of the
     * answer to) a pending request; false means it is unsolicited and goes to the pipeline.
     */
    boolean offer(OFMessage message) {
        if (pending.isEmpty()) {
            return false; // the common case on the fast path: nothing awaits an answer
        }
        long xid = message.getXid();
        Pending p = pending.get(xid);
        if (p == null) {
            return false;
        }
        if (message instanceof OFErrorMsg error) {
            finish(xid, p);
            p.future.completeExceptionally(new OFErrorException(error));
            return true;
        }
        if (message.getType() != p.replyType) {
            return false;
        }
        if (p.multipart) {
            OFStatsReply part = (OFStatsReply) message;
            if (p.statsType != null && part.getStatsType() != p.statsType) {
                // Handed on, it would be read as the statistics asked for (a ClassCastException in the app).
                fail(xid, p, new ProtocolException(p.requestType + " xid " + xid + " for " + p.statsType
                        + " statistics was answered by " + owner + " with " + part.getStatsType() + " statistics"));
                return true;
            }
            p.parts.add(part);
            if (!part.getFlags().contains(OFStatsReplyFlags.REPLY_MORE)) {
                finish(xid, p);
                p.future.complete(List.copyOf(p.parts));
            }
        } else {
            finish(xid, p);
            p.future.complete(message);
        }
        return true;
    }

    /**
     * A message with this xid arrived that could not be decoded: if a request waits for it, it fails
     * now, naming the problem, rather than at its timeout. Returns whether one did.
     */
    boolean answerUndecodable(long xid, String problem) {
        Pending p = pending.get(xid);
        if (p == null) {
            return false;
        }
        fail(xid, p, new ProtocolException(p.requestType + " xid " + xid + " to " + owner
                + " was answered with a message that cannot be decoded: " + problem));
        return true;
    }

    /** Fails the request with this xid, if it is still pending (e.g. the write did not happen). */
    void fail(long xid, Throwable cause) {
        Pending p = pending.get(xid);
        if (p != null) {
            fail(xid, p, cause);
        }
    }

    private void fail(long xid, Pending p, Throwable cause) {
        if (remove(xid, p)) {
            if (p.timer != null) {
                p.timer.cancel(false);
            }
            p.future.completeExceptionally(cause);
        }
    }

    /** Fails everything still pending: the connection is gone. */
    void failAll(String why) {
        for (Map.Entry<Long, Pending> e : pending.entrySet()) {
            fail(e.getKey(), e.getValue(), new IOException(owner + " disconnected before answering "
                    + e.getValue().requestType + " xid " + e.getKey() + ": " + why));
        }
    }

    int size() {
        return pending.size();
    }

    /** The apps' requests waiting now (what {@code maxPendingRequests} bounds). */
    int boundedSize() {
        return bounded.get();
    }

    private void finish(long xid, Pending p) {
        remove(xid, p);
        if (p.timer != null) {
            p.timer.cancel(false);
        }
    }

    /** Removes the entry if it is still this one; true when this call removed it. */
    private boolean remove(long xid, Pending p) {
        if (pending.remove(xid, p)) {
            release(p);
            return true;
        }
        return false;
    }

    private void release(Pending p) {
        if (p.bounded) {
            bounded.decrementAndGet();
        }
    }

    /** The reply type of a request type: FOO_REQUEST answers with FOO_REPLY; others answer in kind. */
    static OFType replyType(OFType requestType) {
        String name = requestType.name();
        if (name.endsWith("_REQUEST")) {
            try {
                return OFType.valueOf(name.substring(0, name.length() - "_REQUEST".length()) + "_REPLY");
            } catch (IllegalArgumentException e) {
                return requestType;
            }
        }
        return requestType;
    }

    private static final class Pending {
        final CompletableFuture<Object> future;
        final OFType requestType;
        final OFType replyType;
        /** The statistics asked for, when the request is a statistics request. */
        final OFStatsType statsType;
        final boolean multipart;
        final boolean bounded;
        final List<OFStatsReply> parts = new ArrayList<>(1);
        volatile ScheduledFuture<?> timer;

        @SuppressWarnings("unchecked")
        Pending(CompletableFuture<?> future, OFType requestType, OFType replyType, OFStatsType statsType,
                boolean multipart, boolean bounded) {
            this.future = (CompletableFuture<Object>) future;
            this.requestType = requestType;
            this.replyType = replyType;
            this.statsType = statsType;
            this.multipart = multipart;
            this.bounded = bounded;
        }
    }
}
