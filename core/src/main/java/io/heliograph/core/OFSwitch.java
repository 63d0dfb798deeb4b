package io.heliograph.core;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFRequest;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

/**
 * A connected OpenFlow switch, as the controller's applications see it.
 *
 * <p>Every switch is served by one I/O thread for its whole connection (run-to-completion): its
 * messages are decoded and run through the listener pipelines on that thread, in order. Writes made
 * on that thread while a read batch is handled go out in one flush when the batch ends; writes from
 * other threads are coalesced onto the switch's thread. All methods are safe to call from any thread.
 */
public interface OFSwitch {

    DatapathId getId();

    /** The negotiated OpenFlow version. Build messages with {@link #getFactory()} so one app serves every version. */
    OFVersion getVersion();

    /**
     * Loxi's factory of the negotiated version whose builders take this switch's own xids, not
     * Loxi's global counter (which every I/O thread would share).
     */
    OFFactory getFactory();

    InetSocketAddress getRemoteAddress();

    Instant getConnectedSince();

    OFFeaturesReply getFeatures();

    /**
     * The switch's description (manufacturer, hardware, software, serial, datapath), or null until
     * the switch has answered the description request. A switch is announced without waiting for
     * it: it is asked for during the handshake, asked again a few times with a backoff if it does not
     * answer, and filled in whenever the answer comes; a switch that never answers stays null.
     */
    OFDescStatsReply getDescription();

    /** The current port table, kept up to date by PORT_STATUS messages. */
    Collection<OFPortDesc> getPorts();

    /** The port with this number, or null. */
    OFPortDesc getPort(OFPort port);

    boolean isConnected();

    /** Queues a message for the switch. Returns false when the switch is no longer connected. */
    boolean write(OFMessage message);

    /** Queues messages for the switch, in order. Returns false when the switch is no longer connected. */
    boolean write(Collection<? extends OFMessage> messages);

    /**
     * Sends a request whose answer is one message (BARRIER, ECHO, ROLE, GET_CONFIG...). The future
     * completes with the reply matched by xid, exceptionally with an {@link OFErrorException} when
     * the switch answers with an error, with a {@link java.net.ProtocolException} as soon as an
     * answer with its xid arrives that cannot be decoded, with a
     * {@link java.util.concurrent.TimeoutException} after the configured request timeout, with an
     * {@link java.io.IOException} when the switch disconnects, or at once with a
     * {@link java.util.concurrent.RejectedExecutionException} when the switch already has as many
     * requests awaiting answers as the controller allows ({@code maxPendingRequests}).
     */
    <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request);

    /**
     * Sends a statistics (multipart) request and collects every part of the reply, in order. Fails
     * as {@link #request} does.
     */
    <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request);

    /** Sends a barrier; the future completes when every message written before it has been processed. */
    CompletableFuture<OFBarrierReply> barrier();

    /**
     * Whether {@link #bundle()} works here: the switch negotiated OpenFlow 1.4 or later. Below it,
     * order the messages so that every intermediate state is safe instead.
     */
    default boolean supportsBundles() {
        return false;
    }

    /**
     * Opens an OpenFlow bundle on the switch: messages added to it take effect together when it is
     * committed, or not at all. See {@link OFBundle}.
     *
     * @throws UnsupportedOperationException when the switch negotiated a version below OpenFlow 1.4
     *         (bundles are 1.4's), saying which it negotiated
     * @throws java.util.concurrent.RejectedExecutionException when the switch already has as many open
     *         bundles as the controller allows, or is not connected
     */
    default OFBundle bundle() {
        throw new UnsupportedOperationException(this + " does not support OpenFlow bundles");
    }

    /**
     * This controller's role for the switch: the one the switch last confirmed, except that a
     * demotion to SLAVE counts from the moment it is asked for. {@link Role#EQUAL} until a role is asked for.
     */
    Role getRole();

    /**
     * Asks the switch for a role: ROLE_REQUEST on OpenFlow 1.2+, Nicira's role request on 1.0. The
     * generation id orders masters: from 1.2 on the switch refuses a MASTER or SLAVE request whose
     * generation id is older than one it has seen (1.0 has no generation id; it is ignored there).
     *
     * <p>A request for SLAVE applies here at once, before the switch answers: from then on no
     * packet-in is dispatched and the controller stops acting as master. A request for MASTER
     * applies when the switch confirms it; until then (and for good, when the switch ignores or
     * refuses role requests) the role stays as it was, and an EQUAL controller is served like a
     * master. {@link SwitchListener#roleChanged} is told either way. The request is written to the
     * switch before this method returns control to the switch's I/O thread, so a switch initializer
     * may complete right after calling it: the switch sees the request before anything else.
     *
     * @return the role the switch confirmed; exceptionally an {@link OFErrorException} when the
     *         switch refuses (a stale generation id, or no role support), the role then unchanged
     */
    java.util.concurrent.CompletableFuture<Role> requestRole(Role role, long generationId);

    /** Closes the connection. */
    void disconnect();

    /**
     * How many bytes a writer may write after {@link #whenWritable()} completes without passing the
     * controller's bound on bytes waiting to be sent to a switch ({@code maxPendingWriteBytes} of
     * {@code io.heliograph.openflow}), past which a switch is dropped as not reading.
     */
    int WRITABLE_ROOM_BYTES = 32 << 10;

    /**
     * Completes once every message written before this call has been handed to the connection and
     * the connection takes more without queueing: then at least {@link #WRITABLE_ROOM_BYTES} may be
     * written. A bulk writer (a probe round, a flow push) writes that much at a time and waits here
     * in between, so it goes as fast as the switch reads and never gets it dropped as not reading.
     * Completes on the switch's I/O thread (continue elsewhere for anything slow); exceptionally
     * when the switch disconnects first. Completed at once by default.
     */
    default CompletableFuture<Void> whenWritable() {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * What the controller turned away from this switch since it connected, by kind, for operators
     * (the switch's REST view shows them): {@code packetInsDropped} (over the packet-in rate),
     * {@code portsRefused} (over the port bound), {@code requestsRefused} (over the bound on pending
     * requests), {@code badInput.<kind>} (messages that could not be decoded or were not allowed,
     * by the kind the log names once) and the like. Only what happened appears; empty by default.
     */
    default Map<String, Long> getCounters() {
        return Map.of();
    }
}
