package io.heliograph.openflow;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortStatus;
import org.projectfloodlight.openflow.protocol.OFRequest;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.spi.PipelineDispatch;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.EventExecutor;

/**
 * One switch connection: the {@link OFSwitch} handle apps use, and the Netty handler that receives
 * the switch's messages on its loop. Everything that changes state runs on that loop
 * (run-to-completion); what other threads read is published through volatile fields and
 * concurrent maps.
 */
final class SwitchConnection extends ChannelInboundHandlerAdapter implements OFSwitch {

    private static final Logger LOG = LoggerFactory.getLogger(SwitchConnection.class);

    private final ControllerContext context;
    private final Handshake handshake;
    private final AtomicLong xids = new AtomicLong(1);
    private final Map<OFPort, OFPortDesc> ports = new ConcurrentHashMap<>();
    private final Collection<OFPortDesc> portsView = Collections.unmodifiableCollection(ports.values());
    private final CompletableFuture<Void> removed = new CompletableFuture<>();
    private final RefusalLog refusals = new RefusalLog();
    private final SwitchCounters counters = new SwitchCounters();
    private final PacketInBudget packetIns;
    private final Bundles bundles = new Bundles(this);
    /** Who waits for the connection to be writable again (on the loop). */
    private final List<CompletableFuture<Void>> writableWaiters = new ArrayList<>();
    private boolean packetInDropsLogged;
    /** The connection of the same datapath this one was admitted to replace (on the loop), or null. */
    private SwitchConnection admittedOver;

    private ChannelHandlerContext ctx;
    private Channel channel;
    private WriteBatcher writes;
    /** What was written to the switch, by type; set on the loop before the switch is announced. */
    private volatile SentMessages.Connection sent;
    private PendingRequests pending;
    private volatile InetSocketAddress remote;
    private volatile Instant connectedSince;
    private volatile OFFactory factory;
    private volatile OFFeaturesReply features;
    private volatile OFDescStatsReply description;
    private volatile boolean active;
    private volatile Role role = Role.EQUAL;
    private boolean echoOutstanding;
    /** Reads from the switch so far (on its loop): any read after an ECHO_REQUEST shows it is alive. */
    private long reads;
    /** Objects the decoder handed over (messages, HELLOs, undecodable ones), added once a read. */
    private volatile long received;
    private boolean tlsFailed;
    /** The messages of the read in progress, in order. */
    private final ArrayList<Object> read = new ArrayList<>();
    /** PACKET_INs that came before the handshake was done, for the apps once it is (on the loop). */
    private final ArrayList<OFMessage> early = new ArrayList<>();
    /** The OpenFlow messages of {@link #read}, for the pipeline to prepare for. */
    private final ArrayList<OFMessage> readMessages = new ArrayList<>();
    private String closeReason = "connection closed";

    SwitchConnection(ControllerContext context, PacketInBudget packetIns) {
        this.context = context;
        this.packetIns = packetIns;
        this.handshake = new Handshake(this, context.settings());
    }

    // ---- Netty side (switch's loop) ----

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.channel = ctx.channel();
        this.sent = context.counters().sent.open();
        this.writes = new WriteBatcher(ctx,
                new PendingWriteLimit(channel, context.settings().maxPendingWriteBytes(), this::notReading),
                this::unencodable, sent);
        this.pending = new PendingRequests(ctx.executor(), this, context.settings().limits().maxPendingRequests(),
                this::requestRefused);
        if (channel.remoteAddress() instanceof InetSocketAddress a) {
            remote = a;
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        connectedSince = Instant.now();
        LOG.debug("{}: TCP connection accepted", this);
        handshake.start();
        ctx.fireChannelActive();
    }

    /** Collects the read's messages: they are handled together when it ends (channelReadComplete). */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        read.add(msg);
    }

    /**
     * The read is over: the pipeline first {@linkplain PipelineDispatch#prepare prepares} for its
     * messages, then each is handled in order, and the answers go out in one flush.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reads++;
        received += read.size(); // one writer, the loop
        handleRead();
    }

    private void handleRead() {
        if (read.isEmpty()) {
            return;
        }
        writes.readBatchStarted();
        if (active && role != Role.SLAVE) {
            for (int i = 0; i < read.size(); i++) {
                if (read.get(i) instanceof OFMessage message) {
                    readMessages.add(message);
                }
            }
            try {
                if (!readMessages.isEmpty()) {
                    context.pipeline().prepare(this, readMessages);
                }
            } finally {
                readMessages.clear();
            }
        }
        for (int i = 0; i < read.size(); i++) {
            Object msg = read.get(i);
            try {
                if (msg instanceof OFMessage message) {
                    received(message);
                } else if (msg instanceof HelloMessage hello) {
                    handshake.onHello(hello);
                } else if (msg instanceof UndecodableMessage bad) {
                    badInput(bad);
                } else {
                    LOG.warn("{}: unexpected object from the decoder: {}", this, msg);
                }
            } catch (RuntimeException e) {
                unexpected(e); // one message's trouble must not cost the rest of the read
            }
        }
        read.clear();
        if (!packetInDropsLogged && packetIns.dropped() > 0) {
            packetInDropsLogged = true;
            SwitchLimits limits = context.settings().limits();
            LOG.warn("{} sends more than {} packet-ins/s (packetInRate, bursts of {}): the excess is dropped before it"
                    + " is decoded, and counted (packetInsDropped), not logged again", this, limits.packetInRate(),
                    limits.packetInBurst());
        }
        writes.readBatchEnded();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            keepalive();
        } else if (event instanceof OFFrameDecoder.UnframeableInput u) {
            LOG.warn("{}: input cannot be framed (header {} declares length {} < 8); closing the connection",
                    this, u.headerHex(), u.declaredLength());
        } else if (event instanceof SslHandshakeCompletionEvent tls) {
            if (!tls.isSuccess()) {
                tlsFailed = true;
                LOG.warn("TLS handshake with {} failed: {}; closing", remote, tls.cause().toString());
                ctx.close();
            } else {
                LOG.debug("{}: TLS established", this);
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    /** Writable again (below the low-water mark), or no longer: those waiting to write go on when it is. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (channel.isWritable()) {
            wakeWriters();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        handleRead(); // what the decoder framed from the last bytes as the connection closed
        boolean wasActive = active;
        active = false;
        writes.discard();
        context.counters().sent.close(sent);
        if (!handshake.isFinished()) {
            if (!tlsFailed) { // a TLS failure was logged already, with its reason
                LOG.info("{}: disconnected during handshake step {}", this, handshake.step());
            }
            handshake.finish();
        }
        bundles.connectionClosed();
        pending.failAll(closeReason);
        wakeWriters();
        try {
            context.registry().removed(this);
            if (wasActive) {
                LOG.info("{} disconnected", this);
            }
        } finally {
            removed.complete(null);
        }
        ctx.fireChannelInactive();
    }

    private void received(OFMessage message) {
        if (factory != null && message.getVersion() != factory.getVersion()) {
            byte[] head = headOf(message);
            int wireType = message.getType() == OFType.ERROR ? UndecodableMessage.ERROR_TYPE
                    : head.length > 1 ? head[1] & 0xff : -1;
            badInput(new UndecodableMessage(message.getVersion().getWireVersion(), wireType, message.getXid(), head, ErrorAnswer.badRequest(OFBadRequestCode.BAD_VERSION),
                    "OpenFlow " + OpenFlowVersions.name(message.getVersion()) + " " + message.getType()
                            + " on a connection that negotiated " + OpenFlowVersions.name(factory.getVersion())));
            return;
        }
        if (message.getType() == OFType.ECHO_REQUEST) {
            // Answered by the core in any state, so a busy pipeline never makes a switch think we are dead.
            OFEchoRequest echo = (OFEchoRequest) message;
            writes.write(factoryFor(message).buildEchoReply().setXid(echo.getXid()).setData(echo.getData()).build());
            return;
        }
        if (pending.offer(message)) {
            return;
        }
        if (message instanceof org.projectfloodlight.openflow.protocol.OFErrorMsg error) {
            if (bundles.offerError(error)) {
                return; // a refusal of a message in an open bundle: its commit reports it
            }
            refusals.refused(this, error);
        }
        if (message instanceof OFPortStatus status) {
            portStatus(status);
        }
        if (active && role == Role.SLAVE && isAsync(message.getType())) {
            // A switch sends a slave no packet-ins or flow-removeds by default; any that come anyway
            // (sent before our demotion reached it) belong to the master.
            LOG.trace("{}: {} while SLAVE; left to the master", this, message.getType());
        } else if (active) {
            try {
                context.pipeline().dispatch(this, message);
            } catch (RuntimeException e) {
                // The pipeline isolates its listeners; this guards against the pipeline itself failing.
                LOG.warn("{}: pipeline failed on {} xid {}", this, message.getType(), message.getXid(), e);
            }
        } else if (message.getType() == OFType.PACKET_IN) {
            early.add(message); // at most OFFrameDecoder.EARLY_PACKET_INS: the decoder skips the rest
        } else {
            LOG.debug("{}: {} before the handshake completed; not dispatched", this, message.getType());
        }
    }

    private static boolean isAsync(OFType type) {
        return type == OFType.PACKET_IN || type == OFType.FLOW_REMOVED;
    }

    private void portStatus(OFPortStatus status) {
        OFPortDesc desc = status.getDesc();
        PortChange change = switch (status.getReason()) {
            case ADD -> PortChange.ADDED;
            case DELETE -> PortChange.DELETED;
            default -> PortChange.MODIFIED;
        };
        if (change == PortChange.DELETED) {
            ports.remove(desc.getPortNo());
        } else if (!ports.containsKey(desc.getPortNo()) && ports.size() >= context.settings().limits().maxPorts()) {
            portsRefused(1);
            return; // a port we do not keep: no app hears of it
        } else {
            ports.put(desc.getPortNo(), desc);
        }
        if (active) {
            context.registry().notify(this, l -> l.portChanged(this, desc, change), "portChanged");
        }
    }

    /**
     * A message that could not be decoded (or is not allowed here): a request waiting for its xid
     * fails now, it is answered with an error in the connection's version where the spec says so,
     * and it is logged once per kind (the error it is answered with) and counted.
     */
    private void badInput(UndecodableMessage bad) {
        String problem = "type " + bad.wireType() + " xid " + bad.xid() + ": " + bad.reason();
        boolean answersRequest = pending.answerUndecodable(bad.xid(), problem);
        String failed = answersRequest ? "; the request it answers failed" : "";
        if (!bad.mayBeAnswered()) {
            inputRefused("undecodableError", "undecodable ERROR message " + problem + "; not answered (errors are never"
                    + " answered)" + failed);
            return;
        }
        OFFactory f = factory != null ? factory : OFFactories.getFactory(context.settings().versions().last());
        // A message of another version than the connection's: that is what is wrong with it.
        ErrorAnswer answer = factory != null && bad.wireVersion() != factory.getVersion().getWireVersion()
                ? ErrorAnswer.badRequest(OFBadRequestCode.BAD_VERSION) : bad.answer();
        inputRefused(answer.toString(), "undecodable message " + problem + "; answered " + answer + failed);
        writes.write(answer.build(f, bad.xid(), bad.head()));
    }

    /** Bad input of this kind from the switch: the first of each kind on this connection is logged; all are counted. */
    private void inputRefused(String kind, String what) {
        context.counters().badInput(kind);
        if (counters.count("badInput." + kind)) {
            LOG.warn("{}: {}; further {} input from this switch is counted (badInput.{}), not logged", this, what,
                    kind, kind);
        } else {
            LOG.debug("{}: {}", this, what);
        }
    }

    private void portsRefused(int n) {
        context.counters().portsRefused.add(n);
        if (counters.count("portsRefused", n)) {
            LOG.warn("{} has more ports than maxPorts ({}): {} refused; ports refused later are counted (portsRefused),"
                    + " not logged", this, context.settings().limits().maxPorts(), n);
        }
    }

    /** An app's request refused at the bound (on the caller's thread). */
    private void requestRefused() {
        context.counters().requestsRefused.increment();
        if (counters.count("requestsRefused")) {
            LOG.warn("{} has {} requests awaiting answers (maxPendingRequests): further requests fail at once and are"
                    + " counted (requestsRefused), not logged", this, context.settings().limits().maxPendingRequests());
        }
    }

    /** A bundle refused at the bound on open bundles (on the caller's thread). */
    void bundleRefused() {
        context.counters().bundlesRefused.increment();
        if (counters.count("bundlesRefused")) {
            LOG.warn("{} has {} bundles open: further bundles are refused and counted (bundlesRefused), not logged",
                    this, Bundles.MAX_OPEN_BUNDLES);
        }
    }

    /** A message an app wrote that Loxi cannot encode: not sent; logged with its trace once per message type. */
    private void unencodable(OFMessage message, RuntimeException cause) {
        String key = "unencodable." + message.getType();
        if (counters.count(key)) {
            LOG.warn("{}: a {} could not be encoded and was not sent ({}); later ones are counted ({}), not logged",
                    this, message.getType(), cause.toString(), key, cause);
        } else {
            LOG.debug("{}: a {} could not be encoded: {}", this, message.getType(), cause.toString());
        }
    }

    /** A failure nothing else handled (a bug, not the switch's fault): logged with its trace once per kind. */
    void unexpected(Throwable cause) {
        String key = "unexpected." + cause.getClass().getSimpleName();
        if (counters.count(key)) {
            LOG.warn("{}: unexpected error, connection stays up; later ones of this kind are counted ({}), not logged",
                    this, key, cause);
        } else {
            LOG.debug("{}: unexpected error: {}", this, cause.toString());
        }
    }

    /** The first bytes of a decoded message as it would be written, or none when it cannot be re-encoded. */
    private static byte[] headOf(OFMessage message) {
        io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        try {
            message.writeTo(buf);
            byte[] head = new byte[Math.min(OFMessageDecoder.ERROR_DATA_BYTES, buf.readableBytes())];
            buf.readBytes(head);
            return head;
        } catch (RuntimeException e) {
            return new byte[0];
        } finally {
            buf.release();
        }
    }

    private OFFactory factoryFor(OFMessage message) {
        return factory != null ? factory : OFFactories.getFactory(message.getVersion());
    }

    private void keepalive() {
        if (factory == null || echoOutstanding) {
            return; // before negotiation the handshake timeout watches the switch
        }
        echoOutstanding = true;
        long readsAtEcho = reads;
        OFMessage echo = factory.buildEchoRequest().setXid(nextXid()).setData(new byte[0]).build();
        pending.<OFMessage>register(echo, false, context.settings().echoTimeout()).whenComplete((reply, e) -> {
            echoOutstanding = false;
            if (e instanceof TimeoutException && reads != readsAtEcho) {
                // The switch sent more meanwhile: it is alive, and its reply waits behind what it sent
                // before (an overloaded controller reads a busy switch's backlog a turn at a time).
                LOG.debug("{}: no ECHO reply yet, but it keeps sending; kept", this);
            } else if (e instanceof TimeoutException) {
                LOG.warn("{}: no ECHO reply within {} ms after {} ms of silence; disconnecting", this,
                        context.settings().echoTimeout().toMillis(), context.settings().echoIdle().toMillis());
                disconnect("keepalive timeout");
            }
        });
        writes.write(echo);
    }

    /** The switch leaves more than its bound unread: dropping it protects the controller's memory. */
    private void notReading(long pendingBytes, long maxPendingBytes) {
        closeReason = "not reading: " + pendingBytes + " bytes waiting to be written, over maxPendingWriteBytes "
                + maxPendingBytes;
        LOG.warn("{} is not reading: {} bytes wait to be written, over maxPendingWriteBytes {}; disconnecting",
                this, pendingBytes, maxPendingBytes);
        context.counters().notReading.increment();
        channel.close();
    }

    /** Completes those waiting to write (on the loop): the connection is writable, or gone (then exceptionally). */
    private void wakeWriters() {
        if (writableWaiters.isEmpty()) {
            return;
        }
        List<CompletableFuture<Void>> waiting = List.copyOf(writableWaiters);
        writableWaiters.clear();
        boolean open = channel.isActive();
        for (CompletableFuture<Void> w : waiting) {
            if (open) {
                w.complete(null);
            } else {
                w.completeExceptionally(new IOException(this + " disconnected: " + closeReason));
            }
        }
    }

    // ---- used by Handshake and SwitchRegistry (switch's loop) ----

    EventExecutor loop() {
        return ctx.executor();
    }

    void runOnLoop(Runnable task) {
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    SwitchRegistry registry() {
        return context.registry();
    }

    OpenFlowSettings settings() {
        return context.settings();
    }

    ChannelCounters channelCounters() {
        return context.counters();
    }

    long nextXid() {
        long xid = xids.getAndIncrement() & 0xffffffffL;
        return xid == 0 ? nextXid() : xid;
    }

    void writeNow(OFMessage message) {
        writes.write(message);
    }

    void closeAfterFlush() {
        writes.flushNow(); // what is batched goes before the close
        ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    void setVersion(OFVersion version) {
        this.factory = SwitchFactories.of(version, this::nextXid);
    }

    void setFeatures(OFFeaturesReply features) {
        this.features = features;
    }

    /** The switch's ports, as many as {@code maxPorts} allows: the first ones listed. */
    void setPorts(List<OFPortDesc> list) {
        ports.clear();
        int max = context.settings().limits().maxPorts();
        int refused = 0;
        for (OFPortDesc p : list) {
            if (ports.size() < max || ports.containsKey(p.getPortNo())) {
                ports.put(p.getPortNo(), p);
            } else {
                refused++;
            }
        }
        if (refused > 0) {
            portsRefused(refused);
        }
    }

    void setDescription(OFDescStatsReply description) {
        this.description = description;
    }

    /** The handshake is done and the switch announced (on its loop): from now on packet-ins count. */
    void activated() {
        active = true;
        OFFrameDecoder frames = ctx.pipeline().get(OFFrameDecoder.class);
        if (frames != null) {
            long skipped = frames.acceptPacketIns();
            if (skipped > 0) {
                LOG.debug("{}: {} PACKET_INs arrived before the handshake completed; not decoded", this, skipped);
            }
        }
        if (!early.isEmpty()) {
            // As a read of their own, after the one that may be completing the handshake right now.
            ctx.executor().execute(this::dispatchEarly);
        }
    }

    /** The PACKET_INs kept from before the handshake was done, to the apps as if just read. */
    private void dispatchEarly() {
        read.addAll(early); // a task of the loop runs between reads: read is empty

        early.clear();
        handleRead();
    }

    CompletableFuture<Void> removed() {
        return removed;
    }

    /**
     * Whether the switch is alive on this connection: it answers an ECHO within the echo timeout, or
     * at least keeps sending (its answer may wait behind what it sent before). False at once when
     * the connection is gone. Completes on this connection's loop.
     */
    CompletableFuture<Boolean> answersEcho() {
        CompletableFuture<Boolean> alive = new CompletableFuture<>();
        try {
            runOnLoop(() -> {
                OFFactory f = factory;
                if (!isConnected() || f == null) {
                    alive.complete(false);
                    return;
                }
                long readsBefore = reads;
                OFMessage echo = f.buildEchoRequest().setXid(nextXid()).setData(new byte[0]).build();
                pending.<OFMessage>register(echo, false, context.settings().echoTimeout()).whenComplete((reply, e) ->
                        alive.complete(e == null || (e instanceof TimeoutException && reads != readsBefore)));
                writes.write(echo);
            });
        } catch (RejectedExecutionException e) {
            alive.complete(false); // its loop has stopped: the controller is shutting down
        }
        return alive;
    }

    /** Admitted to replace {@code old}, a connection of the same datapath found silent or gone (on the loop). */
    void admittedOver(SwitchConnection old) {
        admittedOver = old;
    }

    SwitchConnection admittedOver() {
        return admittedOver;
    }

    /** A newcomer claiming this switch's datapath id was refused; true the first time (to be logged). */
    boolean duplicateRefused() {
        return counters.count("duplicatesRefused");
    }

    /** Bytes waiting in the channel to be sent to the switch, roughly (any thread; for the bounds report). */
    long pendingWriteBytes() {
        Channel c = channel;
        if (c == null || !c.isActive()) {
            return 0;
        }
        var marks = c.config().getWriteBufferWaterMark();
        return c.isWritable() ? Math.max(0, marks.high() - c.bytesBeforeUnwritable())
                : marks.low() + c.bytesBeforeWritable();
    }

    /** The apps' requests awaiting answers now (any thread; for the bounds report). */
    int pendingRequests() {
        PendingRequests p = pending;
        return p == null ? 0 : p.boundedSize();
    }

    /** Bundles open on this connection now (any thread; for the bounds report). */
    int openBundles() {
        return bundles.openCount();
    }

    /** Packet-ins handed to the apps in the last whole second (any thread; for the bounds report). */
    long packetInsLastSecond() {
        return packetIns.lastSecond();
    }

    /** Disconnects with a reason, for the log. */
    void disconnect(String why) {
        LOG.debug("{}: closing: {}", this, why);
        if (channel != null) {
            channel.close();
        }
    }

    /** One of the controller's own requests (handshake, role): not counted against maxPendingRequests. */
    <R> CompletableFuture<R> requestInternal(OFMessage request) {
        OFMessage withXid = request.createBuilder().setXid(nextXid()).build();
        CompletableFuture<R> f = pending.register(withXid, false, context.settings().requestTimeout());
        send(withXid);
        return f;
    }

    /** A statistics request of the controller's own (handshake): not counted against maxPendingRequests. */
    <R extends OFStatsReply> CompletableFuture<List<R>> requestStatisticsInternal(OFStatsRequest<R> request) {
        return statistics(request, false);
    }

    private <R extends OFStatsReply> CompletableFuture<List<R>> statistics(OFStatsRequest<R> request, boolean bounded) {
        OFMessage withXid = request.createBuilder().setXid(nextXid()).build();
        CompletableFuture<List<R>> f = pending.register(withXid, true, context.settings().requestTimeout(), bounded);
        if (!f.isDone()) {
            send(withXid);
        }
        return f;
    }

    private void send(OFMessage request) {
        if (!write(request)) {
            pending.fail(request.getXid(), new IOException(this + " is not connected"));
        }
    }

    String describe() {
        DatapathId id = getId();
        return id != null ? "switch " + id + " at " + remote : "switch at " + remote;
    }

    @Override
    public String toString() {
        return describe();
    }

    // ---- OFSwitch (any thread) ----

    @Override
    public DatapathId getId() {
        OFFeaturesReply f = features;
        return f != null ? f.getDatapathId() : null;
    }

    @Override
    public OFVersion getVersion() {
        OFFactory f = factory;
        return f != null ? f.getVersion() : null;
    }

    @Override
    public OFFactory getFactory() {
        return factory;
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return remote;
    }

    @Override
    public Instant getConnectedSince() {
        return connectedSince;
    }

    @Override
    public OFFeaturesReply getFeatures() {
        return features;
    }

    @Override
    public OFDescStatsReply getDescription() {
        return description;
    }

    @Override
    public Collection<OFPortDesc> getPorts() {
        return portsView;
    }

    @Override
    public OFPortDesc getPort(OFPort port) {
        return ports.get(port);
    }

    @Override
    public boolean isConnected() {
        return channel != null && channel.isActive();
    }

    @Override
    public boolean write(OFMessage message) {
        if (!isConnected()) {
            return false;
        }
        writes.write(message);
        return true;
    }

    @Override
    public boolean write(Collection<? extends OFMessage> messages) {
        if (!isConnected()) {
            return false;
        }
        for (OFMessage m : messages) {
            writes.write(m);
        }
        return true;
    }

    @Override
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        OFMessage withXid = request.createBuilder().setXid(nextXid()).build();
        CompletableFuture<R> f = pending.register(withXid, false, context.settings().requestTimeout(), true);
        if (!f.isDone()) {
            send(withXid);
        }
        return f;
    }

    @Override
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        return statistics(request, true);
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier() {
        OFFactory f = factory;
        if (f == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(this + " has not negotiated a version yet"));
        }
        return request(f.buildBarrierRequest().build());
    }

    @Override
    public void disconnect() {
        disconnect("requested");
    }

    @Override
    public boolean supportsBundles() {
        return Bundles.supported(getVersion());
    }

    @Override
    public io.heliograph.core.OFBundle bundle() {
        return bundles.open(factory);
    }

    @Override
    public CompletableFuture<Void> whenWritable() {
        CompletableFuture<Void> writable = new CompletableFuture<>();
        try {
            // Behind the drain of what other threads wrote before: it is handed to the channel first.
            runOnLoop(() -> {
                if (!channel.isActive()) {
                    writable.completeExceptionally(new IOException(this + " is not connected"));
                } else if (channel.isWritable()) {
                    writable.complete(null);
                } else {
                    writableWaiters.add(writable);
                }
            });
        } catch (RejectedExecutionException e) {
            writable.completeExceptionally(new IOException(this + " is shutting down", e));
        }
        return writable;
    }

    @Override
    public Map<String, Long> getCounters() {
        Map<String, Long> all = counters.snapshot();
        long dropped = packetIns.dropped();
        if (dropped > 0) {
            all.put("packetInsDropped", dropped);
        }
        return all;
    }

    /** Messages received from the switch since it connected (as of the last read); any thread. */
    long messagesReceived() {
        return received;
    }

    /** Messages written to the switch since it connected; any thread. */
    long messagesSent() {
        SentMessages.Connection s = sent;
        return s == null ? 0 : s.total();
    }

    @Override
    public Role getRole() {
        return role;
    }

    @Override
    public CompletableFuture<Role> requestRole(Role wanted, long generationId) {
        OFFactory f = factory;
        if (f == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(this + " has not negotiated a version yet"));
        }
        CompletableFuture<Role> confirmed = new CompletableFuture<>();
        runOnLoop(() -> {
            if (wanted == Role.SLAVE) {
                changeRole(Role.SLAVE); // stop acting as master now, not when the switch answers
            }
            RoleMessages.request(this, f, wanted, generationId).whenComplete((granted, e) -> runOnLoop(() -> {
                if (e != null) {
                    confirmed.completeExceptionally(e instanceof java.util.concurrent.CompletionException
                            && e.getCause() != null ? e.getCause() : e);
                    return;
                }
                changeRole(granted);
                confirmed.complete(granted);
            }));
        });
        return confirmed;
    }

    /** On the loop: records the role and tells the listeners of an announced switch. */
    private void changeRole(Role next) {
        Role previous = role;
        role = next;
        if (next != previous) {
            LOG.debug("{}: role {} -> {}", this, previous, next);
            if (active) {
                context.registry().notify(this, l -> l.roleChanged(this, next), "roleChanged");
            }
        }
    }
}
