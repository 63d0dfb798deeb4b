package io.heliograph.core;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
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

    OFFactory getFactory();

    InetSocketAddress getRemoteAddress();

    Instant getConnectedSince();

    OFFeaturesReply getFeatures();

    /** The switch's description (manufacturer, hardware, software, serial, datapath). */
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
     * the switch answers with an error, or with a {@link java.util.concurrent.TimeoutException}
     * after the configured request timeout, or when the switch disconnects.
     */
    <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request);

    /** Sends a statistics (multipart) request and collects every part of the reply, in order. */
    <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request);

    /** Sends a barrier; the future completes when every message written before it has been processed. */
    CompletableFuture<OFBarrierReply> barrier();

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
     * applies when the switch confirms it. {@link SwitchListener#roleChanged} is told either way.
     *
     * @return the role the switch confirmed; exceptionally an {@link OFErrorException} when the
     *         switch refuses (a stale generation id, or no role support), the role then unchanged
     */
    java.util.concurrent.CompletableFuture<Role> requestRole(Role role, long generationId);

    /** Closes the connection. */
    void disconnect();
}
