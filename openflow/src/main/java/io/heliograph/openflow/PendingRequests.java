package io.heliograph.openflow;

import java.io.IOException;
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

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;
import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.OFErrorException;
import io.netty.util.concurrent.EventExecutor;

/**
 * Requests waiting for their answer, keyed by xid. Registration and timeouts work from any thread
 * (the map is concurrent; timers run on the switch's loop); answers arrive on the switch's loop, so
 * multipart parts are collected without locks. Futures complete on the switch's loop: their
 * dependent stages must not block.
 */
final class PendingRequests {

    private final EventExecutor loop;
    private final Object owner;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();

    PendingRequests(EventExecutor loop, Object owner) {
        this.loop = loop;
        this.owner = owner;
    }

    /** Registers a request before it is written; the future fails after {@code timeout} without an answer. */
    <T> CompletableFuture<T> register(OFMessage request, boolean multipart, Duration timeout) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Pending p = new Pending(future, request.getType(), replyType(request.getType()), multipart);
        long xid = request.getXid();
        if (pending.putIfAbsent(xid, p) != null) {
            future.completeExceptionally(new IllegalStateException("xid " + xid + " already awaits an answer"));
            return future;
        }
        try {
            p.timer = loop.schedule(() -> {
                if (pending.remove(xid, p)) {
                    p.future.completeExceptionally(new TimeoutException(request.getType() + " xid " + xid + " to "
                            + owner + " unanswered after " + timeout.toMillis() + " ms"));
                }
            }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The controller is shutting down: the switch's loop takes no more work.
            pending.remove(xid, p);
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

    /** Fails the request with this xid, if it is still pending (e.g. the write did not happen). */
    void fail(long xid, Throwable cause) {
        Pending p = pending.remove(xid);
        if (p != null) {
            if (p.timer != null) {
                p.timer.cancel(false);
            }
            p.future.completeExceptionally(cause);
        }
    }

    /** Fails everything still pending: the connection is gone. */
    void failAll(String why) {
        for (Map.Entry<Long, Pending> e : pending.entrySet()) {
            fail(e.getKey(), new IOException(owner + " disconnected before answering " + e.getValue().requestType
                    + " xid " + e.getKey() + ": " + why));
        }
    }

    int size() {
        return pending.size();
    }

    private void finish(long xid, Pending p) {
        pending.remove(xid, p);
        if (p.timer != null) {
            p.timer.cancel(false);
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
        final boolean multipart;
        final List<OFStatsReply> parts = new ArrayList<>(1);
        volatile ScheduledFuture<?> timer;

        @SuppressWarnings("unchecked")
        Pending(CompletableFuture<?> future, OFType requestType, OFType replyType, boolean multipart) {
            this.future = (CompletableFuture<Object>) future;
            this.requestType = requestType;
            this.replyType = replyType;
            this.multipart = multipart;
        }
    }
}
