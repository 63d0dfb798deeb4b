package io.heliograph.forwarding.internal;

import static io.heliograph.forwarding.internal.Fabric.core;
import static io.heliograph.forwarding.internal.Fabric.edge;
import static io.heliograph.forwarding.internal.Fabric.hostIp;
import static io.heliograph.forwarding.internal.Fabric.hostMac;
import static io.heliograph.forwarding.internal.Messages.as;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowRemovedReason;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.devices.Host;
import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.routing.RoutingService;
import io.heliograph.topology.Link;
import io.heliograph.topology.TopologyEvent;

/** Failures on the k=4 fat tree: the flows that used a dead link, switch or host location go, no others. */
class FailureTest {

    /** One flow entry as written: where, what it matches, at which priority, under which cookie. */
    record Entry(DatapathId dpid, Match match, int priority, U64 cookie) {
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

    private static ReactiveForwarding forwarding(Fabric f) {
        ReactiveForwarding fw = new ReactiveForwarding(() -> f, () -> f, () -> f, () -> f, ForwardingSettings.DEFAULTS);
        fw.useClock(Fabric.longAfterEachRelease());
        return fw;
    }

    /** Sends one SYN from (pod a, edge 0, port 1) to (pod b, edge 1, port 2); answers the flows it installed. */
    private static Set<Entry> connect(Fabric f, ReactiveForwarding fw, int podA, int podB, int sourcePort) {
        f.journal.clear();
        byte[] syn = Packets.tcp(hostMac(podA, 0, 1), hostIp(podA, 0, 1), sourcePort, hostMac(podB, 1, 2),
                hostIp(podB, 1, 2), 5201);
        PortedSwitch ingress = f.sw(edge(podA, 0));
        fw.receive(ingress, Packets.packetIn(ingress.getVersion(), 1, syn));
        Set<Entry> adds = new HashSet<>();
        for (PortedSwitch.Write w : f.journal) {
            if (w.message() instanceof OFFlowAdd add) {
                adds.add(new Entry(w.dpid(), add.getMatch(), add.getPriority(), add.getCookie()));
            }
        }
        f.journal.clear();
        return adds;
    }

    private static Set<Entry> deletes(Fabric f) {
        Set<Entry> deletes = new HashSet<>();
        for (PortedSwitch.Write w : f.journal) {
            OFFlowDeleteStrict delete = as(OFFlowDeleteStrict.class, w.message());
            if (delete.getVersion() != OFVersion.OF_10) {
                assertEquals(U64.of(InstalledPaths.NAMESPACE), delete.getCookie(), "any of forwarding's cookies");
                assertEquals(U64.of(InstalledPaths.NAMESPACE_MASK), delete.getCookieMask(), "only forwarding's");
                assertEquals(OFGroup.ANY, delete.getOutGroup());
            }
            assertEquals(OFPort.ANY, delete.getOutPort());
            deletes.add(new Entry(w.dpid(), delete.getMatch(), delete.getPriority(), null));
        }
        return deletes;
    }

    /** The adds' entries as a delete names them: by their place in the table, not their cookie. */
    private static Set<Entry> withoutCookies(Set<Entry> entries) {
        Set<Entry> out = new HashSet<>();
        entries.forEach(e -> out.add(new Entry(e.dpid(), e.match(), e.priority(), null)));
        return out;
    }

    /** The core link (agg -> core) a path's entries cross: the agg-to-core hop of the forward direction. */
    private static Link coreLinkOf(Fabric f, Set<Entry> path) {
        for (Link l : f.getTopology().links()) {
            boolean coreEnd = l.dst().dpid().getLong() >= core(0) && l.dst().dpid().getLong() <= core(3);
            if (coreEnd && path.stream().anyMatch(e -> e.dpid().equals(l.dst().dpid())
                    && l.dst().port().equals(e.match().get(MatchField.IN_PORT)))
                    && path.stream().anyMatch(e -> e.dpid().equals(l.src().dpid()))) {
                return l;
            }
        }
        throw new AssertionError("no core link on the path");
    }

    /** Whether a path's entries send over the cable (either direction): one arrives at an end of it. */
    private static boolean crosses(Set<Entry> path, Link cable) {
        return path.stream().anyMatch(e -> arrivesOver(e, cable) || arrivesOver(e, cable.reverse()));
    }

    private static boolean arrivesOver(Entry e, Link link) {
        return e.dpid().equals(link.dst().dpid()) && link.dst().port().equals(e.match().get(MatchField.IN_PORT));
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13"})
    void aLinkGoingDownDeletesExactlyTheFlowsThatUsedIt(OFVersion version) {
        Fabric f = withHosts(version);
        ReactiveForwarding fw = forwarding(f);
        List<Set<Entry>> paths = new ArrayList<>();
        for (int port = 40000; port < 40008; port++) {
            paths.add(connect(f, fw, 0, 3, port));
            paths.add(connect(f, fw, 1, 2, port));
        }
        paths.forEach(p -> assertEquals(10, p.size(), "five switches, both directions"));
        Link dead = coreLinkOf(f, paths.get(0));
        Set<Entry> expected = new HashSet<>();
        int crossing = 0;
        for (Set<Entry> path : paths) {
            if (crosses(path, dead)) {
                expected.addAll(withoutCookies(path));
                crossing++;
            }
        }
        assertTrue(crossing < paths.size(), "some paths avoid the link, so 'nothing else' means something");

        fw.topologyChanged(f.cut(dead.src().dpid().getLong(), dead.src().port().getPortNumber(),
                dead.dst().dpid().getLong(), dead.dst().port().getPortNumber()));

        assertEquals(expected, deletes(f), "the entries of every path over the dead link, and nothing else");
        assertEquals(paths.size() - crossing, fw.paths().size());

        // The next packet of the first flow is routed around the dead link.
        Set<Entry> rerouted = connect(f, fw, 0, 3, 40000);
        assertEquals(10, rerouted.size());
        assertFalse(crosses(rerouted, dead), "the new path avoids the dead link");
    }

    @Test
    void aPathPickedUpMidwayGoesWithTheCableItCameIn() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f);
        // A packet of a flow whose upstream entries outlived ours arrives at a core switch from pod 0's
        // aggregation switch: the path installed from here on matches that inter-switch port.
        Link arrival = f.getTopology().links().stream()
                .filter(l -> l.dst().dpid().getLong() == core(0))
                .min(java.util.Comparator.comparing(l -> l.dst().port().getPortNumber()))
                .orElseThrow();
        byte[] syn = Packets.tcp(hostMac(0, 0, 1), hostIp(0, 0, 1), 40000, hostMac(3, 1, 2), hostIp(3, 1, 2), 5201);
        PortedSwitch core = f.sw(core(0));
        fw.receive(core, Packets.packetIn(core.getVersion(), arrival.dst().port().getPortNumber(), syn));
        assertEquals(1, fw.paths().size());
        f.journal.clear();

        fw.topologyChanged(f.cut(arrival.src().dpid().getLong(), arrival.src().port().getPortNumber(),
                arrival.dst().dpid().getLong(), arrival.dst().port().getPortNumber()));

        assertEquals(0, fw.paths().size(), "the path entering over the dead cable is gone");
        assertTrue(deletes(f).stream().anyMatch(e -> e.dpid().equals(arrival.dst().dpid())
                && arrival.dst().port().equals(e.match().get(MatchField.IN_PORT))), "its entry at the core is deleted");
    }

    @Test
    void aSwitchLeavingDeletesThePathsThroughIt() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f);
        Set<Entry> a = connect(f, fw, 0, 3, 40000);
        DatapathId core = a.stream().map(Entry::dpid).filter(d -> d.getLong() >= core(0) && d.getLong() <= core(3))
                .findFirst().orElseThrow();

        fw.topologyChanged(List.of(new TopologyEvent(TopologyEvent.Type.SWITCH_REMOVED, null, core, f.getTopology())));

        Set<Entry> expected = new HashSet<>(a);
        expected.removeIf(e -> e.dpid().equals(core)); // still "connected" in this fake, so it is told too
        Set<Entry> deleted = deletes(f);
        assertTrue(deleted.containsAll(withoutCookies(expected)));
        assertEquals(0, fw.paths().size());
    }

    @Test
    void aHostMovingDeletesTheFlowsToAndFromIt() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f);
        Set<Entry> a = connect(f, fw, 0, 3, 40000);
        Set<Entry> b = connect(f, fw, 1, 2, 40000);
        Host before = f.getHost(MacAddress.of(hostMac(3, 1, 2)),
                VlanVid.ZERO);
        Host after = f.move(before, edge(2, 0), 2);

        fw.hostMoved(before, after);

        assertEquals(withoutCookies(a), deletes(f));
        assertEquals(10, b.size());
        assertEquals(1, fw.paths().size(), "the other pair's path stays");
    }

    @Test
    void flowsThatExpiredAreForgottenAndNotDeletedAgain() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f);
        Set<Entry> a = connect(f, fw, 0, 3, 40000);
        Link dead = coreLinkOf(f, a);
        for (Entry e : a) {
            PortedSwitch sw = f.sw(e.dpid().getLong());
            OFMessage removed = sw.getFactory().buildFlowRemoved().setCookie(e.cookie()).setMatch(e.match())
                    .setPriority(e.priority()).setReason(OFFlowRemovedReason.IDLE_TIMEOUT).build();
            fw.receive(sw, removed);
        }
        assertEquals(0, fw.paths().size());

        fw.topologyChanged(f.cut(dead.src().dpid().getLong(), dead.src().port().getPortNumber(),
                dead.dst().dpid().getLong(), dead.dst().port().getPortNumber()));

        assertTrue(f.journal.isEmpty(), "nothing to delete: " + f.journal);
    }

    @Test
    void theSameFlowInstalledAgainReplacesItsEntriesInsteadOfKeepingTwoPaths() {
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f);
        connect(f, fw, 0, 3, 40000);
        Set<Entry> again = connect(f, fw, 0, 3, 40000);

        assertEquals(1, fw.paths().size());
        Link dead = coreLinkOf(f, again);
        fw.topologyChanged(f.cut(dead.src().dpid().getLong(), dead.src().port().getPortNumber(),
                dead.dst().dpid().getLong(), dead.dst().port().getPortNumber()));
        assertEquals(withoutCookies(again), deletes(f), "the entries of the path that owns them now");
    }

    @Test
    void aDeleteRemovesAnEntryThatCarriesAnEarlierPathsCookie() {
        // Two packet-ins of one flow on two switches' I/O threads: the registry records the first path and
        // then the second, but a switch on both may get the second's add first and keep the first's cookie.
        Fabric f = withHosts(OFVersion.OF_13);
        ReactiveForwarding fw = forwarding(f);
        Set<Entry> first = connect(f, fw, 0, 3, 40000);
        Set<Entry> second = connect(f, fw, 0, 3, 40000);
        assertEquals(withoutCookies(first), withoutCookies(second), "the same places in the same tables");
        Link dead = coreLinkOf(f, second);
        fw.topologyChanged(f.cut(dead.src().dpid().getLong(), dead.src().port().getPortNumber(),
                dead.dst().dpid().getLong(), dead.dst().port().getPortNumber()));

        List<OFFlowDeleteStrict> sent = f.journal.stream().map(w -> as(OFFlowDeleteStrict.class, w.message())).toList();
        assertEquals(second.size(), sent.size());
        long foreign = 0x5346_0000_0000_0001L; // another app's namespace, same match
        for (OFFlowDeleteStrict delete : sent) {
            long mask = delete.getCookieMask().getValue();
            for (Entry e : first) {
                assertEquals(delete.getCookie().getValue(), e.cookie().getValue() & mask,
                        "the delete misses the entry if the switch kept the first path's cookie " + e.cookie());
            }
            assertTrue((foreign & mask) != delete.getCookie().getValue(), "another app's flow is not ours to delete");
        }
    }
    @Test
    void aPathRoutedOverALinkThatFailedMeanwhileIsTakenBackAtOnce() {
        Fabric f = withHosts(OFVersion.OF_13);
        Set<Entry> probe = connect(f, forwarding(f), 0, 3, 40000);
        Link dead = coreLinkOf(f, probe);
        // Routing answered from the snapshot before the cut; the cut's events went out before the path existed.
        DatapathId src = DatapathId.of(edge(0, 0));
        DatapathId dst = DatapathId.of(edge(3, 1));
        List<Route> stale = f.getEqualCostRoutes(src, dst, Metric.HOPS);
        f.cut(dead.src().dpid().getLong(), dead.src().port().getPortNumber(), dead.dst().dpid().getLong(),
                dead.dst().port().getPortNumber());
        RoutingService staleRouting = new RoutingService() {
            @Override
            public Route getRoute(DatapathId a, DatapathId b, Metric m) {
                return stale.get(0);
            }

            @Override
            public List<Route> getEqualCostRoutes(DatapathId a, DatapathId b,
                    Metric m) {
                return stale;
            }

            @Override
            public List<Route> getKShortestRoutes(DatapathId a, DatapathId b, int k,
                    Metric m) {
                return stale;
            }
        };
        ReactiveForwarding fw = new ReactiveForwarding(() -> f, () -> f, () -> f, () -> staleRouting,
                ForwardingSettings.DEFAULTS);
        f.journal.clear();

        PortedSwitch ingress = f.sw(edge(0, 0));
        fw.receive(ingress, Packets.packetIn(OFVersion.OF_13, 1, Packets.tcp(hostMac(0, 0, 1), hostIp(0, 0, 1),
                40000, hostMac(3, 1, 2), hostIp(3, 1, 2), 5201)));

        Set<Entry> added = new HashSet<>();
        Set<Entry> deleted = new HashSet<>();
        for (PortedSwitch.Write w : f.journal) {
            if (w.message() instanceof OFFlowAdd add) {
                added.add(new Entry(w.dpid(), add.getMatch(), add.getPriority(), add.getCookie()));
            } else if (w.message() instanceof OFFlowDeleteStrict del) {
                deleted.add(new Entry(w.dpid(), del.getMatch(), del.getPriority(), null));
            }
        }
        assertEquals(10, added.size());
        assertEquals(withoutCookies(added), deleted, "the path over the dead link is deleted as soon as it is written");
        assertEquals(0, fw.paths().size());
    }
}
