package io.heliograph.learningswitch;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
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

/** A switch of one OpenFlow version that records what the app writes to it. */
final class FakeSwitch implements OFSwitch {

    private final DatapathId id;
    private final OFFactory factory;
    final List<OFMessage> written = new ArrayList<>();

    FakeSwitch(long dpid, OFVersion version) {
        this.id = DatapathId.of(dpid);
        this.factory = OFFactories.getFactory(version);
    }

    /** The messages written since the last call. */
    List<OFMessage> take() {
        List<OFMessage> taken = List.copyOf(written);
        written.clear();
        return taken;
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
        return InetSocketAddress.createUnresolved("fake", 6653);
    }

    @Override
    public Instant getConnectedSince() {
        return Instant.EPOCH;
    }

    @Override
    public OFFeaturesReply getFeatures() {
        throw new UnsupportedOperationException("not needed by the learning switch");
    }

    @Override
    public OFDescStatsReply getDescription() {
        throw new UnsupportedOperationException("not needed by the learning switch");
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
    public boolean write(OFMessage message) {
        written.add(message);
        return true;
    }

    @Override
    public boolean write(Collection<? extends OFMessage> messages) {
        written.addAll(messages);
        return true;
    }

    @Override
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        throw new UnsupportedOperationException("not needed by the learning switch");
    }

    @Override
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        throw new UnsupportedOperationException("not needed by the learning switch");
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier() {
        throw new UnsupportedOperationException("not needed by the learning switch");
    }

    @Override
    public void disconnect() {
    }
}
