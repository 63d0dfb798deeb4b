package io.heliograph.forwarding.internal;

import static io.heliograph.forwarding.internal.Messages.as;
import static io.heliograph.forwarding.internal.Messages.inPort;
import static io.heliograph.forwarding.internal.Messages.outputs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFFlowRemovedReason;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TransportPort;

import io.heliograph.core.MessageListener.Command;

/**
 * A path over three switches in a line: s1 -(2:1)- s2 -(2:2)- s3, h1 at s1 port 1, h2 at s3 port 1
 * (h3 at s1 port 3 for the same-switch case).
 */
class PathInstallTest {

    static final long H1 = 0x0200_0000_0001L;
    static final long H2 = 0x0200_0000_0002L;
    static final long H3 = 0x0200_0000_0003L;

    static Fabric line(OFVersion version) {
        Fabric f = new Fabric();
        f.addSwitch(1, version, 3);
        f.addSwitch(2, version, 3);
        f.addSwitch(3, version, 3);
        f.cable(1, 2, 2, 1);
        f.cable(2, 2, 3, 2);
        f.host(H1, "10.0.0.1", 1, 1);
        f.host(H2, "10.0.0.2", 3, 1);
        f.host(H3, "10.0.0.3", 1, 3);
        return f;
    }

    private static ReactiveForwarding forwarding(Fabric f, ForwardingSettings settings) {
        return new ReactiveForwarding(() -> f, () -> f, () -> f, () -> f, settings);
    }

    private static final ForwardingSettings SETTINGS = new ForwardingSettings(7, 0, 10, true,
            MatchGranularity.TRANSPORT, 32_768, 1_024, 2_000);

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void installsThePathBothWaysLastHopFirstThenReleasesThePacket(OFVersion version) {
        Fabric f = line(version);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        byte[] syn = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80);

        assertEquals(Command.STOP, fw.receive(f.sw(1), Packets.packetIn(version, 1, syn)));

        List<PortedSwitch.Write> w = f.journal;
        assertEquals(7, w.size(), "3 reverse flows, 3 forward flows, 1 packet-out: " + w);
        // Reverse direction (h2 -> h1), written from its last hop (s1) back to its first (s3).
        expectFlow(w.get(0), 1, 2, 1, H2, H1, "10.0.0.2", "10.0.0.1", 80, 40000);
        expectFlow(w.get(1), 2, 2, 1, H2, H1, "10.0.0.2", "10.0.0.1", 80, 40000);
        expectFlow(w.get(2), 3, 1, 2, H2, H1, "10.0.0.2", "10.0.0.1", 80, 40000);
        // Forward direction, last hop (s3) first, the ingress last.
        expectFlow(w.get(3), 3, 2, 1, H1, H2, "10.0.0.1", "10.0.0.2", 40000, 80);
        expectFlow(w.get(4), 2, 1, 2, H1, H2, "10.0.0.1", "10.0.0.2", 40000, 80);
        expectFlow(w.get(5), 1, 1, 2, H1, H2, "10.0.0.1", "10.0.0.2", 40000, 80);
        // The packet leaves the ingress along the first hop, as if it had come in on port 1.
        assertEquals(DatapathId.of(1), w.get(6).dpid());
        OFPacketOut out = as(OFPacketOut.class, w.get(6).message());
        assertEquals(List.of(OFPort.of(2)), outputs(out));
        assertEquals(OFPort.of(1), inPort(out));
        assertEquals(OFBufferId.NO_BUFFER, out.getBufferId());
        assertArrayEquals(syn, out.getData());
        assertEquals(1, fw.paths().size());
    }

    @Test
    void aPacketOfAFlowWhosePathIsRecordedWritesThatPathAgainUnderItsOwnCookies() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        fw.useClock(Fabric.longAfterEachRelease()); // past the grace in which packets just follow the release
        byte[] syn = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn));
        List<PortedSwitch.Write> first = List.copyOf(f.journal);
        long id = fw.paths().paths().get(0).id();
        // the next packet reached us before the switch applied the ingress entry
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn));
        List<PortedSwitch.Write> second = List.copyOf(f.journal.subList(first.size(), f.journal.size()));

        assertEquals(1, fw.paths().size());
        assertEquals(id, fw.paths().paths().get(0).id(), "the recorded path, not a new one");
        assertEquals(first.size(), second.size(), second.toString());
        for (int i = 0; i < first.size(); i++) {
            assertEquals(first.get(i).dpid(), second.get(i).dpid());
            if (first.get(i).message() instanceof OFFlowAdd flow) {
                OFFlowAdd again = as(OFFlowAdd.class, second.get(i).message());
                assertEquals(flow.getCookie(), again.getCookie(), "entry " + i);
                assertSame(flow.getMatch(), again.getMatch(), "entry " + i + "'s match, built once");
            } else {
                assertArrayEquals(syn, as(OFPacketOut.class, second.get(i).message()).getData());
            }
        }
    }

    @Test
    void aRecordedPathThatLostAnEntryIsReplacedByANewOne() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        fw.useClock(Fabric.longAfterEachRelease());
        byte[] syn = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80);
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn));
        InstalledPath old = fw.paths().paths().get(0);
        FlowEntry expired = old.entries().get(1); // the reverse entry at s2
        fw.receive(f.sw(2), f.sw(2).getFactory().buildFlowRemoved().setCookie(expired.cookie())
                .setReason(OFFlowRemovedReason.IDLE_TIMEOUT).build());
        int written = f.journal.size();

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn));

        assertEquals(1, fw.paths().size());
        InstalledPath now = fw.paths().paths().get(0);
        assertTrue(now.id() != old.id(), "a new path, which owns every entry again");
        f.journal.subList(written, f.journal.size()).stream().filter(w -> w.message() instanceof OFFlowAdd)
                .forEach(w -> assertEquals(now.id(), InstalledPaths.pathIdOf(((OFFlowAdd) w.message()).getCookie())));
    }

    private static void expectFlow(PortedSwitch.Write write, long dpid, int in, int out, long ethSrc, long ethDst,
            String ipSrc, String ipDst, int sport, int dport) {
        assertEquals(DatapathId.of(dpid), write.dpid(), "switch of " + write.message());
        OFFlowAdd flow = as(OFFlowAdd.class, write.message());
        Match m = flow.getMatch();
        assertEquals(OFPort.of(in), m.get(MatchField.IN_PORT));
        assertEquals(MacAddress.of(ethSrc), m.get(MatchField.ETH_SRC));
        assertEquals(MacAddress.of(ethDst), m.get(MatchField.ETH_DST));
        assertEquals(EthType.IPv4, m.get(MatchField.ETH_TYPE));
        assertEquals(IPv4Address.of(ipSrc), m.get(MatchField.IPV4_SRC));
        assertEquals(IPv4Address.of(ipDst), m.get(MatchField.IPV4_DST));
        assertEquals(IpProtocol.TCP, m.get(MatchField.IP_PROTO));
        assertEquals(TransportPort.of(sport), m.get(MatchField.TCP_SRC));
        assertEquals(TransportPort.of(dport), m.get(MatchField.TCP_DST));
        assertNull(m.get(MatchField.VLAN_VID), "untagged traffic does not match the VLAN");
        assertEquals(List.of(OFPort.of(out)), outputs(flow));
        assertEquals(10, flow.getPriority());
        assertEquals(7, flow.getIdleTimeout());
        assertEquals(0, flow.getHardTimeout());
        assertTrue(InstalledPaths.isOurs(flow.getCookie()), "cookie in our namespace: " + flow.getCookie());
        assertEquals(Set.of(OFFlowModFlags.SEND_FLOW_REM), flow.getFlags());
        assertEquals(OFBufferId.NO_BUFFER, flow.getBufferId());
    }

    @Test
    void thePacketIsReleasedOnlyWhenEverySwitchDownstreamConfirmedItsEntries() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        f.sw(2).holdBarriers();
        f.sw(3).holdBarriers();

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80)));

        assertEquals(5, f.journal.size(), "both directions downstream and the reverse entry at the ingress: " + f.journal);
        assertTrue(f.journal.stream().noneMatch(w -> w.message() instanceof OFPacketOut));
        f.sw(3).answerBarriers();
        assertEquals(5, f.journal.size(), "s2 has not confirmed yet");
        f.sw(2).answerBarriers();
        assertEquals(7, f.journal.size());
        expectFlow(f.journal.get(5), 1, 1, 2, H1, H2, "10.0.0.1", "10.0.0.2", 40000, 80);
        assertEquals(DatapathId.of(1), f.journal.get(6).dpid());
        as(OFPacketOut.class, f.journal.get(6).message());
    }

    @Test
    void packetsOfAFlowArrivingWhileItsPathIsConfirmedGoOutWithTheFirstInOrder() {
        Fabric f = line(OFVersion.OF_10);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        f.sw(2).holdBarriers();
        List<byte[]> burst = List.of(Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80),
                Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80, 1000),
                Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80, 2000));

        for (byte[] packet : burst) {
            assertEquals(Command.STOP, fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_10, 1, packet)));
        }
        assertEquals(1, fw.paths().size(), "one path for the flow, not one per packet");
        assertEquals(5, f.journal.size(), "the path's entries once: " + f.journal);
        f.sw(2).answerBarriers();

        assertEquals(9, f.journal.size(), f.journal.toString());
        expectFlow(f.journal.get(5), 1, 1, 2, H1, H2, "10.0.0.1", "10.0.0.2", 40000, 80);
        for (int i = 0; i < burst.size(); i++) {
            OFPacketOut out = as(OFPacketOut.class, f.journal.get(6 + i).message());
            assertEquals(List.of(OFPort.of(2)), outputs(out));
            assertArrayEquals(burst.get(i), out.getData(), "packet " + i + " in arrival order");
        }

        // just after the release the switch's caches may still send one up: it follows the same path,
        // whose entries (and their counters) stay as they are
        byte[] late = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80, 3000);
        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_10, 1, late));
        assertEquals(10, f.journal.size(), f.journal.toString());
        OFPacketOut out = as(OFPacketOut.class, f.journal.get(9).message());
        assertEquals(List.of(OFPort.of(2)), outputs(out));
        assertArrayEquals(late, out.getData());
        assertEquals(1, fw.paths().size());
    }

    @Test
    void aSwitchThatDoesNotConfirmItsEntriesLeavesThePacketToTheIngressTable() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        f.sw(2).holdBarriers();
        byte[] syn = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn));
        f.sw(2).failBarriers(new java.util.concurrent.TimeoutException("no barrier reply"));

        assertEquals(6, f.journal.size(), f.journal.toString());
        assertTrue(f.journal.stream().noneMatch(w -> w.dpid().equals(DatapathId.of(1))
                && w.message() instanceof OFFlowAdd add && add.getMatch().get(MatchField.IN_PORT).equals(OFPort.of(1))),
                "no forward entry at the ingress: " + f.journal);
        expectThroughTable(f.journal.get(5), syn);
    }

    @Test
    void aPathRemovedWhileItsEntriesAreConfirmedLeavesThePacketToTheIngressTable() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        f.sw(2).holdBarriers();
        byte[] syn = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, syn));
        fw.topologyChanged(f.cut(2, 2, 3, 2));
        int written = f.journal.size();
        f.sw(2).answerBarriers();

        assertEquals(written + 1, f.journal.size(), "only the packet, no ingress flow: " + f.journal);
        expectThroughTable(f.journal.get(written), syn);
        assertEquals(0, fw.paths().size());
    }

    @Test
    void aPathSupersededByItsReplyDirectionStillDeliversItsPacket() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        f.sw(2).holdBarriers();
        byte[] request = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80);
        byte[] reply = Packets.tcp(H2, "10.0.0.2", 80, H1, "10.0.0.1", 40000);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, request));
        // the other end's first packet of the same connection, before s2 confirmed the first path:
        // the second path's entries are the first's, so it takes them all over
        fw.receive(f.sw(3), Packets.packetIn(OFVersion.OF_13, 1, reply));
        assertEquals(1, fw.paths().size());
        int written = f.journal.size();
        f.sw(2).answerBarriers();

        List<PortedSwitch.Write> released = List.copyOf(f.journal.subList(written, f.journal.size()));
        PortedSwitch.Write first = released.stream().filter(w -> w.dpid().equals(DatapathId.of(1))).findFirst()
                .orElseThrow(() -> new AssertionError("nothing released at s1: " + released));
        expectThroughTable(first, request);
        assertTrue(released.stream().anyMatch(w -> w.dpid().equals(DatapathId.of(3)) && w.message() instanceof OFPacketOut out
                && outputs(out).equals(List.of(OFPort.of(2)))), "the reply goes out along its path: " + released);
    }

    private static void expectThroughTable(PortedSwitch.Write write, byte[] data) {
        assertEquals(DatapathId.of(1), write.dpid());
        OFPacketOut out = as(OFPacketOut.class, write.message());
        assertEquals(List.of(OFPort.TABLE), outputs(out));
        assertEquals(OFPort.of(1), inPort(out));
        assertArrayEquals(data, out.getData());
    }

    @Test
    void aBufferedPacketIsReleasedByTheIngressFlowItself() {
        Fabric f = line(OFVersion.OF_10);
        ReactiveForwarding fw = forwarding(f, SETTINGS);
        byte[] syn = Packets.tcp(H1, "10.0.0.1", 40000, H2, "10.0.0.2", 80);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_10, 1, syn, OFBufferId.of(0x77)));

        assertEquals(6, f.journal.size(), "six flows, no packet-out");
        OFFlowAdd ingress = as(OFFlowAdd.class, f.journal.get(5).message());
        assertEquals(DatapathId.of(1), f.journal.get(5).dpid());
        assertEquals(OFBufferId.of(0x77), ingress.getBufferId());
        f.journal.subList(0, 5).forEach(w -> assertEquals(OFBufferId.NO_BUFFER,
                as(OFFlowAdd.class, w.message()).getBufferId()));
    }

    @Test
    void aDestinationOnTheSameSwitchTakesOneFlowEachWay() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 5, H3, "10.0.0.3", 6)));

        List<OFMessage> written = f.sw(1).take();
        assertEquals(3, written.size(), written.toString());
        OFFlowAdd back = as(OFFlowAdd.class, written.get(0));
        assertEquals(OFPort.of(3), back.getMatch().get(MatchField.IN_PORT));
        assertEquals(List.of(OFPort.of(1)), outputs(back));
        OFFlowAdd forth = as(OFFlowAdd.class, written.get(1));
        assertEquals(OFPort.of(1), forth.getMatch().get(MatchField.IN_PORT));
        assertEquals(List.of(OFPort.of(3)), outputs(forth));
        assertEquals(List.of(OFPort.of(3)), outputs(as(OFPacketOut.class, written.get(2))));
        assertTrue(f.sw(2).take().isEmpty());
        assertTrue(f.sw(3).take().isEmpty());
    }

    @Test
    void macGranularityMatchesOnlyPortAndAddresses() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, new ForwardingSettings(5, 0, 10, true, MatchGranularity.MAC, 32_768,
                1_024, 2_000));

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 5, H2, "10.0.0.2", 6)));

        Match m = as(OFFlowAdd.class, f.journal.get(5).message()).getMatch();
        assertEquals(Set.of(MatchField.IN_PORT, MatchField.ETH_SRC, MatchField.ETH_DST), fields(m));
    }

    @Test
    void ipGranularityMatchesAddressesWithTheirPrerequisite() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, new ForwardingSettings(5, 0, 10, true, MatchGranularity.IP, 32_768,
                1_024, 2_000));

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 5, H2, "10.0.0.2", 6)));

        Match m = as(OFFlowAdd.class, f.journal.get(5).message()).getMatch();
        assertEquals(Set.of(MatchField.IN_PORT, MatchField.ETH_SRC, MatchField.ETH_DST, MatchField.ETH_TYPE,
                MatchField.IPV4_SRC, MatchField.IPV4_DST), fields(m));
    }

    private static Set<MatchField<?>> fields(Match m) {
        java.util.Set<MatchField<?>> set = new java.util.HashSet<>();
        m.getMatchFields().forEach(set::add);
        return set;
    }

    @Test
    void aPacketFromAnotherSwitchGetsThePathFromHereOnOneWay() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);

        // s2 got it on port 1 (from s1): s1's flow outlived s2's.
        fw.receive(f.sw(2), Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 5, H2, "10.0.0.2", 6)));

        assertEquals(3, f.journal.size(), f.journal.toString());
        expectHop(f.journal.get(0), 3, 2, 1);
        expectHop(f.journal.get(1), 2, 1, 2);
        assertEquals(List.of(OFPort.of(2)), outputs(as(OFPacketOut.class, f.journal.get(2).message())));
        assertTrue(f.sw(1).take().isEmpty(), "nothing upstream of where the packet is");
    }

    @Test
    void aFloodCopyWhoseDestinationIsBackWhereItCameFromIsDroppedWithoutAPath() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);

        // s2 got h3's packet to h1 on port 1, from s1, which flooded it before it knew h1: both are behind s1.
        assertEquals(Command.STOP, fw.receive(f.sw(2),
                Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H3, "10.0.0.3", 5, H1, "10.0.0.1", 6))));

        assertTrue(f.journal.isEmpty(), "no entry out of the in port, no packet-out, no flood: " + f.journal);
    }

    private static void expectHop(PortedSwitch.Write w, long dpid, int in, int out) {
        assertEquals(DatapathId.of(dpid), w.dpid());
        OFFlowAdd flow = as(OFFlowAdd.class, w.message());
        assertEquals(OFPort.of(in), flow.getMatch().get(MatchField.IN_PORT));
        assertEquals(List.of(OFPort.of(out)), outputs(flow));
    }

    @Test
    void aDestinationOnTheIngressSegmentAlreadyHasThePacket() {
        Fabric f = line(OFVersion.OF_13);
        f.host(H2, "10.0.0.2", 1, 1); // h2 shares h1's port (a hub, or an unmanaged switch)
        ReactiveForwarding fw = forwarding(f, SETTINGS);

        assertEquals(Command.STOP, fw.receive(f.sw(1),
                Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 5, H2, "10.0.0.2", 6))));
        assertTrue(f.journal.isEmpty());
    }

    @Test
    void withoutEveryServiceThePacketPassesToTheNextListener() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = new ReactiveForwarding(() -> f, () -> f, () -> f, () -> null, SETTINGS);

        assertEquals(Command.CONTINUE, fw.receive(f.sw(1),
                Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(H1, "10.0.0.1", 5, H2, "10.0.0.2", 6))));
        assertTrue(f.journal.isEmpty());
    }

    @Test
    void lldpAndLinkLocalFramesAreNotOurs() {
        Fabric f = line(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, SETTINGS);

        assertEquals(Command.CONTINUE, fw.receive(f.sw(1),
                Packets.packetIn(OFVersion.OF_13, 2, Packets.frame(0x0180_c200_000eL, H1, 0x88cc))));
        assertEquals(Command.CONTINUE, fw.receive(f.sw(1),
                Packets.packetIn(OFVersion.OF_13, 1, Packets.frame(0x0180_c200_0002L, H1, 0x8809))));
        assertEquals(Command.CONTINUE, fw.receive(f.sw(1),
                Packets.packetIn(OFVersion.OF_13, 1, Packets.frame(H2, H1, 0x88cc))));
        assertTrue(f.journal.isEmpty());
    }

    @Test
    void anUnreachableDestinationIsFlooded() {
        Fabric f = line(OFVersion.OF_13);
        f.addSwitch(9, OFVersion.OF_13, 2);
        f.host(0x0200_0000_0009L, "10.0.0.9", 9, 1); // an island of its own
        ReactiveForwarding fw = forwarding(f, SETTINGS);

        fw.receive(f.sw(1), Packets.packetIn(OFVersion.OF_13, 1,
                Packets.tcp(H1, "10.0.0.1", 5, 0x0200_0000_0009L, "10.0.0.9", 6)));

        assertEquals(1, f.journal.size());
        assertEquals(List.of(OFPort.of(2), OFPort.of(3)), outputs(as(OFPacketOut.class, f.journal.get(0).message())));
    }
}
