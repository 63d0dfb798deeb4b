package io.heliograph.topology.internal;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.projectfloodlight.openflow.protocol.OFBarrierReply;
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
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFSwitch;

/**
 * A switch of one OpenFlow version with a port table whose ports can go down, come up and be
 * deleted, recording what discovery writes to it. (The core's shared fixture,
 * io.heliograph.core.testing.FakeSwitch, has no ports, which is all discovery looks at.)
 */
final class FakeSwitch implements OFSwitch {

    private final DatapathId id;
    private final OFFactory factory;
    /** Replaced whole on every change, so discovery's thread reads it while a test changes it. */
    private volatile Map<OFPort, OFPortDesc> ports = new LinkedHashMap<>();
    private final List<OFMessage> written = new ArrayList<>();
    volatile boolean connected = true;

    /** A switch with physical ports 1..portCount, all up, plus its LOCAL port. */
    FakeSwitch(long dpid, OFVersion version, int portCount) {
        this.id = DatapathId.of(dpid);
        this.factory = OFFactories.getFactory(version);
        for (int p = 1; p <= portCount; p++) {
            setPort(p, true);
        }
        Map<OFPort, OFPortDesc> withLocal = new LinkedHashMap<>(ports);
        withLocal.put(OFPort.LOCAL, port(OFPort.LOCAL, true));
        ports = withLocal;
    }

    /** Replaces the port's description with one that is up or down (link down), as PORT_STATUS would. */
    OFPortDesc setPort(int number, boolean up) {
        OFPortDesc desc = port(OFPort.of(number), up);
        Map<OFPort, OFPortDesc> next = new LinkedHashMap<>(ports);
        next.put(desc.getPortNo(), desc);
        ports = next;
        return desc;
    }

    /** Removes the port from the table, as PORT_STATUS DELETE would; returns its last description. */
    OFPortDesc deletePort(int number) {
        Map<OFPort, OFPortDesc> next = new LinkedHashMap<>(ports);
        OFPortDesc gone = next.remove(OFPort.of(number));
        ports = next;
        return gone;
    }

    private OFPortDesc port(OFPort number, boolean up) {
        return factory.buildPortDesc()
                .setPortNo(number)
                .setHwAddr(MacAddress.of((id.getLong() & 0xffffff) << 16 | number.getPortNumber() & 0xffff))
                .setName("p" + number.getPortNumber())
                .setConfig(up ? Set.of() : Set.of(OFPortConfig.PORT_DOWN))
                .setState(up ? Set.of() : Set.of(OFPortState.LINK_DOWN))
                .build();
    }

    /** The messages written since the last call. */
    synchronized List<OFMessage> take() {
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
        throw new UnsupportedOperationException("not needed by topology");
    }

    @Override
    public OFDescStatsReply getDescription() {
        throw new UnsupportedOperationException("not needed by topology");
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

    @Override
    public synchronized boolean write(OFMessage message) {
        written.add(message);
        return connected;
    }

    @Override
    public synchronized boolean write(Collection<? extends OFMessage> messages) {
        written.addAll(messages);
        return connected;
    }

    @Override
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        throw new UnsupportedOperationException("not needed by topology");
    }

    @Override
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        throw new UnsupportedOperationException("not needed by topology");
    }

    @Override
    public CompletableFuture<OFBarrierReply> barrier() {
        throw new UnsupportedOperationException("not needed by topology");
    }

    @Override
    public void disconnect() {
        connected = false;
    }

    @Override
    public String toString() {
        return "FakeSwitch[" + id + ", " + factory.getVersion() + "]";
    }
}
