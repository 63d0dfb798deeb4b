package io.heliograph.forwarding.internal;

import static io.heliograph.forwarding.internal.Messages.as;
import static io.heliograph.forwarding.internal.Messages.outputs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowRemovedReason;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OversizeFrames;
import io.heliograph.core.StateBounds.Bound;
import io.netty.buffer.Unpooled;

/**
 * Forwarding's bounds: installed paths, held packets and their timeout, and frames too large to send
 * back (D1). The line s1 -(2:1)- s2 -(2:2)- s3 of {@link PathInstallTest#line}, h1 at s1 port 1, h2 at
 * s3 port 1.
 */
class ForwardingBoundsTest {

    private static final long H1 = PathInstallTest.H1;
    private static final long H2 = PathInstallTest.H2;

    private final List<Runnable> timers = new ArrayList<>();
    private final List<Long> timerDelays = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private ReactiveForwarding forwarding(Fabric f, int maxPaths, int maxHeld) {
        ReactiveForwarding fw = new ReactiveForwarding(() -> f, () -> f, () -> f, () -> f,
                new ForwardingSettings(5, 0, 10, true, MatchGranularity.TRANSPORT, maxPaths, maxHeld, 2_000),
                new OversizeFrames(ReactiveForwarding.NAME, () -> 0L, warnings::add));
        fw.useTimer((ms, task) -> {
            timerDelays.add(ms);
            timers.add(task);
        });
        return fw;
    }

    private static Map<String, Bound> bounds(ReactiveForwarding fw) {
        return fw.bounds().stream().collect(Collectors.toMap(Bound::table, Function.identity()));
    }

    private static byte[] syn(int sport) {
        return Packets.tcp(H1, "10.0.0.1", sport, H2, "10.0.0.2", 80);
    }

    private static List<OFMessage> writtenTo(Fabric f, long dpid, int from) {
        return f.journal.subList(from, f.journal.size()).stream().filter(w -> w.dpid().equals(DatapathId.of(dpid)))
                .map(PortedSwitch.Write::message).toList();
    }

    @Test
    void atTheBoundOfInstalledPathsANewFlowGoesHopByHopWithoutFlowsUntilAPathExpires() {
        Fabric f = PathInstallTest.line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, 2, 1_024);
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn(40001)));
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn(40002)));
        assertEquals(2, fw.paths().size());
        int before = f.journal.size();

        byte[] third = syn(40003);
        assertEquals(Command.STOP, fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, third)));

        assertEquals(1, f.journal.size() - before, "no flows, only the packet: " + f.journal.subList(before,
                f.journal.size()));
        OFPacketOut out = as(OFPacketOut.class, f.journal.get(before).message());
        assertEquals(DatapathId.of(1), f.journal.get(before).dpid());
        assertEquals(List.of(OFPort.of(2)), outputs(out), "along the route's first hop");
        assertArrayEquals(third, out.getData());
        // s2 gets it as a table miss from s1 and sends it on the same way
        fw.receive(f.sw(2), Packets.packetIn(OFVersion.OF_13, 1, third));
        assertEquals(List.of(OFPort.of(2)), outputs(as(OFPacketOut.class, f.journal.get(before + 1).message())));
        assertEquals(2, fw.paths().size());
        Bound paths = bounds(fw).get("forwarding.installedPaths");
        assertEquals(2, paths.limit());
        assertEquals(2, paths.size());
        assertEquals(2, paths.refused());

        // the switches report the first path's flows expired: room again
        InstalledPath first = fw.paths().paths().stream().min((a, b) -> Long.compare(a.id(), b.id())).orElseThrow();
        for (FlowEntry e : first.entries()) {
            PortedSwitch sw = f.sw(e.dpid().getLong());
            fw.receive(sw, sw.getFactory().buildFlowRemoved().setCookie(e.cookie())
                    .setMatch(e.headers().toMatch(sw.getFactory(), e.inPort())).setPriority(e.priority())
                    .setReason(OFFlowRemovedReason.IDLE_TIMEOUT).build());
        }
        assertEquals(1, fw.paths().size());
        before = f.journal.size();
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, third));
        assertEquals(7, f.journal.size() - before, "a path again: 6 flows and the packet");
        assertEquals(2, fw.paths().size());
    }

    @Test
    void atTheBoundOfHeldPacketsAPacketGoesAlongItsPathAtOnce() {
        Fabric f = PathInstallTest.line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, 1_000, 2);
        f.sw(2).holdBarriers();
        f.sw(3).holdBarriers();
        byte[] first = syn(40000);
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, first)); // held: 1
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2",
                80, 1000))); // held: 2
        int before = f.journal.size();

        byte[] third = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80, 2000);
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, third));

        List<OFMessage> now = writtenTo(f, 1, before);
        assertEquals(1, now.size(), now.toString());
        assertArrayEquals(third, as(OFPacketOut.class, now.get(0)).getData(), "not held: out along its path now");
        assertEquals(List.of(OFPort.of(2)), outputs(as(OFPacketOut.class, now.get(0))));
        Bound held = bounds(fw).get("forwarding.heldPackets");
        assertEquals(2, held.size());
        assertEquals(1, held.refused());

        // another flow's first packet finds no room either: its path is released without waiting
        before = f.journal.size();
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn(40001)));
        List<OFMessage> other = writtenTo(f, 1, before);
        assertTrue(other.stream().anyMatch(m -> m instanceof OFFlowAdd add
                && add.getMatch().get(MatchField.IN_PORT).equals(OFPort.of(1))), "the ingress flow at once: " + other);
        assertEquals(2, bounds(fw).get("forwarding.heldPackets").refused());

        f.sw(2).answerBarriers();
        f.sw(3).answerBarriers();
        assertEquals(0, bounds(fw).get("forwarding.heldPackets").size(), "released, room again");
    }

    /** A switch that never answers barriers: its held packets are bounded, and released at the timeout. */
    @Test
    void packetsHeldForASwitchThatNeverAnswersAreReleasedAtTheTimeout() {
        Fabric f = PathInstallTest.line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, 1_000, 50);
        f.sw(2).holdBarriers(); // and never answers
        for (int i = 0; i < 100; i++) {
            fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 40000, H2,
                    "10.0.0.2", 80, i)));
        }
        assertEquals(50, bounds(fw).get("forwarding.heldPackets").size(), "never more than the bound");
        assertEquals(50, bounds(fw).get("forwarding.heldPackets").refused());
        assertEquals(List.of(2_000L), timerDelays);
        int before = f.journal.size();

        timers.forEach(Runnable::run); // heldTimeoutMs later

        List<OFMessage> released = writtenTo(f, 1, before);
        assertEquals(51, released.size(), "the ingress flow and the 50 held packets: " + released.size());
        OFFlowAdd ingress = as(OFFlowAdd.class, released.get(0));
        assertEquals(OFPort.of(1), ingress.getMatch().get(MatchField.IN_PORT));
        assertEquals(0, bounds(fw).get("forwarding.heldPackets").size());
        assertEquals(1.0, fw.samples().get(1).value(), "one path released unconfirmed");

        f.sw(2).answerBarriers(); // a reply long after: nothing more happens
        assertEquals(before + 51, f.journal.size());
    }

    @Test
    void aPathConfirmedInTimeIsNotCountedUnconfirmed() {
        Fabric f = PathInstallTest.line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, 1_000, 50);
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn(40000))); // barriers answered at once
        timers.forEach(Runnable::run);
        assertEquals(0.0, fw.samples().get(1).value());
    }

    /**
     * D1: a PACKET_IN carrying close to 64 KiB, unbuffered. Flooded out of several ports it cannot go
     * back in one packet-out (65,480 bytes and 3 outputs on 1.3 make 65,552): dropped, counted, logged
     * once, nothing written that Loxi cannot encode. To a known host it takes one output: 1.3 fits
     * (65,520 bytes) and the packet goes; 1.0's largest frame (65,517) does not, and only the flows go.
     */
    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13"})
    void aFrameTooLargeToGoBackIsDroppedCountedAndTheFlowsStillGoIn(OFVersion version) {
        Fabric f = new Fabric();
        f.addSwitch(1, version, 4);
        f.host(H2, "10.0.0.2", 1, 2);
        ReactiveForwarding fw = forwarding(f, 1_000, 1_024);
        int largest = version == OFVersion.OF_10 ? 65_535 - 18 : 65_480;
        byte[] toUnknown = Arrays.copyOf(Packets.tcp(H1, "10.0.0.1", 1, 0x0200_0000_0099L, "10.0.0.9", 80), largest);

        assertEquals(Command.STOP, fw.receive(f.sw(1), Packets.packetIn(version, 1, toUnknown)));
        assertEquals(Command.STOP, fw.receive(f.sw(1), Packets.packetIn(version, 1, toUnknown)));

        assertEquals(List.of(), f.journal, "a flood out of ports 2-4 and LOCAL's exclusion cannot carry it");
        assertEquals(2.0, fw.samples().get(0).value());
        assertEquals(1, warnings.size(), warnings.toString());

        byte[] toKnown = Arrays.copyOf(Packets.tcp(H1, "10.0.0.1", 2, H2, "10.0.0.2", 80), largest);
        fw.receive(f.sw(1), Packets.packetIn(version, 1, toKnown));
        List<OFMessage> written = f.journal.stream().map(PortedSwitch.Write::message).toList();
        written.forEach(m -> m.writeTo(Unpooled.buffer())); // everything written can be encoded
        assertEquals(2, written.stream().filter(m -> m instanceof OFFlowAdd).count(), written.toString());
        long packetOuts = written.stream().filter(m -> m instanceof OFPacketOut).count();
        assertEquals(version == OFVersion.OF_13 ? 1 : 0, packetOuts, written.toString());
        assertEquals(version == OFVersion.OF_13 ? 2.0 : 3.0, fw.samples().get(0).value());
    }
}
