package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;

/**
 * Sends messages to a switch and learns which of them the switch refused. Each message gets an xid
 * of our own; the switch answers a refused message with an ERROR carrying that xid, before it
 * answers the BARRIER that follows (OpenFlow processes messages in order up to a barrier). So when
 * the barrier is answered, the errors collected for our xids are every refusal of the batch.
 *
 * <p>ERROR messages reach us through the ERROR pipeline ({@link #onError}); the core dispatches it
 * only once a switch is announced, which is when every push of this app happens (reconciliation
 * included). The {@link Reconciler} also reads the switch's tables back, for what a switch drops
 * without an error.
 */
final class Pusher {

    /**
     * A message and what it is for, so a refusal can be reported against its entry.
     *
     * @param entry   the entry's name, or null for clean-up work
     * @param mayFail true for an add sent "just in case" before a modify, when the switch's state is
     *                unknown: one of the two fails, and that is expected
     */
    record Op(String entry, String what, OFMessage message, boolean mayFail) {
    }

    /** An operation the switch refused, with its error. */
    record Refusal(Op op, OFErrorMsg error) {
        String describe() {
            return op.what() + " refused by the switch: " + Errors.describe(error);
        }
    }

    /** xids in a range of their own, far above where a connection's own counter starts. */
    private static final int XID_BASE = 0x5f000000;

    private final AtomicInteger next = new AtomicInteger();
    private final Map<Long, Batch> batches = new ConcurrentHashMap<>();

    private static final class Batch {
        final DatapathId dpid;
        final Map<Long, Op> ops = new ConcurrentHashMap<>();
        final List<Refusal> refusals = new ArrayList<>();

        Batch(DatapathId dpid) {
            this.dpid = dpid;
        }
    }

    /**
     * Writes the operations in order, then a barrier. Completes with the refusals (empty when the
     * switch took everything), or exceptionally when the switch is gone or the barrier times out.
     */
    CompletableFuture<List<Refusal>> push(OFSwitch sw, List<Op> ops) {
        if (ops.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        Batch batch = new Batch(sw.getId());
        List<OFMessage> messages = new ArrayList<>(ops.size());
        List<Long> xids = new ArrayList<>(ops.size());
        for (Op op : ops) {
            long xid = Integer.toUnsignedLong(XID_BASE | (next.incrementAndGet() & 0x00ffffff));
            OFMessage m = op.message().createBuilder().setXid(xid).build();
            batch.ops.put(xid, new Op(op.entry(), op.what(), m, op.mayFail()));
            batches.put(xid, batch);
            xids.add(xid);
            messages.add(m);
        }
        CompletableFuture<List<Refusal>> result = new CompletableFuture<>();
        if (!sw.write(messages)) {
            xids.forEach(batches::remove);
            result.completeExceptionally(new IllegalStateException("switch " + sw.getId() + " is not connected"));
            return result;
        }
        sw.barrier().whenComplete((reply, e) -> {
            xids.forEach(batches::remove);
            if (e != null) {
                result.completeExceptionally(e);
            } else {
                synchronized (batch) {
                    result.complete(List.copyOf(batch.refusals));
                }
            }
        });
        return result;
    }

    /** Takes an ERROR from a switch; returns true when it answers one of our messages. */
    boolean onError(OFSwitch sw, OFErrorMsg error) {
        Batch batch = batches.get(error.getXid());
        if (batch == null || !batch.dpid.equals(sw.getId())) {
            return false;
        }
        Op op = batch.ops.get(error.getXid());
        synchronized (batch) {
            batch.refusals.add(new Refusal(op, error));
        }
        return true;
    }
}
