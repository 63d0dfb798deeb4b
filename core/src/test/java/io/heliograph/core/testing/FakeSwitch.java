package io.heliograph.core.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlMsg;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlType;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFRequest;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.BundleId;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFBundle;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;

/**
 * An {@link OFSwitch} for unit tests of pipelines and apps, with no connection behind it: an
 * identity, a version, a port table the test sets, and a log of what is sent to it. Requests are
 * answered by a {@link Responder} the test plugs in; without one they fail at once, so a test that
 * needs answers says so. What an app's tests need beyond this (an emulated flow table, scripted
 * statistics) is a responder or a thin subclass in that app's tests. Shared with the apps' tests
 * through core's test-jar; thread-safe, since apps write and ask from their own threads.
 */
public class FakeSwitch implements OFSwitch {

    private volatile Role role = Role.EQUAL;

    /** How the switch answers requests. */
    @FunctionalInterface
    public interface Responder {
        /**
         * The answer to a request, as the core would deliver it: every part of the reply in order
         * (one message for a single-reply request or a barrier), a future failed with an
         * {@link io.heliograph.core.OFErrorException} for an ERROR or a
         * {@link java.util.concurrent.TimeoutException} for a switch the core gave up on, or a future
         * never completed for a request still waiting.
         */
        CompletableFuture<List<OFMessage>> answer(OFMessage request);
    }

    private final DatapathId id;
    private final OFFactory factory;
    /** Replaced whole on every change, so an app's thread reads it while the test changes it. */
    private volatile Map<OFPort, OFPortDesc> ports = new LinkedHashMap<>();
    private final List<OFMessage> sent = new ArrayList<>();
    private volatile boolean connected = true;
    private volatile Consumer<OFMessage> onWrite = m -> { };
    private volatile Responder responder = this::refuseRequest;
    private volatile OFFeaturesReply features;
    private volatile OFDescStatsReply description;
    private volatile Throwable bundleFailure;
    private final AtomicInteger bundleIds = new AtomicInteger(1);

    /** A switch speaking OpenFlow 1.3, with no ports. */
    public FakeSwitch(long dpid) {
        this(dpid, OFVersion.OF_13);
    }

    /** A switch with no ports. */
    public FakeSwitch(long dpid, OFVersion version) {
        this.id = DatapathId.of(dpid);
        this.factory = OFFactories.getFactory(version);
    }

    /** A switch with physical ports 1..portCount, all up, and its LOCAL port, as a real one reports them. */
    public FakeSwitch(long dpid, OFVersion version, int portCount) {
        this(dpid, version);
        for (int p = 1; p <= portCount; p++) {
            setPort(p, true);
        }
        putPort(port(OFPort.LOCAL, true));
    }

    // --- the port table ---

    /** Puts a port up or down (link down) in the table, replacing its description as PORT_STATUS would; returns it. */
    public OFPortDesc setPort(int number, boolean up) {
        return putPort(port(OFPort.of(number), up));
    }

    /** Puts a port description as given (its speeds, say) in the table, replacing one with its number; returns it. */
    public synchronized OFPortDesc putPort(OFPortDesc desc) {
        Map<OFPort, OFPortDesc> next = new LinkedHashMap<>(ports);
        next.put(desc.getPortNo(), desc);
        ports = next;
        return desc;
    }

    /** Removes a port from the table, as PORT_STATUS DELETE would; returns its last description, or null. */
    public synchronized OFPortDesc deletePort(int number) {
        Map<OFPort, OFPortDesc> next = new LinkedHashMap<>(ports);
        OFPortDesc gone = next.remove(OFPort.of(number));
        ports = next;
        return gone;
    }

    /** A description named p&lt;number&gt;, with a MAC address made of the dpid and port number so each is unique. */
    private OFPortDesc port(OFPort number, boolean up) {
        return factory.buildPortDesc()
                .setPortNo(number)
                .setHwAddr(MacAddress.of((id.getLong() & 0xffffff) << 16 | number.getPortNumber() & 0xffff))
                .setName("p" + number.getPortNumber())
                .setConfig(up ? Set.of() : Set.of(OFPortConfig.PORT_DOWN))
                .setState(up ? Set.of() : Set.of(OFPortState.LINK_DOWN))
                .build();
    }

    // --- what the test plugs in ---

    /** What the switch does with each message written to it, after logging it (an emulated flow table, say). */
    public FakeSwitch onWrite(Consumer<OFMessage> effect) {
        this.onWrite = effect;
        return this;
    }

    /** How the switch answers request(), requestStatistics() and barrier() from now on. */
    public FakeSwitch answerWith(Responder responder) {
        this.responder = responder;
        return this;
    }

    /** The FEATURES_REPLY {@link #getFeatures()} returns; without one it throws. */
    public FakeSwitch setFeatures(OFFeaturesReply features) {
        this.features = features;
        return this;
    }

    /** The description {@link #getDescription()} returns; without one it is null (not answered yet). */
    public FakeSwitch setDescription(OFDescStatsReply description) {
        this.description = description;
        return this;
    }

    /**
     * Bundle commits fail with {@code failure} from now on (an {@link io.heliograph.core.OFBundleException}
     * as a refusing switch gives, say), nothing of the bundle applied; null: commits succeed again.
     */
    public FakeSwitch failBundleCommits(Throwable failure) {
        this.bundleFailure = failure;
        return this;
    }

    // --- what was sent ---

    /**
     * The messages sent since the last call, in order: those written and the requests of
     * request() and requestStatistics(). Barriers are not logged: they order the log, and every
     * test would have to filter them out.
     */
    public synchronized List<OFMessage> take() {
        List<OFMessage> taken = List.copyOf(sent);
        sent.clear();
        return taken;
    }

    /** The messages sent since the last {@link #take()}, as take() would return them, without clearing. */
    public synchronized List<OFMessage> written() {
        return List.copyOf(sent);
    }

    // --- OFSwitch ---

    @Override
    public DatapathId getId() {
        return id;
    }

    @Override
    public OFVersion getVersion() {
        return factory.getVersion();
    }

    @Override
    public OFFactory getFactory() {
        return factory;
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return InetSocketAddress.createUnresolved("fake", 6653);
    }

    @Override
    public Instant getConnectedSince() {
        return Instant.EPOCH;
    }

    @Override
    public OFFeaturesReply getFeatures() {
        OFFeaturesReply f = features;
        if (f == null) {
            throw new UnsupportedOperationException(this + " has no FEATURES_REPLY: give it one with setFeatures");
        }
        return f;
    }

    @Override
    public OFDescStatsReply getDescription() {
        return description; // null until set, as a switch that has not answered the description request
    }

    @Override
    public Collection<OFPortDesc> getPorts() {
        return List.copyOf(ports.values());
    }

    @Override
    public OFPortDesc getPort(OFPort port) {
        return ports.get(port);
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    /** Logs the message, then applies the {@link #onWrite} effect; refused once disconnected, as on a real connection. */
    @Override
    public boolean write(OFMessage message) {
        synchronized (this) {
            if (!connected) {
                return false;
            }
            sent.add(message);
        }
        onWrite.accept(message);
        return true;
    }

    @Override
    public boolean write(Collection<? extends OFMessage> messages) {
        if (!connected) {
            return false;
        }
        messages.forEach(this::write);
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        log(request);
        return responder.answer(request).thenApply(parts -> (R) parts.get(0));
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        log(request);
        return responder.answer(request).thenApply(parts -> (List<R>) (List<?>) parts);
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier() {
        return responder.answer(factory.barrierRequest()).thenApply(parts -> (OFBarrierReply) parts.get(0));
    }

    private synchronized void log(OFMessage request) {
        sent.add(request);
    }

    private CompletableFuture<List<OFMessage>> refuseRequest(OFMessage request) {
        throw new UnsupportedOperationException(this + " was sent " + request.getType()
                + " but answers no requests: give it a Responder with answerWith");
    }

    /** On OpenFlow 1.4 and later, as a real switch. */
    @Override
    public boolean supportsBundles() {
        return factory.getVersion().compareTo(OFVersion.OF_14) >= 0;
    }

    /**
     * A bundle that logs nothing until it is committed; then its messages are logged and applied
     * ({@link #onWrite}) all at once, with no write of another thread between them, and the commit
     * completes with a COMMIT_REPLY (or fails as {@link #failBundleCommits} says, nothing applied).
     */
    @Override
    public OFBundle bundle() {
        if (!supportsBundles()) {
            throw new UnsupportedOperationException(this + " negotiated OpenFlow " + factory.getVersion()
                    + ": bundles need OpenFlow 1.4 or later");
        }
        BundleId id =
                BundleId.of(bundleIds.getAndIncrement());
        return new OFBundle() {
            private final List<OFMessage> messages = new ArrayList<>();
            private boolean ended;

            @Override
            public BundleId getId() {
                return id;
            }

            @Override
            public OFBundle add(OFMessage... added) {
                return add(List.of(added));
            }

            @Override
            public synchronized OFBundle add(Collection<? extends OFMessage> added) {
                if (ended) {
                    throw new IllegalStateException("bundle " + id.getInt() + " was committed or discarded");
                }
                messages.addAll(added);
                return this;
            }

            @Override
            public synchronized int size() {
                return messages.size();
            }

            @Override
            public synchronized CompletableFuture<OFBundleCtrlMsg> commit() {
                if (ended) {
                    throw new IllegalStateException("bundle " + id.getInt() + " was committed or discarded");
                }
                ended = true;
                Throwable failure = bundleFailure;
                if (failure != null) {
                    return CompletableFuture.failedFuture(failure);
                }
                synchronized (FakeSwitch.this) {
                    if (!connected) {
                        return CompletableFuture.failedFuture(new IOException(FakeSwitch.this
                                + " is not connected"));
                    }
                    sent.addAll(messages);
                    messages.forEach(onWrite);
                }
                return CompletableFuture.completedFuture(factory.buildBundleCtrlMsg().setBundleId(id)
                        .setBundleCtrlType(OFBundleCtrlType.COMMIT_REPLY)
                        .build());
            }

            @Override
            public synchronized CompletableFuture<Void> discard() {
                ended = true;
                messages.clear();
                return CompletableFuture.completedFuture(null);
            }
        };
    }

    /** Marks the switch disconnected: later writes are refused, as on a real connection. */
    @Override
    public void disconnect() {
        connected = false;
    }

    /** Roles are granted as asked, like a switch with no other controller. */
    @Override
    public Role getRole() {
        return role;
    }

    @Override
    public CompletableFuture<Role> requestRole(Role wanted, long generationId) {
        role = wanted;
        return CompletableFuture.completedFuture(wanted);
    }

    @Override
    public String toString() {
        return "FakeSwitch[" + id + ", " + factory.getVersion() + "]";
    }
}
