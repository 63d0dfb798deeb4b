package io.heliograph.stats.internal;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFRequest;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFStatsType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.OFSwitch;

/**
 * A switch of one OpenFlow version that records statistics requests and answers each type as the
 * test scripted it: with reply parts (each request gets the parts the script builds for it), never
 * (left pending), or with an OpenFlow error. Unscripted types stay pending.
 * (Minimal stand-in until core's shared test fixture lands.)
 */
final class FakeStatsSwitch implements OFSwitch {

    private final DatapathId id;
    private final OFFactory factory;
    private final Map<OFStatsType, Function<OFFactory, List<? extends OFStatsReply>>> scripts =
            new EnumMap<>(OFStatsType.class);
    private final Map<OFStatsType, Boolean> refusals = new EnumMap<>(OFStatsType.class);
    final List<OFStatsRequest<?>> requests = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<?>> pending = new CopyOnWriteArrayList<>();
    volatile boolean connected = true;

    FakeStatsSwitch(long dpid, OFVersion version) {
        this.id = DatapathId.of(dpid);
        this.factory = OFFactories.getFactory(version);
    }

    /** Answers every request of this type with the parts {@code parts} builds at that moment. */
    synchronized FakeStatsSwitch answer(OFStatsType type, Function<OFFactory, List<? extends OFStatsReply>> parts) {
        scripts.put(type, parts);
        refusals.remove(type);
        return this;
    }

    /** Answers every request of this type with an OpenFlow error. */
    synchronized FakeStatsSwitch refuse(OFStatsType type) {
        scripts.remove(type);
        refusals.put(type, true);
        return this;
    }

    /** Requests of this type so far. */
    long requestCount(OFStatsType type) {
        return requests.stream().filter(r -> r.getStatsType() == type).count();
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        requests.add(request);
        CompletableFuture<List<R>> future = new CompletableFuture<>();
        if (refusals.containsKey(request.getStatsType())) {
            OFErrorMsg error = factory.errorMsgs().buildBadRequestErrorMsg()
                    .setCode(org.projectfloodlight.openflow.protocol.OFBadRequestCode.BAD_STAT).build();
            future.completeExceptionally(new OFErrorException(error));
        } else if (scripts.containsKey(request.getStatsType())) {
            future.complete((List<R>) List.copyOf(scripts.get(request.getStatsType()).apply(factory)));
        } else {
            pending.add(future);
        }
        return future;
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
        throw new UnsupportedOperationException("not needed by statistics");
    }

    @Override
    public OFDescStatsReply getDescription() {
        throw new UnsupportedOperationException("not needed by statistics");
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
    public boolean write(OFMessage message) {
        return connected;
    }

    @Override
    public boolean write(Collection<? extends OFMessage> messages) {
        return connected;
    }

    @Override
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        throw new UnsupportedOperationException("not needed by statistics");
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier() {
        throw new UnsupportedOperationException("not needed by statistics");
    }

    @Override
    public void disconnect() {
        connected = false;
    }
}
