package io.heliograph.core.pipeline;

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

/** A switch that only has an identity: the pipeline hands it to listeners and to the failure log. */
final class TestSwitch implements OFSwitch {

    private final DatapathId id;

    TestSwitch(long dpid) {
        this.id = DatapathId.of(dpid);
    }

    @Override
    public DatapathId getId() {
        return id;
    }

    @Override
    public OFVersion getVersion() {
        return OFVersion.OF_13;
    }

    @Override
    public OFFactory getFactory() {
        return OFFactories.getFactory(OFVersion.OF_13);
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Instant getConnectedSince() {
        throw new UnsupportedOperationException();
    }

    @Override
    public OFFeaturesReply getFeatures() {
        throw new UnsupportedOperationException();
    }

    @Override
    public OFDescStatsReply getDescription() {
        throw new UnsupportedOperationException();
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
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean write(Collection<? extends OFMessage> messages) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void disconnect() {
        throw new UnsupportedOperationException();
    }

    @Override
    public String toString() {
        return "TestSwitch[" + id + "]";
    }
}
