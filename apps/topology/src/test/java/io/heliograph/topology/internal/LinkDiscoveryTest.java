package io.heliograph.topology.internal;

import static io.heliograph.topology.internal.Fabric.end;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.topology.Link;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyEvent.Type;
import io.heliograph.topology.internal.LldpProbeCodec.Outcome;

/**
 * Discovery over fake switches joined by a {@link Fabric}: every packet-out of a probe comes back as
 * a packet-in at the other end of its cable. The clock is a variable, and the executor runs tasks
 * at once, so nothing sleeps.
 */
class LinkDiscoveryTest {

    private static final TopologySettings SETTINGS = new TopologySettings(5_000, 15_000, 3_000);

    private long now = 1_000_000;
    private final LldpProbeCodec codec = new LldpProbeCodec(new byte[32], 0x42);
    private final List<List<TopologyEvent>> published = new ArrayList<>();
    private final LinkDiscovery discovery = new LinkDiscovery(codec, SETTINGS, () -> now, published::add,
            Runnable::run);
    private final ProbeReceiver receiver = new ProbeReceiver(codec, () -> now, () -> SETTINGS, Runnable::run,
            discovery);
    private final Fabric fabric = new Fabric(receiver::receive);

    private FakeSwitch add(long dpid, OFVersion version, int ports) {
        FakeSwitch sw = fabric.add(new FakeSwitch(dpid, version, ports));
        discovery.switchAdded(sw);
        return sw;
    }

    private static Link link(long a, int aPort, long b, int bPort) {
        return new Link(end(a, aPort), end(b, bPort));
    }

    private Set<Link> links() {
        return discovery.topology().links();
    }

    @Test
    void aRingOfEveryOpenFlowVersionIsDiscoveredBothWays() {
        OFVersion[] versions = {OFVersion.OF_10, OFVersion.OF_13, OFVersion.OF_14, OFVersion.OF_15};
        for (int i = 1; i <= 4; i++) {
            fabric.cable(i, 1, i % 4 + 1, 2); // port 3 of each faces a host
        }
        for (int i = 1; i <= 4; i++) {
            add(i, versions[i - 1], 3);
        }
        fabric.deliver();
        Set<Link> expected = new HashSet<>();
        for (int i = 1; i <= 4; i++) {
            expected.add(link(i, 1, i % 4 + 1, 2));
            expected.add(link(i % 4 + 1, 2, i, 1));
        }
        assertEquals(expected, links());
        assertEquals(Set.of(), discovery.topology().unidirectionalLinks());
        assertEquals(1, discovery.topology().islands().size());
        assertFalse(discovery.topology().isInterSwitchPort(end(1, 3)));
        assertTrue(fabric.commands.stream().allMatch(c -> c == Command.STOP), "our probes are consumed");
        assertEquals(Map.of(), nonZeroRefusals());
    }

    /**
     * On a real controller probes wait on the topology thread; the links they find are published
     * in one snapshot behind them, not one snapshot (a copy of the whole topology) per link.
     */
    @Test
    void theLinksOfOneRoundArePublishedInOneSnapshot() {
        Deque<Runnable> topologyThread = new ArrayDeque<>();
        List<List<TopologyEvent>> batches = new ArrayList<>();
        LinkDiscovery queued = new LinkDiscovery(codec, SETTINGS, () -> now, batches::add, topologyThread::add);
        Fabric mesh = new Fabric(new ProbeReceiver(codec, () -> now, () -> SETTINGS, topologyThread::add,
                queued)::receive);
        int n = 4; // a full mesh: switch a's port toward b is b, or b - 1 past a itself
        for (int a = 1; a <= n; a++) {
            for (int b = a + 1; b <= n; b++) {
                mesh.cable(a, b - 1, b, a);
            }
        }
        for (int i = 1; i <= n; i++) {
            queued.switchAdded(mesh.add(new FakeSwitch(i, OFVersion.OF_13, n - 1)));
        }
        runAll(topologyThread); // the switches' publication
        long before = queued.topology().version();
        batches.clear();

        assertEquals(n * (n - 1), mesh.deliver(), "one probe over each directed link");
        runAll(topologyThread);

        assertEquals(n * (n - 1), queued.topology().links().size());
        assertEquals(1, batches.size(), "one publication for the round");
        List<TopologyEvent> events = batches.get(0);
        assertEquals(n * (n - 1), events.size());
        assertTrue(events.stream().allMatch(e -> e.type() == Type.LINK_ADDED), events.toString());
        assertTrue(events.stream().allMatch(e -> e.topology() == queued.topology()), "all carry the one snapshot");
        assertEquals(before + 1, queued.topology().version());
    }

    /**
     * Switches connecting together (a thousand at a controller's start) are published in one snapshot
     * behind their announcements, not one snapshot (a copy of every switch before it) per switch.
     */
    @Test
    void switchesThatConnectTogetherArePublishedInOneSnapshot() {
        Deque<Runnable> topologyThread = new ArrayDeque<>();
        List<List<TopologyEvent>> batches = new ArrayList<>();
        LinkDiscovery queued = new LinkDiscovery(codec, SETTINGS, () -> now, batches::add, topologyThread::add);
        long before = queued.topology().version();
        for (int i = 1; i <= 5; i++) {
            queued.switchAdded(fabric.add(new FakeSwitch(i, OFVersion.OF_13, 2)));
        }
        assertEquals(List.of(), batches, "published behind the announcements waiting on the topology thread");

        runAll(topologyThread);

        assertEquals(1, batches.size(), "one publication");
        List<TopologyEvent> events = batches.get(0);
        assertEquals(5, events.size());
        assertTrue(events.stream().allMatch(e -> e.type() == Type.SWITCH_ADDED && e.topology() == queued.topology()),
                events.toString());
        assertEquals(5, queued.topology().switches().size());
        assertEquals(before + 1, queued.topology().version());
    }

    private static void runAll(Deque<Runnable> topologyThread) {
        while (!topologyThread.isEmpty()) {
            topologyThread.poll().run();
        }
    }

    @Test
    void probesLeaveEveryUpPhysicalPortAndNoOther() {
        FakeSwitch sw = fabric.add(new FakeSwitch(1, OFVersion.OF_13, 4));
        sw.setPort(2, false);
        discovery.switchAdded(sw);
        List<OFMessage> written = sw.take();
        assertEquals(List.of(OFPort.of(1), OFPort.of(3), OFPort.of(4)), outputPorts(written));
        for (OFMessage message : written) {
            OFPacketOut out = (OFPacketOut) message;
            assertEquals(OFPort.CONTROLLER, out.getInPort());
            assertEquals(Outcome.ACCEPTED, codec.check(out.getData(), now, 0).outcome());
        }
        assertEquals(3, discovery.probesSent());
    }

    @Test
    void onOpenFlow15TheProbesInPortIsInTheMatch() {
        FakeSwitch sw = add(1, OFVersion.OF_15, 1);
        OFPacketOut out = (OFPacketOut) sw.take().get(0);
        assertEquals(OFPort.CONTROLLER, out.getMatch().get(MatchField.IN_PORT));
    }

    @Test
    void aNewLinkMakesItsDestinationProbeBackAtOnce() {
        fabric.cable(1, 1, 2, 1);
        add(1, OFVersion.OF_13, 1);
        FakeSwitch b = add(2, OFVersion.OF_13, 1);
        b.take(); // 2's own probe is lost: only 1's reaches the other end
        fabric.deliver();
        assertEquals(Set.of(link(1, 1, 2, 1), link(2, 1, 1, 1)), links());
    }

    @Test
    void aCableThatCarriesOneWayIsAUnidirectionalLink() {
        fabric.oneWay(1, 1, 2, 1);
        add(1, OFVersion.OF_13, 1);
        add(2, OFVersion.OF_10, 1);
        fabric.deliver();
        assertEquals(Set.of(link(1, 1, 2, 1)), links());
        assertEquals(Set.of(link(1, 1, 2, 1)), discovery.topology().unidirectionalLinks());
        assertEquals(2, discovery.topology().islands().size(), "a one-way link joins no islands");
        assertEquals(List.of(false), discovery.linkStatus().stream().map(LinkStatus::bidirectional).toList());
    }

    @Test
    void linksExpireWithoutProbesAndLiveWithThem() {
        fabric.cable(1, 1, 2, 1);
        add(1, OFVersion.OF_13, 1);
        add(2, OFVersion.OF_13, 1);
        fabric.deliver();
        long discovered = now;
        now += 10_000;
        discovery.probeAll();
        fabric.deliver();
        now += 10_000;
        discovery.sweep();
        assertEquals(2, links().size(), "confirmed 10 s ago, the timeout is 15 s");
        LinkStatus status = discovery.linkStatus().get(0);
        assertEquals(discovered, status.firstSeenMs());
        assertEquals(discovered + 10_000, status.lastSeenMs());

        now += 5_001;
        discovery.sweep();
        assertEquals(Set.of(), links());
        assertEquals(List.of(Type.LINK_REMOVED, Type.LINK_REMOVED), types(last()));
    }

    @Test
    void aShorterTimeoutAppliesAtTheNextSweep() {
        fabric.cable(1, 1, 2, 1);
        add(1, OFVersion.OF_13, 1);
        add(2, OFVersion.OF_13, 1);
        fabric.deliver();
        now += 7_000;
        discovery.sweep();
        assertEquals(2, links().size());
        discovery.configure(new TopologySettings(2_000, 6_000, 1_000));
        discovery.sweep();
        assertEquals(Set.of(), links());
    }

    @Test
    void aPortGoingDownRemovesItsLinksAtOnceAndAProbeInFlightCannotBringThemBack() {
        fabric.cable(1, 1, 2, 1);
        add(1, OFVersion.OF_13, 2);
        FakeSwitch b = add(2, OFVersion.OF_13, 2);
        fabric.deliver();
        assertEquals(2, links().size());

        discovery.probeAll(); // in flight while the port goes down
        discovery.portChanged(b, b.setPort(1, false), PortChange.MODIFIED);
        assertEquals(Set.of(), links());
        assertEquals(Set.of(Type.LINK_REMOVED), Set.copyOf(types(last())));
        assertEquals(2, last().size());
        fabric.deliver();
        assertEquals(Set.of(), links());

        discovery.portChanged(b, b.setPort(1, true), PortChange.MODIFIED);
        fabric.deliver();
        assertEquals(Set.of(link(1, 1, 2, 1), link(2, 1, 1, 1)), links(), "a port coming up is probed at once");
    }

    @Test
    void aDeletedPortLosesItsLinks() {
        fabric.cable(1, 1, 2, 1);
        FakeSwitch a = add(1, OFVersion.OF_14, 1);
        add(2, OFVersion.OF_14, 1);
        fabric.deliver();
        discovery.portChanged(a, a.deletePort(1), PortChange.DELETED);
        assertEquals(Set.of(), links());
    }

    @Test
    void aSwitchLeavingTakesItsLinksWithItThenItself() {
        fabric.cable(1, 1, 2, 1);
        fabric.cable(2, 2, 3, 1);
        add(1, OFVersion.OF_13, 1);
        FakeSwitch b = add(2, OFVersion.OF_13, 2);
        add(3, OFVersion.OF_13, 1);
        fabric.deliver();
        assertEquals(4, links().size());
        discovery.switchRemoved(b);
        assertEquals(Set.of(), links());
        assertEquals(Set.of(DatapathId.of(1), DatapathId.of(3)), discovery.topology().switches());
        List<TopologyEvent> events = last();
        assertEquals(List.of(Type.LINK_REMOVED, Type.LINK_REMOVED, Type.LINK_REMOVED, Type.LINK_REMOVED,
                Type.SWITCH_REMOVED), types(events));
        assertEquals(DatapathId.of(2), events.get(4).dpid());
        assertEquals(2, discovery.topology().islands().size());
    }

    @Test
    void theRemovalOfAnOlderConnectionDoesNotRemoveTheNewOne() {
        FakeSwitch old = add(1, OFVersion.OF_13, 1);
        FakeSwitch reconnected = new FakeSwitch(1, OFVersion.OF_13, 1);
        discovery.switchAdded(reconnected);
        discovery.switchRemoved(old);
        assertEquals(Set.of(DatapathId.of(1)), discovery.topology().switches());
        discovery.switchRemoved(reconnected);
        assertEquals(Set.of(), discovery.topology().switches());
    }

    @Test
    void aProbeFromASwitchThatLeftMakesNoLink() {
        fabric.cable(1, 1, 2, 1);
        FakeSwitch a = add(1, OFVersion.OF_13, 1);
        add(2, OFVersion.OF_13, 1);
        discovery.switchRemoved(a);
        fabric.deliver();
        assertEquals(Set.of(), links());
    }

    @Test
    void aProbeThatComesBackToItsOwnPortMakesNoLink() {
        fabric.oneWay(1, 1, 1, 1); // a reflecting port (a loopback plug, a hairpin)
        add(1, OFVersion.OF_13, 1);
        fabric.deliver();
        assertEquals(Set.of(), links());
    }

    @Test
    void eventsComeInOrderEachWithTheSnapshotAfterItsChange() {
        fabric.cable(1, 1, 2, 1);
        add(1, OFVersion.OF_13, 1);
        FakeSwitch b = add(2, OFVersion.OF_13, 1);
        b.take();
        fabric.deliver();
        assertEquals(List.of(List.of(Type.SWITCH_ADDED), List.of(Type.SWITCH_ADDED), List.of(Type.LINK_ADDED),
                List.of(Type.LINK_ADDED, Type.LINK_UPDATED)), published.stream().map(LinkDiscoveryTest::types).toList());
        assertEquals(link(1, 1, 2, 1), published.get(2).get(0).link());
        assertEquals(link(2, 1, 1, 1), published.get(3).get(0).link());
        assertEquals(link(1, 1, 2, 1), published.get(3).get(1).link(), "now bidirectional");
        long version = 0;
        for (List<TopologyEvent> change : published) {
            long changeVersion = change.get(0).topology().version();
            assertTrue(changeVersion > version, "versions grow");
            version = changeVersion;
            for (TopologyEvent event : change) {
                assertEquals(changeVersion, event.topology().version(), "one snapshot per change");
                if (event.type() == Type.LINK_ADDED) {
                    assertTrue(event.topology().links().contains(event.link()));
                }
            }
        }
        assertEquals(discovery.topology(), published.get(3).get(0).topology());
        int before = published.size();
        now += 1_000;
        discovery.probeAll();
        fabric.deliver();
        discovery.sweep();
        assertEquals(before, published.size(), "a refresh changes nothing and publishes nothing");
    }

    // The packet-in side: what reaches the receiver from the wire.

    @Test
    void anotherControllersProbeIsStoppedAndMakesNoLink() {
        FakeSwitch a = add(1, OFVersion.OF_13, 1);
        FakeSwitch b = add(2, OFVersion.OF_13, 1);
        LldpProbeCodec other = new LldpProbeCodec(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
                0x43);
        byte[] forged = other.encode(a.getId(), OFPort.of(1), a.getPort(OFPort.of(1)).getHwAddr(), now, 15);
        assertEquals(Command.STOP, receiver.receive(b, Fabric.packetIn(b.getFactory(), OFPort.of(1), forged)));
        assertEquals(Set.of(), links());
        assertEquals(Map.of(Outcome.OTHER_CONTROLLER, 1L), nonZeroRefusals());
    }

    @Test
    void aForgedSignatureIsStoppedAndMakesNoLink() {
        FakeSwitch a = add(1, OFVersion.OF_13, 2);
        FakeSwitch b = add(2, OFVersion.OF_13, 1);
        byte[] probe = probeBytes(a, 1);
        // Claim the probe left port 2 instead (a link that does not exist), keeping the signature.
        probe[probe.length - 2 - LldpProbeCodec.MAC_BYTES - 8 - 1] = 2;
        assertEquals(Command.STOP, receiver.receive(b, Fabric.packetIn(b.getFactory(), OFPort.of(1), probe)));
        assertEquals(Set.of(), links());
        assertEquals(Map.of(Outcome.BAD_SIGNATURE, 1L), nonZeroRefusals());
    }

    @Test
    void aReplayedProbeIsStoppedAndMakesNoLink() {
        FakeSwitch a = add(1, OFVersion.OF_13, 1);
        FakeSwitch b = add(2, OFVersion.OF_13, 1);
        byte[] captured = probeBytes(a, 1);
        now += SETTINGS.lldpMaxAgeMs() + 1;
        assertEquals(Command.STOP, receiver.receive(b, Fabric.packetIn(b.getFactory(), OFPort.of(1), captured)));
        assertEquals(Set.of(), links());
        assertEquals(Map.of(Outcome.STALE, 1L), nonZeroRefusals());
    }

    @Test
    void foreignAndTruncatedLldpIsStoppedAndMakesNoLink() {
        FakeSwitch a = add(1, OFVersion.OF_13, 1);
        FakeSwitch b = add(2, OFVersion.OF_10, 1);
        byte[] foreign = new LldpProbeCodecTest.LldpBuilder().mandatory().end().build();
        byte[] truncated = Arrays.copyOf(probeBytes(a, 1), 60);
        for (byte[] frame : List.of(foreign, truncated)) {
            assertEquals(Command.STOP, receiver.receive(b, Fabric.packetIn(b.getFactory(), OFPort.of(1), frame)));
        }
        assertEquals(Set.of(), links());
        assertEquals(Map.of(Outcome.FOREIGN, 1L, Outcome.MALFORMED, 1L), nonZeroRefusals());
    }

    @Test
    void everythingElseContinuesDownThePipeline() {
        FakeSwitch b = add(2, OFVersion.OF_13, 1);
        byte[] ipv4 = new byte[60];
        ipv4[12] = 0x08;
        byte[] taggedIpv4 = new byte[64];
        taggedIpv4[12] = (byte) 0x81;
        taggedIpv4[16] = 0x08;
        byte[] runt = new byte[10];
        for (byte[] frame : List.of(ipv4, taggedIpv4, runt)) {
            assertEquals(Command.CONTINUE, receiver.receive(b, Fabric.packetIn(b.getFactory(), OFPort.of(1), frame)));
        }
        assertEquals(Command.CONTINUE, receiver.receive(b, b.getFactory().buildEchoRequest().build()));
        assertEquals(Map.of(), nonZeroRefusals());
    }

    @Test
    void aTaggedProbeIsStillRecognised() {
        FakeSwitch a = add(1, OFVersion.OF_13, 1);
        FakeSwitch b = add(2, OFVersion.OF_13, 1);
        byte[] probe = probeBytes(a, 1);
        byte[] tagged = new byte[probe.length + 4];
        System.arraycopy(probe, 0, tagged, 0, 12);
        tagged[12] = (byte) 0x81;
        tagged[15] = 10;
        System.arraycopy(probe, 12, tagged, 16, probe.length - 12);
        assertEquals(Command.STOP, receiver.receive(b, Fabric.packetIn(b.getFactory(), OFPort.of(1), tagged)));
        assertEquals(Set.of(link(1, 1, 2, 1)), links());
    }

    @Test
    void theWholeFatTreeIsDiscovered() {
        Graphs tree = Graphs.fatTree();
        for (Link l : tree.links) {
            fabric.oneWay(l.src().dpid().getLong(), l.src().port().getPortNumber(), l.dst().dpid().getLong(),
                    l.dst().port().getPortNumber());
        }
        for (DatapathId dpid : tree.switches) {
            add(dpid.getLong(), OFVersion.OF_13, 4);
        }
        fabric.deliver();
        assertEquals(tree.links, links());
        assertEquals(38, discovery.topology().broadcastTreeLinks().size());
        assertEquals(Graphs.fatTree().build().broadcastTreeLinks(), discovery.topology().broadcastTreeLinks());
    }

    /** The probe the port sends when it comes up, as captured off the wire. */
    private byte[] probeBytes(FakeSwitch sw, int port) {
        sw.take();
        discovery.portChanged(sw, sw.getPort(OFPort.of(port)), PortChange.MODIFIED);
        List<OFMessage> written = sw.take();
        assertEquals(List.of(OFPort.of(port)), outputPorts(written));
        return ((OFPacketOut) written.get(0)).getData();
    }

    private static List<OFPort> outputPorts(List<OFMessage> written) {
        return written.stream().map(m -> ((OFActionOutput) ((OFPacketOut) m).getActions().get(0)).getPort()).toList();
    }

    private Map<Outcome, Long> nonZeroRefusals() {
        Map<Outcome, Long> out = new java.util.EnumMap<>(Outcome.class);
        receiver.counts().forEach((outcome, count) -> {
            if (outcome != Outcome.ACCEPTED && count > 0) {
                out.put(outcome, count);
            }
        });
        return out;
    }

    private List<TopologyEvent> last() {
        return published.get(published.size() - 1);
    }

    private static List<Type> types(List<TopologyEvent> events) {
        return events.stream().map(TopologyEvent::type).toList();
    }

    @Test
    void nothingIsPublishedWhenNothingChanges() {
        discovery.sweep();
        discovery.probeAll();
        assertEquals(List.of(), published);
        assertEquals(0, discovery.topology().version());
    }

    /**
     * A switch with many ports whose connection takes {@link io.heliograph.core.OFSwitch#WRITABLE_ROOM_BYTES}
     * at a time: each whenWritable() waits until the test lets it go, as a switch reading slowly.
     */
    static final class SlowReader extends FakeSwitch {
        final List<org.projectfloodlight.openflow.protocol.OFPortDesc> many = new ArrayList<>();
        final Deque<java.util.concurrent.CompletableFuture<Void>> waits = new ArrayDeque<>();

        SlowReader(long dpid, int ports) {
            super(dpid, OFVersion.OF_13);
            for (int p = 1; p <= ports; p++) {
                many.add(getFactory().buildPortDesc().setPortNo(OFPort.of(p)).setName("p" + p)
                        .setHwAddr(org.projectfloodlight.openflow.types.MacAddress.of(0x020000000000L + p)).build());
            }
        }

        @Override
        public java.util.Collection<org.projectfloodlight.openflow.protocol.OFPortDesc> getPorts() {
            return many;
        }

        @Override
        public synchronized java.util.concurrent.CompletableFuture<Void> whenWritable() {
            java.util.concurrent.CompletableFuture<Void> w = new java.util.concurrent.CompletableFuture<>();
            waits.add(w);
            return w;
        }

        synchronized java.util.concurrent.CompletableFuture<Void> nextWait() {
            return waits.poll();
        }
    }

    private static int bytes(List<OFMessage> messages) {
        io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer();
        try {
            messages.forEach(m -> m.writeTo(b));
            return b.readableBytes();
        } finally {
            b.release();
        }
    }

    @Test
    void aRoundOfSixtyFiveThousandPortsIsWrittenAsFastAsTheSwitchReads() {
        int ports = 65_000;
        SlowReader sw = new SlowReader(0x99, ports);
        fabric.add(sw);
        discovery.switchAdded(sw);
        Set<OFPort> probed = new HashSet<>();
        int parts = 0;
        while (true) {
            List<OFMessage> part = sw.take();
            assertTrue(bytes(part) <= io.heliograph.core.OFSwitch.WRITABLE_ROOM_BYTES,
                    "part " + parts + " is " + bytes(part) + " bytes, more than a writer may write between waits");
            probed.addAll(outputPorts(part));
            parts++;
            java.util.concurrent.CompletableFuture<Void> w = sw.nextWait();
            if (w == null) {
                break; // the round is over: it waits for nothing
            }
            discovery.probeAll(); // the next round is due: it does not start beside this one
            assertTrue(sw.written().isEmpty(), "nothing written while the switch has not read");
            assertTrue(sw.nextWait() == null, "one wait at a time");
            w.complete(null); // the switch has read: the round goes on (here, on this thread)
        }
        assertEquals(ports, probed.size(), "every port probed once");
        assertTrue(parts > ports / 300, parts + " parts: a round is spread over many writes");
        assertEquals(ports, discovery.probesSent());

        // With the round over, the next one starts.
        discovery.probeAll();
        assertFalse(sw.take().isEmpty());
    }

    @Test
    void aRoundStopsWhenTheSwitchGoesAway() {
        SlowReader sw = new SlowReader(0x98, 10_000);
        fabric.add(sw);
        discovery.switchAdded(sw);
        int first = sw.take().size();
        discovery.switchRemoved(sw);
        sw.nextWait().completeExceptionally(new java.io.IOException("disconnected"));
        assertTrue(sw.take().isEmpty(), "no more probes to a switch that is gone");
        assertEquals(first, discovery.probesSent());
    }
}
