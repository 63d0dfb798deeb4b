package io.heliograph.core.testing;

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

/**
 * An {@link OFSwitch} for unit tests of pipelines and apps, with no connection behind it: it has an
 * identity and a version, and records what is written to it. It answers no requests (they throw),
 * so a test that needs answers says so by failing. Shared with the apps' tests through core's
 * test-jar; thread-safe, since apps may write from their own threads.
 */
public final class FakeSwitch implements OFSwitch {

    private final DatapathId id;
    private final OFFactory factory;
    private final List<OFMessage> written = new ArrayList<>();
    private volatile boolean connected = true;

    /** A switch speaking OpenFlow 1.3. */
    public FakeSwitch(long dpid) {
        this(dpid, OFVersion.OF_13);
    }

    public FakeSwitch(long dpid, OFVersion version) {
        this.id = DatapathId.of(dpid);
        this.factory = OFFactories.getFactory(version);
    }

    /** The messages written since the last call, in order. */
    public synchronized List<OFMessage> take() {
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
        throw new UnsupportedOperationException("FakeSwitch has no FEATURES_REPLY");
    }

    @Override
    public OFDescStatsReply getDescription() {
        throw new UnsupportedOperationException("FakeSwitch has no description");
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
        return connected;
    }

    @Override
    public synchronized boolean write(OFMessage message) {
        if (!connected) {
            return false;
        }
        written.add(message);
        return true;
    }

    @Override
    public synchronized boolean write(Collection<? extends OFMessage> messages) {
        if (!connected) {
            return false;
        }
        written.addAll(messages);
        return true;
    }

    @Override
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        throw new UnsupportedOperationException("FakeSwitch answers no requests");
    }

    @Override
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        throw new UnsupportedOperationException("FakeSwitch answers no requests");
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier() {
        throw new UnsupportedOperationException("FakeSwitch answers no requests");
    }

    /** Marks the switch disconnected: later writes are refused, as on a real connection. */
    @Override
    public void disconnect() {
        connected = false;
    }

    @Override
    public String toString() {
        return "FakeSwitch[" + id + "]";
    }
}
