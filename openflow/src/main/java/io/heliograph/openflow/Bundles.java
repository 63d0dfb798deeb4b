package io.heliograph.openflow;

import java.net.ProtocolException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.projectfloodlight.openflow.protocol.OFBundleAddMsg;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlMsg;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlType;
import org.projectfloodlight.openflow.protocol.OFBundleFlags;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.BundleId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFBundle;
import io.heliograph.core.OFBundleException;
import io.heliograph.core.OFErrorException;

/**
 * The OpenFlow 1.4+ bundles of one switch connection. Each bundle's state lives on the switch's
 * loop (run-to-completion, no locks); what a caller on another thread does is handed to the loop as
 * a task, so its steps keep their order with its other writes.
 *
 * <p>The switch answers a bundle's control messages (open, close, commit, discard) by xid, as any
 * request, but its add messages only when it refuses one: such an error carries the add's xid, and
 * is kept here for the bundle it belongs to rather than dispatched to the apps.
 *
 * <p>Bounds: at most {@value #MAX_OPEN_BUNDLES} bundles open per switch (one more is refused and
 * counted, {@code bundlesRefused}); a bundle open longer than the request timeout is discarded.
 */
final class Bundles {

    private static final Logger LOG = LoggerFactory.getLogger(Bundles.class);

    /** Far above what an app keeps open at once on one switch (a circuit executor: one or two). */
    static final int MAX_OPEN_BUNDLES = 64;

    /** What every bundle asks for: all or nothing, in the order added. The same on each of its messages (switches check). */
    static final Set<OFBundleFlags> FLAGS = EnumSet.of(OFBundleFlags.ATOMIC, OFBundleFlags.ORDERED);

    private final SwitchConnection sw;
    /** Bundle ids, unique on this connection. */
    private final AtomicInteger ids = new AtomicInteger(1);
    private final AtomicInteger open = new AtomicInteger();
    /** The open bundles' add messages by xid (on the loop). */
    private final Map<Long, SwitchBundle> byAddXid = new HashMap<>();
    /** The bundles not yet over (on the loop). */
    private final List<SwitchBundle> live = new ArrayList<>();

    Bundles(SwitchConnection sw) {
        this.sw = sw;
    }

    static boolean supported(OFVersion version) {
        return version != null && version.compareTo(OFVersion.OF_14) >= 0;
    }

    /** Opens a bundle (any thread): the OPEN goes to the switch now. */
    OFBundle open(OFFactory factory) {
        if (factory == null) {
            throw new UnsupportedOperationException(sw + " has not negotiated a version yet: no bundles");
        }
        if (!supported(factory.getVersion())) {
            throw new UnsupportedOperationException(sw + " negotiated OpenFlow "
                    + OpenFlowVersions.name(factory.getVersion()) + ": bundles need OpenFlow 1.4 or later (on older"
                    + " switches, order the messages so that every state in between is safe)");
        }
        if (!sw.isConnected()) {
            throw new RejectedExecutionException(sw + " is not connected: no bundle opened");
        }
        if (open.incrementAndGet() > MAX_OPEN_BUNDLES) {
            open.decrementAndGet();
            sw.bundleRefused();
            throw new RejectedExecutionException(sw + " already has " + MAX_OPEN_BUNDLES
                    + " bundles open: commit or discard one first");
        }
        SwitchBundle bundle = new SwitchBundle(factory, BundleId.of(ids.getAndIncrement()));
        try {
            sw.runOnLoop(bundle::openOnLoop);
        } catch (RejectedExecutionException e) {
            open.decrementAndGet();
            throw new RejectedExecutionException(sw + " is shutting down: no bundle opened", e);
        }
        return bundle;
    }

    /**
     * An ERROR the switch sent (on the loop): true when it refuses a message of an open bundle, which
     * then keeps it for its commit to report.
     */
    boolean offerError(OFErrorMsg error) {
        if (byAddXid.isEmpty()) {
            return false;
        }
        SwitchBundle b = byAddXid.get(error.getXid());
        if (b == null) {
            return false;
        }
        b.errors.add(error);
        return true;
    }

    /** The connection is gone (on the loop): timers stop; futures waiting on the switch fail with the pending requests. */
    void connectionClosed() {
        for (SwitchBundle b : List.copyOf(live)) {
            b.over("the connection closed");
        }
    }

    int openCount() {
        return open.get();
    }

    private final class SwitchBundle implements OFBundle {
        private final OFFactory f;
        private final BundleId id;
        private final AtomicInteger size = new AtomicInteger();
        /** Set by the first of commit, discard or expiry, with why: later adds and commits are refused. */
        private volatile String ended;
        // ---- on the loop ----
        private final List<Long> addXids = new ArrayList<>();
        /** Errors the switch sent for this bundle's open, close or messages, in order. */
        private final List<OFErrorMsg> errors = new ArrayList<>();
        /** Why the open failed other than by an error (no answer, disconnect), or null. */
        private Throwable openFailure;
        private ScheduledFuture<?> expiry;
        private boolean over;

        SwitchBundle(OFFactory f, BundleId id) {
            this.f = f;
            this.id = id;
        }

        private void openOnLoop() {
            live.add(this);
            long lifetime = sw.settings().requestTimeout().toMillis();
            try {
                expiry = sw.loop().schedule(() -> expire(lifetime), lifetime, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                over("the controller is shutting down");
                return;
            }
            sw.<OFBundleCtrlMsg>requestInternal(control(OFBundleCtrlType.OPEN_REQUEST)).whenComplete((reply, e) -> {
                if (e != null) {
                    Throwable cause = unwrap(e);
                    if (cause instanceof OFErrorException error) {
                        errors.add(error.getError());
                    } else {
                        openFailure = cause;
                    }
                }
            });
        }

        @Override
        public BundleId getId() {
            return id;
        }

        @Override
        public OFBundle add(OFMessage... messages) {
            return add(List.of(messages));
        }

        @Override
        public OFBundle add(Collection<? extends OFMessage> messages) {
            refuseIfEnded("add to");
            List<OFBundleAddMsg> adds = new ArrayList<>(messages.size());
            for (OFMessage m : messages) {
                if (m.getVersion() != f.getVersion()) {
                    throw new IllegalArgumentException("a " + m.getType() + " of OpenFlow "
                            + OpenFlowVersions.name(m.getVersion()) + " cannot go to " + sw + ", which speaks "
                            + OpenFlowVersions.name(f.getVersion()) + ": build it with the switch's factory");
                }
                long xid = sw.nextXid();
                // The switch answers an add by the xid of the message inside it: both carry the same one.
                OFMessage inner = m.createBuilder().setXid(xid).build();
                OFBundleAddMsg.Builder add = f.buildBundleAddMsg().setXid(xid).setBundleId(id).setFlags(FLAGS);
                adds.add(f.getVersion() == OFVersion.OF_14 ? add.setData(inner).build() : add.setMessage(inner).build());
            }
            size.addAndGet(adds.size());
            sw.runOnLoop(() -> {
                if (over) {
                    return; // expired or the connection closed meanwhile: commit reports it
                }
                for (OFBundleAddMsg add : adds) {
                    byAddXid.put(add.getXid(), this);
                    addXids.add(add.getXid());
                    sw.writeNow(add);
                }
            });
            return this;
        }

        @Override
        public int size() {
            return size.get();
        }

        @Override
        public CompletableFuture<OFBundleCtrlMsg> commit() {
            refuseIfEnded("commit");
            ended = "committed";
            CompletableFuture<OFBundleCtrlMsg> committed = new CompletableFuture<>();
            sw.runOnLoop(() -> closeThenCommit(committed));
            return committed;
        }

        @Override
        public CompletableFuture<Void> discard() {
            String why = ended;
            if (why != null && !why.equals("committed")) {
                return CompletableFuture.completedFuture(null); // discarded already
            }
            refuseIfEnded("discard");
            ended = "discarded";
            CompletableFuture<Void> discarded = new CompletableFuture<>();
            sw.runOnLoop(() -> {
                if (over) {
                    discarded.complete(null); // nothing of it is left on the switch
                    return;
                }
                sw.<OFBundleCtrlMsg>requestInternal(control(OFBundleCtrlType.DISCARD_REQUEST)).whenComplete((r, e) -> {
                    over(null);
                    if (e == null) {
                        discarded.complete(null);
                    } else {
                        discarded.completeExceptionally(unwrap(e));
                    }
                });
            });
            return discarded;
        }

        private void refuseIfEnded(String what) {
            String why = ended;
            if (why != null) {
                throw new IllegalStateException("cannot " + what + " bundle " + id.getInt() + " on " + sw + ": it was "
                        + why);
            }
        }

        /**
         * On the loop: CLOSE first; once the switch confirms it, every refusal of an added message has
         * arrived (a switch answers in order), so a bundle with one is discarded, not committed in part.
         */
        private void closeThenCommit(CompletableFuture<OFBundleCtrlMsg> committed) {
            if (over) {
                committed.completeExceptionally(new IllegalStateException("bundle " + id.getInt() + " on " + sw
                        + " was " + ended + " before its commit ran"));
                return;
            }
            sw.<OFBundleCtrlMsg>requestInternal(control(OFBundleCtrlType.CLOSE_REQUEST)).whenComplete((closed, e) -> {
                Throwable cause = e == null ? null : unwrap(e);
                if (cause instanceof OFErrorException error && !errors.contains(error.getError())) {
                    errors.add(error.getError());
                }
                if (!errors.isEmpty() || openFailure != null || (cause != null && !(cause instanceof OFErrorException))) {
                    Throwable why = !errors.isEmpty() ? refused("not committed, discarded", errors.get(0))
                            : openFailure != null ? openFailure : cause;
                    discardQuietly();
                    committed.completeExceptionally(why);
                    return;
                }
                sw.<OFBundleCtrlMsg>requestInternal(control(OFBundleCtrlType.COMMIT_REQUEST)).whenComplete((reply, e2) -> {
                    over(null);
                    if (e2 == null) {
                        if (reply.getBundleCtrlType() != OFBundleCtrlType.COMMIT_REPLY || !id.equals(reply.getBundleId())) {
                            committed.completeExceptionally(new ProtocolException(sw + " answered the commit of bundle "
                                    + id.getInt() + " with " + reply.getBundleCtrlType() + " of bundle "
                                    + reply.getBundleId().getInt()));
                        } else {
                            committed.complete(reply);
                        }
                        return;
                    }
                    Throwable failed = unwrap(e2);
                    committed.completeExceptionally(failed instanceof OFErrorException error
                            ? refused("refused at commit; nothing of it took effect", error.getError()) : failed);
                });
            });
        }

        /** What to tell the app: the deciding error named, and each error about a message with its place in the bundle. */
        private OFBundleException refused(String outcome, OFErrorMsg deciding) {
            StringBuilder text = new StringBuilder().append(sw).append(" bundle ").append(id.getInt()).append(" of ")
                    .append(size()).append(" messages ").append(outcome).append(": ").append(ErrorNames.name(deciding))
                    .append(describeTarget(deciding));
            for (OFErrorMsg e : errors) {
                if (e != deciding) {
                    text.append("; ").append(ErrorNames.name(e)).append(describeTarget(e));
                }
            }
            return new OFBundleException(text.toString(), id, deciding, errors);
        }

        private String describeTarget(OFErrorMsg e) {
            int index = addXids.indexOf(e.getXid());
            return index >= 0 ? " for message " + (index + 1) + " (xid " + e.getXid() + ")"
                    : " (xid " + e.getXid() + ")";
        }

        private void discardQuietly() {
            over(null);
            sw.<OFBundleCtrlMsg>requestInternal(control(OFBundleCtrlType.DISCARD_REQUEST)).whenComplete((r, e) -> {
                if (e != null) {
                    LOG.debug("{}: discarding bundle {} failed: {}", sw, id.getInt(), unwrap(e).toString());
                }
            });
        }

        /** On the loop: left open too long. */
        private void expire(long lifetimeMillis) {
            if (over || ended != null) {
                return;
            }
            ended = "discarded after " + lifetimeMillis + " ms open without a commit (the request timeout)";
            LOG.info("{}: bundle {} of {} messages left open for {} ms; discarded", sw, id.getInt(), size(),
                    lifetimeMillis);
            discardQuietly();
        }

        /** On the loop: the bundle needs no more of this connection's attention. */
        private void over(String why) {
            if (over) {
                return;
            }
            over = true;
            if (why != null && ended == null) {
                ended = "lost: " + why;
            }
            if (expiry != null) {
                expiry.cancel(false);
            }
            for (Long xid : addXids) {
                byAddXid.remove(xid, this);
            }
            live.remove(this);
            open.decrementAndGet();
        }

        private OFBundleCtrlMsg control(OFBundleCtrlType type) {
            return f.buildBundleCtrlMsg().setBundleId(id).setBundleCtrlType(type).setFlags(FLAGS).build();
        }

        @Override
        public String toString() {
            return "bundle " + id.getInt() + " on " + sw;
        }
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
}
