package io.heliograph.topology.internal;

import static io.heliograph.topology.internal.Fabric.end;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.Role;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.topology.Link;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyEvent.Type;
import io.heliograph.topology.internal.ClusterFabric.Instance;

/**
 * Discovery in a cluster: instances share what they find through the store, only a switch's master
 * probes it, and a new master probes at once. Instances "a", "b" (and "c"), switches connected to all.
 */
class ClusterDiscoveryTest {

    private final ClusterFabric fabric = new ClusterFabric();

    @AfterEach
    void close() {
        fabric.close();
    }

    private static Link link(long a, int aPort, long b, int bPort) {
        return new Link(end(a, aPort), end(b, bPort));
    }

    private static final Set<Link> CABLE_1_2 = Set.of(link(1, 1, 2, 1), link(2, 1, 1, 1));

    @Test
    void aLinkFoundByOneInstanceIsInTheOthersView() {
        fabric.instances("a", "b");
        fabric.cable(1, 1, 2, 1);
        fabric.connect(1, 2, "a");
        fabric.connect(2, 2, "a");
        fabric.deliver();
        Instance a = fabric.instance("a");
        Instance b = fabric.instance("b");
        assertEquals(CABLE_1_2, a.topology().links());
        assertEquals(Set.of(), b.topology().links(), "b masters nothing and has heard nothing yet");

        fabric.flush();

        assertEquals(CABLE_1_2, b.topology().links());
        assertEquals(1, b.topology().islands().size(), "the remote links join b's islands too");
        assertEquals(List.of("a", "a"), b.discovery.linkStatus().stream().map(LinkStatus::discoveredBy).toList());
        assertTrue(b.discovery.linkStatus().stream().allMatch(LinkStatus::bidirectional));
        List<TopologyEvent> events = b.published.get(b.published.size() - 1);
        assertEquals(Set.of(Type.LINK_ADDED, Type.LINK_UPDATED),
                events.stream().map(TopologyEvent::type).collect(Collectors.toSet()));
    }

    /**
     * The probe from 1 (mastered by a) arrives at 2 (mastered by b): b checks a's signature with the
     * cluster's key and owns the link, as the master of its destination.
     */
    @Test
    void aLinkBetweenSwitchesOfTwoMastersIsFoundByTheMasterOfItsDestination() {
        fabric.instances("a", "b");
        fabric.cable(1, 1, 2, 1);
        fabric.connect(1, 1, "a");
        fabric.connect(2, 1, "b");
        fabric.deliver();
        Instance a = fabric.instance("a");
        Instance b = fabric.instance("b");
        assertEquals(Set.of(link(2, 1, 1, 1)), a.discovery.linkStatus().stream().map(LinkStatus::link)
                .collect(Collectors.toSet()), "a found the link into 1");
        fabric.flush();
        assertEquals(CABLE_1_2, a.topology().links());
        assertEquals(CABLE_1_2, b.topology().links());
        Map<Link, String> owners = new HashMap<>();
        b.discovery.linkStatus().forEach(s -> owners.put(s.link(), s.discoveredBy()));
        assertEquals(Map.of(link(1, 1, 2, 1), "b", link(2, 1, 1, 1), "a"), owners);
    }

    @Test
    void anInstanceLeavingTakesItsLinksOutOfTheOthersView() {
        fabric.instances("a", "b");
        fabric.cable(1, 1, 2, 1);
        fabric.cable(2, 2, 3, 1);
        fabric.connect(1, 1, "a");
        fabric.connect(2, 2, "a");
        fabric.connect(3, 1, "b");
        fabric.deliver();
        fabric.flush();
        Instance b = fabric.instance("b");
        assertEquals(4, b.topology().links().size());

        fabric.kill("a");

        // b keeps what it found itself (2 -> 3, at its switch 3); a's links (into 1 and 2) are gone
        assertEquals(Set.of(link(2, 2, 3, 1)), b.topology().links());
        List<TopologyEvent> events = b.published.get(b.published.size() - 1);
        assertTrue(events.stream().filter(e -> e.type() == Type.LINK_REMOVED).count() >= 1, events.toString());
    }

    @Test
    void aSlaveSendsNoProbes() {
        fabric.instances("a", "b");
        fabric.connect(1, 3, "a");
        FakeSwitch slave = fabric.instance("b").connection(1);
        FakeSwitch master = fabric.instance("a").connection(1);
        assertEquals(Role.SLAVE, slave.getRole());
        assertEquals(3, master.take().size(), "the master probed every port when the switch connected");
        assertEquals(List.of(), slave.take(), "the slave did not");

        fabric.probeAll();
        Instance b = fabric.instance("b");
        b.discovery.portChanged(slave, slave.setPort(2, true), PortChange.MODIFIED);
        b.discovery.roleChanged(slave, Role.SLAVE);

        assertEquals(List.of(), slave.take(), "no probe round, port change or role change makes a slave write");
        assertEquals(3, master.take().size());
    }

    @Test
    void aNewMasterProbesTheSwitchAtOnce() {
        fabric.instances("a", "b");
        fabric.connect(1, 3, "a");
        FakeSwitch atB = fabric.instance("b").connection(1);
        atB.take();

        fabric.master(1, "b");

        List<OFMessage> probes = atB.take();
        assertEquals(3, probes.size(), "one probe out of each port, without waiting for the next round");
        assertTrue(probes.stream().allMatch(m -> m instanceof OFPacketOut));
    }

    /**
     * a masters 2, b masters 1; a dies and b takes 2 over. b probes 2 at once; the probe arriving at
     * 1 confirms 2 -> 1, whose reverse (a's) is gone, so 1 probes back, and b finds 1 -> 2 at its new
     * switch: the cable is whole again in b's view with no probe round.
     */
    @Test
    void afterAFailOverTheNewMasterFindsTheDeadInstancesLinksWithoutWaitingForARound() {
        fabric.instances("a", "b");
        fabric.cable(1, 1, 2, 1);
        fabric.connect(1, 1, "b");
        fabric.connect(2, 1, "a");
        fabric.deliver();
        fabric.flush();
        Instance b = fabric.instance("b");
        assertEquals(CABLE_1_2, b.topology().links());

        fabric.kill("a");
        assertEquals(Set.of(link(2, 1, 1, 1)), b.topology().links(), "a's link into 2 left with it");
        fabric.master(2, "b");
        fabric.deliver();

        assertEquals(CABLE_1_2, b.topology().links());
        assertTrue(b.discovery.linkStatus().stream().allMatch(s -> "b".equals(s.discoveredBy())));
    }

    /** As above, with the retention the topology app uses: the dead instance's link never leaves b's view. */
    @Test
    void withRetentionTheDeadInstancesLinksStayInViewThroughTheFailOver() {
        fabric.retainingLinksOfInstancesThatLeftFor(3_600_000).instances("a", "b");
        fabric.cable(1, 1, 2, 1);
        fabric.connect(1, 1, "b");
        fabric.connect(2, 1, "a");
        fabric.deliver();
        fabric.flush();
        Instance b = fabric.instance("b");
        assertEquals(CABLE_1_2, b.topology().links());

        fabric.kill("a");
        assertEquals(CABLE_1_2, b.topology().links(), "a's link into 2 stays in view after a left");
        fabric.master(2, "b");
        fabric.deliver();
        fabric.flush();

        assertEquals(CABLE_1_2, b.topology().links());
        fabric.probeAll(); // b's next round from 1 arrives at 2, now b's: the link into 2 is b's own too
        fabric.deliver();
        assertEquals(CABLE_1_2, b.topology().links());
        assertTrue(b.discovery.linkStatus().stream().allMatch(s -> "b".equals(s.discoveredBy())),
                "b found a's link again itself: " + b.discovery.linkStatus());
    }

    @Test
    void aLinkFoundByTwoInstancesStaysWhileEitherHasIt() {
        fabric.instances("a", "b", "c");
        fabric.cable(1, 1, 2, 1);
        fabric.connect(1, 1, "a");
        fabric.connect(2, 1, "a");
        fabric.deliver();
        fabric.flush();
        fabric.master(2, "b"); // a keeps 1 -> 2 until it times out; b finds it too
        fabric.deliver();
        fabric.flush();
        Instance c = fabric.instance("c");
        Set<String> owners = c.discovery.linkStatus().stream().map(LinkStatus::discoveredBy).collect(Collectors.toSet());
        assertEquals(CABLE_1_2, c.topology().links());
        int eventsBefore = c.published.size();

        fabric.kill("b");

        assertEquals(CABLE_1_2, c.topology().links(), "a still has both directions");
        assertEquals(eventsBefore, c.published.size(), "nothing changed in c's view, so nothing was published");
        assertTrue(owners.contains("a"), owners.toString());
    }

    @Test
    void remoteLinksToASwitchNotConnectedHereWaitForIt() {
        fabric.instances("a", "b");
        fabric.cable(1, 1, 2, 1);
        fabric.connect(1, 1, "a");
        Instance b = fabric.instance("b");
        // 2 connects to a only
        FakeSwitch two = new FakeSwitch(2, OFVersion.OF_13, 1);
        two.requestRole(Role.MASTER, 1);
        fabric.instance("a").connections.put(two.getId(), two);
        fabric.instance("a").discovery.switchAdded(two);
        fabric.deliver();
        fabric.flush();
        assertEquals(Set.of(DatapathId.of(1)), b.topology().switches());
        assertEquals(Set.of(), b.topology().links(), "a link must end at switches of the topology");

        FakeSwitch twoAtB = new FakeSwitch(2, OFVersion.OF_13, 1);
        twoAtB.requestRole(Role.SLAVE, 1);
        b.connections.put(twoAtB.getId(), twoAtB);
        b.discovery.switchAdded(twoAtB);

        assertEquals(CABLE_1_2, b.topology().links());
    }

    /**
     * The store writes for a k=4 fat tree (20 switches, 64 directed links) shared by three
     * instances: one write per link found, none for the probe rounds that confirm them. Printed, not
     * asserted beyond that: the figure is for the report.
     */
    @Test
    void theFatTreeCostsOneWritePerLinkAndNothingPerRound() {
        fabric.instances("a", "b", "c");
        Graphs tree = Graphs.fatTree();
        for (Link l : tree.links) {
            fabric.cables.put(l.src(), l.dst());
        }
        String[] ids = {"a", "b", "c"};
        int n = 0;
        for (DatapathId dpid : tree.switches.stream().sorted().toList()) {
            fabric.connect(dpid.getLong(), 4, ids[n++ % 3]);
        }
        fabric.deliver();
        fabric.flush();
        long discoveryWrites = writes();
        for (Instance instance : fabric.instances.values()) {
            assertEquals(tree.links, instance.topology().links(), instance.id + " sees the whole tree");
        }
        assertEquals(tree.links.size(), discoveryWrites, "one write per directed link");

        for (int round = 0; round < 10; round++) {
            fabric.now += 5_000;
            fabric.instances.values().forEach(i -> i.discovery.sweep());
            fabric.probeAll();
            fabric.deliver();
            fabric.flush();
        }
        assertEquals(discoveryWrites, writes(), "confirming known links writes nothing");
        System.out.printf("fat tree k=4 on 3 instances: %d store writes to discover %d links, 0 in 10 LLDP rounds%n",
                discoveryWrites, tree.links.size());
    }

    private long writes() {
        return fabric.instances.values().stream().mapToLong(i -> i.shared.writes()).sum();
    }
}
