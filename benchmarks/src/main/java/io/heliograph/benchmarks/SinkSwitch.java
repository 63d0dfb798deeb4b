package io.heliograph.benchmarks;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFFactories;
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

import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;

/**
 * A switch handle that swallows what is written to it, keeping a count and the last message.
 * Core's {@code FakeSwitch} logs every message for tests to read back; at millions of messages a
 * second that log, not the code under test, would be measured. Keeping the last message makes it
 * escape, so the JIT cannot skip building it.
 */
public final class SinkSwitch implements OFSwitch {

    private final DatapathId id;
    private final OFFactory factory;
    private long written;
    private OFMessage last;

    public SinkSwitch(long dpid, OFVersion version) {
        this.id = DatapathId.of(dpid);
        this.factory = OFFactories.getFactory(version);
    }

    /** Messages written so far. */
    public long written() {
        return written;
    }

    /** The last message written, or null. */
    public OFMessage last() {
        return last;
    }

    @Override
    public boolean write(OFMessage message) {
        written++;
        last = message;
        return true;
    }

    @Override
    public boolean write(Collection<? extends OFMessage> messages) {
        for (OFMessage message : messages) {
            write(message);
        }
        return true;
    }

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
        return InetSocketAddress.createUnresolved("benchmark", 6653);
    }

    @Override
    public Instant getConnectedSince() {
        return Instant.EPOCH;
    }

    @Override
    public OFFeaturesReply getFeatures() {
        throw unsupported("getFeatures");
    }

    @Override
    public OFDescStatsReply getDescription() {
        throw unsupported("getDescription");
    }

    @Override
    public Collection<OFPortDesc> getPorts() {
        return List.of();
    }

    @Override
    public OFPortDesc getPort(OFPort port) {
        return null;
    }

    @Override
    public boolean isConnected() {
        return true;
    }

    @Override
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        throw unsupported("request " + request.getType());
    }

    @Override
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        throw unsupported("requestStatistics " + request.getStatsType());
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier() {
        throw unsupported("barrier");
    }

    @Override
    public void disconnect() {
        throw unsupported("disconnect");
    }

    @Override
    public Role getRole() {
        return Role.EQUAL;
    }

    @Override
    public java.util.concurrent.CompletableFuture<Role> requestRole(Role role, long generationId) {
        throw unsupported("requestRole");
    }

    private UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException(this + " only takes writes; a benchmark called " + what);
    }

    @Override
    public String toString() {
        return "SinkSwitch[" + id + ", " + factory.getVersion() + "]";
    }
}
