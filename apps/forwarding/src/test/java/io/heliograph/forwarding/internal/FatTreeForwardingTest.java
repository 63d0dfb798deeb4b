package io.heliograph.forwarding.internal;

import static io.heliograph.forwarding.internal.Fabric.agg;
import static io.heliograph.forwarding.internal.Fabric.core;
import static io.heliograph.forwarding.internal.Fabric.edge;
import static io.heliograph.forwarding.internal.Fabric.hostIp;
import static io.heliograph.forwarding.internal.Fabric.hostMac;
import static io.heliograph.forwarding.internal.Messages.as;
import static io.heliograph.forwarding.internal.Messages.outputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;

/** Forwarding on the k=4 fat tree: ECMP over the four core paths between pods, floods on the broadcast tree. */
class FatTreeForwardingTest {

    private static final Set<Long> CORES = Set.of(core(0), core(1), core(2), core(3));

    private static ReactiveForwarding forwarding(Fabric f, boolean ecmp, MatchGranularity granularity) {
        ReactiveForwarding fw = new ReactiveForwarding(() -> f, () -> f, () -> f, () -> f,
                new ForwardingSettings(5, 0, 10, ecmp, granularity, 32_768, 1_024, 2_000));
        fw.useClock(Fabric.longAfterEachRelease());
        return fw;
    }

    private static Fabric withHosts(OFVersion version) {
        Fabric f = Fabric.fatTree(version);
        for (int p = 0; p < 4; p++) {
            for (int j = 0; j < 2; j++) {
                for (int port = 1; port <= 2; port++) {
                    f.host(hostMac(p, j, port), hostIp(p, j, port), edge(p, j), port);
                }
            }
        }
        return f;
    }

    /** Sends one TCP SYN from pod 0 to pod 3 and answers the core switch its path crosses. */
    private static long coreOfFlow(Fabric f, ReactiveForwarding fw, int sourcePort) {
        f.journal.clear();
        byte[] syn = Packets.tcp(hostMac(0, 0, 1), hostIp(0, 0, 1), sourcePort, hostMac(3, 1, 2), hostIp(3, 1, 2), 5201);
        assertEquals(Command.STOP, fw.receive(f.sw(edge(0, 0)), Packets.packetIn(f.sw(edge(0, 0)).getVersion(), 1, syn)));
        Set<Long> cores = new HashSet<>();
        for (PortedSwitch.Write w : f.journal) {
            if (w.message() instanceof OFFlowAdd && CORES.contains(w.dpid().getLong())) {
                cores.add(w.dpid().getLong());
            }
        }
        assertEquals(1, cores.size(), "a path crosses exactly one core switch: " + f.journal);
        assertEquals(10, f.journal.stream().filter(w -> w.message() instanceof OFFlowAdd).count(),
                "five switches, both directions");
        return cores.iterator().next();
    }

    @Test
    void flowsBetweenTwoPodsSpreadOverTheCorePathsAndEachFlowKeepsItsPath() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, true, MatchGranularity.TRANSPORT);
        Map<Long, Integer> perCore = new HashMap<>();
        Map<Integer, Long> chosen = new HashMap<>();
        for (int port = 40000; port < 40064; port++) {
            long core = coreOfFlow(f, fw, port);
            perCore.merge(core, 1, Integer::sum);
            chosen.put(port, core);
        }
        assertEquals(CORES, perCore.keySet(), "64 flows use all four core paths: " + perCore);
        perCore.values().forEach(n -> assertTrue(n >= 6, "no path starves: " + perCore));
        for (int port = 40000; port < 40064; port += 7) {
            assertEquals(chosen.get(port), coreOfFlow(f, fw, port), "the same flow takes the same path again");
        }
    }

    @Test
    void withoutEcmpEveryFlowTakesTheFirstRoute() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, false, MatchGranularity.TRANSPORT);
        Set<Long> used = new HashSet<>();
        for (int port = 40000; port < 40032; port++) {
            used.add(coreOfFlow(f, fw, port));
        }
        assertEquals(Set.of(core(0)), used);
    }

    @Test
    void macGranularityKeepsAHostPairOnOnePath() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, true, MatchGranularity.MAC);
        Set<Long> used = new HashSet<>();
        for (int port = 40000; port < 40032; port++) {
            used.add(coreOfFlow(f, fw, port));
        }
        assertEquals(1, used.size(), "a MAC-matched flow carries every connection of the pair");
    }

    /**
     * Plays a flood through the fabric: each packet-out port leads over its cable to a packet-in at the
     * next switch, or to a host. Answers the host ports reached, one entry per copy delivered.
     */
    private static List<SwitchPort> flood(Fabric f, ReactiveForwarding fw, SwitchPort from, byte[] frame,
            List<DatapathId> packetIns) {
        Map<SwitchPort, SwitchPort> cables = new HashMap<>();
        for (Link l : f.getTopology().links()) {
            cables.put(l.src(), l.dst());
        }
        List<SwitchPort> delivered = new ArrayList<>();
        Deque<SwitchPort> arrivals = new ArrayDeque<>(List.of(from));
        while (!arrivals.isEmpty()) {
            assertTrue(packetIns.size() < 200, "the flood does not die out: a loop");
            SwitchPort at = arrivals.poll();
            PortedSwitch sw = f.sw(at.dpid().getLong());
            packetIns.add(at.dpid());
            f.journal.clear();
            assertEquals(Command.STOP, fw.receive(sw, Packets.packetIn(sw.getVersion(), at.port().getPortNumber(), frame)));
            for (PortedSwitch.Write w : f.journal) {
                assertEquals(at.dpid(), w.dpid(), "a flood writes only to the switch it is at");
                OFPacketOut out = as(OFPacketOut.class, w.message());
                for (OFPort port : outputs(out)) {
                    assertFalse(port.equals(OFPort.FLOOD) || port.equals(OFPort.ALL) || port.equals(OFPort.IN_PORT),
                            "explicit ports only, never " + port);
                    SwitchPort exit = SwitchPort.of(at.dpid(), port);
                    SwitchPort next = cables.get(exit);
                    if (next != null) {
                        arrivals.add(next);
                    } else {
                        delivered.add(exit);
                    }
                }
            }
        }
        return delivered;
    }

    private static List<SwitchPort> allHostPortsBut(SwitchPort sender) {
        List<SwitchPort> ports = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            for (int j = 0; j < 2; j++) {
                for (int port = 1; port <= 2; port++) {
                    SwitchPort sp = Fabric.port(edge(p, j), port);
                    if (!sp.equals(sender)) {
                        ports.add(sp);
                    }
                }
            }
        }
        return ports;
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13", "OF_15"})
    void aBroadcastReachesEveryOtherHostOnceAndEverySwitchOnce(OFVersion version) {
        Fabric f = withHosts(version);
        ReactiveForwarding fw = forwarding(f, true, MatchGranularity.TRANSPORT);
        SwitchPort sender = Fabric.port(edge(0, 0), 1);
        byte[] arp = Packets.arpRequest(hostMac(0, 0, 1), hostIp(0, 0, 1), "10.9.9.9"); // nobody's address
        List<DatapathId> packetIns = new ArrayList<>();

        List<SwitchPort> delivered = flood(f, fw, sender, arp, packetIns);

        assertEquals(new HashSet<>(allHostPortsBut(sender)), new HashSet<>(delivered));
        assertEquals(15, delivered.size(), "each host gets one copy: " + delivered);
        assertEquals(20, packetIns.size(), "each switch sees the flood once: " + packetIns);
        assertEquals(20, new HashSet<>(packetIns).size());
    }

    @Test
    void anUnknownUnicastDestinationIsFloodedOnTheTreeToo() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, true, MatchGranularity.TRANSPORT);
        SwitchPort sender = Fabric.port(edge(2, 1), 2);
        byte[] syn = Packets.tcp(hostMac(2, 1, 2), hostIp(2, 1, 2), 1000, 0x0600_0000_0001L, "10.7.7.7", 80);
        List<DatapathId> packetIns = new ArrayList<>();

        List<SwitchPort> delivered = flood(f, fw, sender, syn, packetIns);

        assertEquals(15, delivered.size());
        assertEquals(new HashSet<>(allHostPortsBut(sender)), new HashSet<>(delivered));
        assertEquals(20, packetIns.size());
    }

    @Test
    void theFirstSwitchFloodsToItsOtherHostAndItsTreePortsOnly() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, true, MatchGranularity.TRANSPORT);
        Topology t = f.getTopology();
        // The tree is a BFS from the lowest dpid (core 0x101); edge(0,0) reaches agg(0,0) and agg(0,1) on it.
        assertEquals(Set.of(OFPort.of(3), OFPort.of(4)), t.broadcastTreePorts(DatapathId.of(edge(0, 0))));

        fw.receive(f.sw(edge(0, 0)), Packets.packetIn(OFVersion.OF_13, 1,
                Packets.arpRequest(hostMac(0, 0, 1), hostIp(0, 0, 1), "10.9.9.9")));

        assertEquals(1, f.journal.size());
        assertEquals(List.of(OFPort.of(2), OFPort.of(3), OFPort.of(4)),
                outputs(as(OFPacketOut.class, f.journal.get(0).message())));
    }

    @Test
    void aFloodCopyArrivingOffTheTreeIsDropped() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f, true, MatchGranularity.TRANSPORT);
        Topology t = f.getTopology();
        List<SwitchPort> offTree = t.links().stream().map(Link::dst).filter(p -> !t.isBroadcastAllowed(p)).toList();
        assertFalse(offTree.isEmpty(), "a fat tree has loops, so some inter-switch ports are off the tree");
        byte[] arp = Packets.arpRequest(hostMac(0, 0, 1), hostIp(0, 0, 1), "10.9.9.9");
        for (SwitchPort port : offTree) {
            PortedSwitch sw = f.sw(port.dpid().getLong());
            assertEquals(Command.STOP, fw.receive(sw, Packets.packetIn(OFVersion.OF_13, port.port().getPortNumber(), arp)),
                    "a dropped copy must not reach the learning switch either");
        }
        assertTrue(f.journal.isEmpty(), "nothing sent for copies off the tree: " + f.journal);
        // The off-tree ports include, for example, the second uplink of edge(0,1).
        assertTrue(offTree.contains(Fabric.port(edge(0, 1), 4)) || offTree.contains(Fabric.port(agg(0, 1), 2)));
    }
}
