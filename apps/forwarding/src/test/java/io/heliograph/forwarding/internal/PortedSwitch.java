package io.heliograph.forwarding.internal;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
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
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.testing.FakeSwitch;

/**
 * Core's {@link FakeSwitch} plus what forwarding needs and it lacks (so far): a port table (floods
 * name their ports from it) and a journal shared by every switch of a test fabric, which shows the
 * order of writes across switches (paths are written last hop first).
 */
final class PortedSwitch implements OFSwitch {

    /** One write to one switch, in the fabric-wide order. */
    record Write(DatapathId dpid, OFMessage message) {
    }

    private final FakeSwitch recorder;
    private final List<OFPortDesc> ports = new ArrayList<>();
    private final List<Write> journal;
    private List<CompletableFuture<OFBarrierReply>> heldBarriers;

    PortedSwitch(long dpid, OFVersion version, int portCount, List<Write> journal) {
        this.recorder = new FakeSwitch(dpid, version);
        this.journal = journal;
        for (int p = 1; p <= portCount; p++) {
            ports.add(recorder.getFactory().buildPortDesc().setPortNo(OFPort.of(p))
                    .setHwAddr(MacAddress.of(dpid << 8 | p)).setName("p" + p).build());
        }
        ports.add(recorder.getFactory().buildPortDesc().setPortNo(OFPort.LOCAL)
                .setHwAddr(MacAddress.of(dpid << 8)).setName("local").build());
    }

    /** The messages written to this switch since the last call, in order. */
    List<OFMessage> take() {
        return recorder.take();
    }

    @Override
    public DatapathId getId() {
        return recorder.getId();
    }

    @Override
    public OFVersion getVersion() {
        return recorder.getVersion();
    }

    @Override
    public OFFactory getFactory() {
        return recorder.getFactory();
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return recorder.getRemoteAddress();
    }

    @Override
    public Instant getConnectedSince() {
        return recorder.getConnectedSince();
    }

    @Override
    public OFFeaturesReply getFeatures() {
        return recorder.getFeatures();
    }

    @Override
    public OFDescStatsReply getDescription() {
        return recorder.getDescription();
    }

    @Override
    public Collection<OFPortDesc> getPorts() {
        return List.copyOf(ports);
    }

    @Override
    public OFPortDesc getPort(OFPort port) {
        return ports.stream().filter(p -> p.getPortNo().equals(port)).findFirst().orElse(null);
    }

    @Override
    public boolean isConnected() {
        return recorder.isConnected();
    }

    @Override
    public boolean write(OFMessage message) {
        synchronized (journal) {
            journal.add(new Write(getId(), message));
        }
        return recorder.write(message);
    }

    @Override
    public boolean write(Collection<? extends OFMessage> messages) {
        synchronized (journal) {
            messages.forEach(m -> journal.add(new Write(getId(), m)));
        }
        return recorder.write(messages);
    }

    @Override
    public <R extends OFMessage> CompletableFuture<R> request(OFRequest<R> request) {
        return recorder.request(request);
    }

    @Override
    public <R extends OFStatsReply> CompletableFuture<List<R>> requestStatistics(OFStatsRequest<R> request) {
        return recorder.requestStatistics(request);
    }

    /**
     * Answers barriers at once, as a switch with nothing queued would; after {@link #holdBarriers} they
     * wait for {@link #answerBarriers} or {@link #failBarriers}.
     */
    @Override
    public synchronized CompletableFuture<OFBarrierReply> barrier() {
        CompletableFuture<OFBarrierReply> reply = new CompletableFuture<>();
        if (heldBarriers == null) {
            reply.complete(getFactory().buildBarrierReply().build());
        } else {
            heldBarriers.add(reply);
        }
        return reply;
    }

    synchronized void holdBarriers() {
        heldBarriers = new ArrayList<>();
    }

    void answerBarriers() {
        held().forEach(f -> f.complete(getFactory().buildBarrierReply().build()));
    }

    void failBarriers(Throwable failure) {
        held().forEach(f -> f.completeExceptionally(failure));
    }

    private synchronized List<CompletableFuture<OFBarrierReply>> held() {
        List<CompletableFuture<OFBarrierReply>> held = heldBarriers == null ? List.of() : List.copyOf(heldBarriers);
        heldBarriers = null;
        return held;
    }

    @Override
    public void disconnect() {
        recorder.disconnect();
    }

    @Override
    public Role getRole() {
        return recorder.getRole();
    }

    @Override
    public CompletableFuture<Role> requestRole(Role role, long generationId) {
        return recorder.requestRole(role, generationId);
    }
}
