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
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

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
import io.heliograph.core.PipelineService;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener.PortChange;
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

    private ChannelHandlerContext ctx;
    private Channel channel;
    private WriteBatcher writes;
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
    private boolean tlsFailed;
    /** The messages of the read in progress, in order. */
    private final ArrayList<Object> read = new ArrayList<>();
    /** The OpenFlow messages of {@link #read}, for the pipeline to prepare for. */
    private final ArrayList<OFMessage> readMessages = new ArrayList<>();
    private String closeReason = "connection closed";

    SwitchConnection(ControllerContext context) {
        this.context = context;
        this.handshake = new Handshake(this, context.settings());
    }

    // ---- Netty side (switch's loop) ----

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.channel = ctx.channel();
        this.writes = new WriteBatcher(ctx,
                new PendingWriteLimit(channel, context.settings().maxPendingWriteBytes(), this::notReading));
        this.pending = new PendingRequests(ctx.executor(), this);
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
     * The read is over: the pipeline first {@linkplain PipelineService#prepare prepares} for its
     * messages, then each is handled in order, and the answers go out in one flush.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reads++;
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
            if (msg instanceof OFMessage message) {
                received(message);
            } else if (msg instanceof HelloMessage hello) {
                handshake.onHello(hello);
            } else if (msg instanceof UndecodableMessage bad) {
                badInput(bad);
            } else {
                LOG.warn("{}: unexpected object from the decoder: {}", this, msg);
            }
        }
        read.clear();
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

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        handleRead(); // what the decoder framed from the last bytes as the connection closed
        boolean wasActive = active;
        active = false;
        writes.discard();
        if (!handshake.isFinished()) {
            if (!tlsFailed) { // a TLS failure was logged already, with its reason
                LOG.info("{}: disconnected during handshake step {}", this, handshake.step());
            }
            handshake.finish();
        }
        pending.failAll(closeReason);
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
            badInput(new UndecodableMessage(message.getVersion().getWireVersion(), head[1] & 0xff, message.getXid(), head,
                    ErrorAnswer.badRequest(org.projectfloodlight.openflow.protocol.OFBadRequestCode.BAD_VERSION),
                    "OpenFlow " + OpenFlowVersions.name(message.getVersion()) + " message on a connection that negotiated "
                            + OpenFlowVersions.name(factory.getVersion())));
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
        } else {
            ports.put(desc.getPortNo(), desc);
        }
        if (active) {
            context.registry().notify(this, l -> l.portChanged(this, desc, change), "portChanged");
        }
    }

    private void badInput(UndecodableMessage bad) {
        if (!bad.mayBeAnswered()) {
            LOG.warn("{}: undecodable message type {} xid {}: {}; not answered (errors are never answered)",
                    this, bad.wireType(), bad.xid(), bad.reason());
            return;
        }
        LOG.warn("{}: undecodable message type {} xid {}: {}; answering {}",
                this, bad.wireType(), bad.xid(), bad.reason(), bad.answer());
        OFFactory f = factory != null ? factory : OFFactories.getFactory(context.settings().versions().last());
        writes.write(bad.answer().build(f, bad.xid(), bad.head()));
    }

    private static byte[] headOf(OFMessage message) {
        io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        try {
            message.writeTo(buf);
            byte[] head = new byte[Math.min(OFMessageDecoder.ERROR_DATA_BYTES, buf.readableBytes())];
            buf.readBytes(head);
            return head;
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
        channel.close();
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
        this.factory = OFFactories.getFactory(version);
    }

    void setFeatures(OFFeaturesReply features) {
        this.features = features;
    }

    void setPorts(List<OFPortDesc> list) {
        ports.clear();
        for (OFPortDesc p : list) {
            ports.put(p.getPortNo(), p);
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
    }

    CompletableFuture<Void> removed() {
        return removed;
    }

    /** Disconnects with a reason, for the log. */
    void disconnect(String why) {
        LOG.debug("{}: closing: {}", this, why);
        if (channel != null) {
            channel.close();
        }
    }

    <R> CompletableFuture<R> requestInternal(OFMessage request) {
        OFMessage withXid = request.createBuilder().setXid(nextXid()).build();
        CompletableFuture<R> f = pending.register(withXid, false, context.settings().requestTimeout());
        send(withXid);
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
        return requestInternal(request);
    }

    @Override
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        OFMessage withXid = request.createBuilder().setXid(nextXid()).build();
        CompletableFuture<List<R>> f = pending.register(withXid, true, context.settings().requestTimeout());
        send(withXid);
        return f;
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
