package io.heliograph.virtue.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.EdfFormat;
import io.heliograph.virtue.engine.InvalidInputException;
import io.heliograph.virtue.engine.Problem;

class VlanRoutingTest {

    static final String S1 = "01:00:00:00:00:00:00:01";
    static final String S2 = "01:00:00:00:00:00:00:02";
    static final String S3 = "01:00:00:00:00:00:00:03";
    static final String CORE = "00:00:00:00:00:00:00:01";

    private final VlanRouting routing = new VlanRouting();

    /** Appendix B with real OVS ports: vm0001 and vm0002 on ports 2 and 3 of host0001's switch, vm0003 on port 2 of host0002's. */
    static Edf appendixB() {
        return TestEdf.withVmPorts(TestEdf.appendixB(), Map.of("vm0001", 2, "vm0002", 3, "vm0003", 2));
    }

    /** Two PMs under one transit switch: h1 (v1 on port 2, v2 on port 3) and h2 (v3 on port 2). */
    static Edf tree() {
        return new TestEdf().sw(S1, true).sw(S2, true).sw(CORE, false)
                .pm("h1", S1, "v1", 2, "v2", 3).pm("h2", S2, "v3", 2)
                .cable(S1, 1, CORE, 1, null).cable(S2, 1, CORE, 2, "1000000000")
                .route("v1", S1, CORE, S2, "v3").route("v3", S2, CORE, S1, "v1")
                .route("v2", S1, CORE, S2, "v3").route("v1", S1, "v2")
                .build();
    }

    /**
     * host1's switch S1 and host3's switch S3 hang from a core switch, which reaches host2's switch S2 by
     * five middle switches M1..M5 (core port 10 + i to Mi port 1, Mi port 2 to S2 port i): five distinct
     * paths toward host2. host1 holds v1..v4 (S1 ports 2..5), host2 holds v5 (S2 port 10), host3 holds v6 (S3 port 2).
     */
    static TestEdf fan() {
        TestEdf edf = new TestEdf().sw(S1, true).sw(S2, true).sw(S3, true).sw(CORE, false)
                .pm("host1", S1, "v1", 2, "v2", 3, "v3", 4, "v4", 5).pm("host2", S2, "v5", 10).pm("host3", S3, "v6", 2)
                .cable(S1, 1, CORE, 1, null).cable(S3, 1, CORE, 2, null);
        for (int i = 1; i <= 5; i++) {
            edf.sw(middle(i), false).cable(CORE, 10 + i, middle(i), 1, null).cable(middle(i), 2, S2, i, null);
        }
        return edf;
    }

    static String middle(int i) {
        return "00:00:00:00:00:00:01:0" + i;
    }

    /** Each entry as its switch and the static flows app's text of it: name, table, priority, match, actions, timeouts. */
    static List<String> lines(RoutePlan plan) {
        return plan.entries().stream().map(e -> e.dpid() + " " + e).toList();
    }

    @Test
    void appendixBBecomesOneEntryPerSameSwitchRouteAndTaggedPathsBetweenThePms() {
        Edf edf = appendixB();
        assertEquals(List.of(), EdfFormat.problems(edf, 4), "the test's EDF is sound");
        RoutePlan plan = routing.plan(edf, "e1");

        assertEquals(List.of(
                // delivery: host0002's first VLAN id toward vm0003, host0001's first toward vm0002
                S2 + " flow virtue-e1-vlan1004-vm0003 table=0 priority=40000 eth_vlan_vid=1004 eth_dst=00:16:3e:01:00:03 actions=pop_vlan,output=2",
                S1 + " flow virtue-e1-vlan1000-vm0002 table=0 priority=40000 eth_vlan_vid=1000 eth_dst=00:16:3e:01:00:02 actions=pop_vlan,output=3",
                // transit: the physical switch matches only the VLAN id
                CORE + " flow virtue-e1-vlan1004 table=0 priority=40000 eth_vlan_vid=1004 actions=output=2",
                CORE + " flow virtue-e1-vlan1000 table=0 priority=40000 eth_vlan_vid=1000 actions=output=1",
                // sources, in the EDF's order of routes
                S1 + " flow virtue-e1-vm0001-vm0002 table=0 priority=40000 in_port=2 eth_src=00:16:3e:01:00:01 eth_dst=00:16:3e:01:00:02 actions=output=3",
                S1 + " flow virtue-e1-vm0002-vm0001 table=0 priority=40000 in_port=3 eth_src=00:16:3e:01:00:02 eth_dst=00:16:3e:01:00:01 actions=output=2",
                S1 + " flow virtue-e1-vm0002-vm0003 table=0 priority=40000 in_port=3 eth_src=00:16:3e:01:00:02 eth_dst=00:16:3e:01:00:03 actions=push_vlan=0x8100,set_field=eth_vlan_vid->1004,output=1",
                S2 + " flow virtue-e1-vm0003-vm0002 table=0 priority=40000 in_port=2 eth_src=00:16:3e:01:00:03 eth_dst=00:16:3e:01:00:02 actions=push_vlan=0x8100,set_field=eth_vlan_vid->1000,output=1"),
                lines(plan));
        for (FlowEntry entry : plan.entries()) {
            assertEquals(0, entry.idleTimeout(), entry.name());
            assertEquals(0, entry.hardTimeout(), entry.name());
        }
        assertEquals(Map.of("host0001", List.of(1000, 1001, 1002, 1003), "host0002", List.of(1004, 1005, 1006, 1007)),
                plan.vlans());
        assertEquals(List.of("host0001", "host0002"), new ArrayList<>(plan.vlans().keySet()), "in the EDF's order");
        assertEquals(Map.of("host0001", S1, "host0002", S2), plan.pmSwitches());

        assertEquals(List.of("vm0001>vm0002", "vm0002>vm0001", "vm0002>vm0003", "vm0003>vm0002"),
                plan.counters().stream().map(c -> c.source() + ">" + c.destination()).toList());
        RoutePlan.PairCounter tagged = plan.counters().get(3);
        assertEquals(new RoutePlan.PairCounter("vm0003", "vm0002", DatapathId.of(S2), "virtue-e1-vm0003-vm0002", 0,
                40000, OFPort.of(2), MacAddress.of("00:16:3E:01:00:03"), MacAddress.of("00:16:3E:01:00:02"), 1000), tagged);
        assertNull(plan.counters().get(0).vlan(), "nothing is tagged between two VMs of one switch");
        assertEquals("virtue-e1-vm0001-vm0002", plan.counters().get(0).entry());
    }

    @Test
    void theSameEdfGivesTheSameEntriesInTheSameOrder() {
        assertEquals(routing.plan(appendixB(), "e1"), routing.plan(appendixB(), "e1"));
        assertEquals(routing.plan(tree(), "x"), routing.plan(tree(), "x"));
    }

    @Test
    void theThesisAbstractPortZeroIsRefusedAtEachVmLinkARouteUses() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> routing.plan(TestEdf.appendixB(), "e1"));
        assertEquals(Set.of("$.links[4].destinationPort", "$.links[7].sourcePort", "$.links[6].destinationPort",
                "$.links[5].sourcePort", "$.links[9].sourcePort", "$.links[8].destinationPort"), paths(e));
        assertEquals(6, e.problems().size(), "each port once: " + e.problems());
        assertTrue(e.problems().get(0).message().contains("port 0 is not a switch port"), e.getMessage());
    }

    @Test
    void aTreeSharesTransitAndDeliveryEntriesBetweenTheRoutesTowardOnePm() {
        RoutePlan plan = routing.plan(tree(), "exp-7");
        assertEquals(List.of(
                S2 + " flow virtue-exp-7-vlan1004-v3 table=0 priority=40000 eth_vlan_vid=1004 eth_dst=02:00:00:00:00:03 actions=pop_vlan,output=2",
                S1 + " flow virtue-exp-7-vlan1000-v1 table=0 priority=40000 eth_vlan_vid=1000 eth_dst=02:00:00:00:00:01 actions=pop_vlan,output=2",
                CORE + " flow virtue-exp-7-vlan1004 table=0 priority=40000 eth_vlan_vid=1004 actions=output=2",
                CORE + " flow virtue-exp-7-vlan1000 table=0 priority=40000 eth_vlan_vid=1000 actions=output=1",
                S1 + " flow virtue-exp-7-v1-v3 table=0 priority=40000 in_port=2 eth_src=02:00:00:00:00:01 eth_dst=02:00:00:00:00:03 actions=push_vlan=0x8100,set_field=eth_vlan_vid->1004,output=1",
                S2 + " flow virtue-exp-7-v3-v1 table=0 priority=40000 in_port=2 eth_src=02:00:00:00:00:03 eth_dst=02:00:00:00:00:01 actions=push_vlan=0x8100,set_field=eth_vlan_vid->1000,output=1",
                S1 + " flow virtue-exp-7-v2-v3 table=0 priority=40000 in_port=3 eth_src=02:00:00:00:00:02 eth_dst=02:00:00:00:00:03 actions=push_vlan=0x8100,set_field=eth_vlan_vid->1004,output=1",
                S1 + " flow virtue-exp-7-v1-v2 table=0 priority=40000 in_port=2 eth_src=02:00:00:00:00:01 eth_dst=02:00:00:00:00:02 actions=output=3"),
                lines(plan));
        Set<String> keys = plan.entries().stream().map(e -> e.dpid() + "/" + e.name()).collect(Collectors.toSet());
        assertEquals(plan.entries().size(), keys.size(), "names are unique per switch");
    }

    @Test
    void theVlanBaseAndPriorityAreSettings() {
        RoutePlan plan = new VlanRouting(2000, 100).plan(tree(), "e1");
        assertEquals(List.of(2000, 2001, 2002, 2003), plan.vlans().get("h1"));
        assertEquals(List.of(2004, 2005, 2006, 2007), plan.vlans().get("h2"));
        assertTrue(plan.entries().stream().allMatch(e -> e.priority() == 100));
        assertEquals("2004", plan.entries().get(0).match().get("eth_vlan_vid"));
        assertThrows(IllegalArgumentException.class, () -> new VlanRouting(0, 100));
        assertThrows(IllegalArgumentException.class, () -> new VlanRouting(4095, 100));
        assertThrows(IllegalArgumentException.class, () -> new VlanRouting(1000, 65536));
        assertThrows(IllegalArgumentException.class, () -> routing.plan(tree(), "Bad_Id"));
        assertThrows(IllegalArgumentException.class, () -> routing.plan(tree(), "a".repeat(41)));
    }

    @Test
    void twoDistinctPathsTowardOnePmTakeTwoOfItsVlanIdsAndASharedPathReusesOne() {
        Edf edf = fan()
                .route("v1", S1, CORE, middle(1), S2, "v5")
                .route("v2", S1, CORE, middle(2), S2, "v5")
                .route("v6", S3, CORE, middle(1), S2, "v5") // joins v1's path at the core: the same VLAN id
                .build();
        assertEquals(List.of(), EdfFormat.problems(edf, 4), "the test's EDF is sound");
        RoutePlan plan = routing.plan(edf, "e1");
        // host2 is the second PM: 1004..1007
        assertEquals(List.of(1004, 1005, 1004), plan.counters().stream().map(RoutePlan.PairCounter::vlan).toList());
        assertEquals(List.of(
                S2 + " flow virtue-e1-vlan1004-v5 table=0 priority=40000 eth_vlan_vid=1004 eth_dst=02:00:00:00:00:05 actions=pop_vlan,output=10",
                S2 + " flow virtue-e1-vlan1005-v5 table=0 priority=40000 eth_vlan_vid=1005 eth_dst=02:00:00:00:00:05 actions=pop_vlan,output=10",
                CORE + " flow virtue-e1-vlan1004 table=0 priority=40000 eth_vlan_vid=1004 actions=output=11",
                middle(1) + " flow virtue-e1-vlan1004 table=0 priority=40000 eth_vlan_vid=1004 actions=output=2",
                CORE + " flow virtue-e1-vlan1005 table=0 priority=40000 eth_vlan_vid=1005 actions=output=12",
                middle(2) + " flow virtue-e1-vlan1005 table=0 priority=40000 eth_vlan_vid=1005 actions=output=2",
                S1 + " flow virtue-e1-v1-v5 table=0 priority=40000 in_port=2 eth_src=02:00:00:00:00:01 eth_dst=02:00:00:00:00:05 actions=push_vlan=0x8100,set_field=eth_vlan_vid->1004,output=1",
                S1 + " flow virtue-e1-v2-v5 table=0 priority=40000 in_port=3 eth_src=02:00:00:00:00:02 eth_dst=02:00:00:00:00:05 actions=push_vlan=0x8100,set_field=eth_vlan_vid->1005,output=1",
                S3 + " flow virtue-e1-v6-v5 table=0 priority=40000 in_port=2 eth_src=02:00:00:00:00:06 eth_dst=02:00:00:00:00:05 actions=push_vlan=0x8100,set_field=eth_vlan_vid->1004,output=1"),
                lines(plan));
    }

    @Test
    void fourDistinctPathsTowardOnePmAreTakenAndAFifthIsRefusedAtItsRoute() {
        TestEdf edf = fan();
        String[] sources = {"v1", "v2", "v3", "v4"};
        for (int i = 1; i <= 4; i++) {
            edf.route(sources[i - 1], S1, CORE, middle(i), S2, "v5");
        }
        RoutePlan four = routing.plan(edf.build(), "e1");
        assertEquals(List.of(1004, 1005, 1006, 1007), four.counters().stream().map(RoutePlan.PairCounter::vlan).toList());

        edf.route("v6", S3, CORE, middle(5), S2, "v5");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> routing.plan(edf.build(), "e1"));
        assertEquals(List.of("$.routes[4]"), e.problems().stream().map(Problem::path).toList());
        assertTrue(e.problems().get(0).message().contains("a fifth distinct path toward host2"), e.getMessage());
    }

    @Test
    void aVmInARouteNeedsAMacAddress() {
        Edf good = tree();
        Edf noMac = replaceVm(good, 0, "v1", Map.of());
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> routing.plan(noMac, "e1"));
        assertEquals(List.of(new Problem("$.pms[0].vms.v1.parameters.MAC",
                "missing: v1 is in a route ($.routes[0]), whose entries match its MAC address")), e.problems());

        Edf badMac = replaceVm(good, 1, "v3", Map.of("MAC", "02:00:00:00:00"));
        e = assertThrows(InvalidInputException.class, () -> routing.plan(badMac, "e1"));
        assertEquals(List.of(new Problem("$.pms[1].vms.v3.parameters.MAC", "\"02:00:00:00:00\" is not a MAC address")),
                e.problems());

        // a VM in no route needs none
        Edf idle = new TestEdf().sw(S1, true).pm("h1", S1, "v1", 2, "v2", 3).route("v1", S1, "v2").build();
        Edf idleNoMac = new Edf(idle.parameters(), List.of(new Edf.Pm("h1", Map.of(), Map.of(
                "v1", idle.pms().get(0).vms().get("v1"), "v2", idle.pms().get(0).vms().get("v2"),
                "v9", new Edf.Vm("v9", Map.of())))), idle.switches(), idle.links(), idle.routes());
        assertEquals(1, routing.plan(idleNoMac, "e1").entries().size());
    }

    @Test
    void aRouteMustChainFromItsSourceVmsLinkUpToItsDestinationVmsLinkDown() {
        Edf edf = tree();
        String up1 = Edf.Link.idOf("v1", 0, S1, 2);
        String down3 = Edf.Link.idOf(S2, 2, "v3", 0);
        String s1Core = Edf.Link.idOf(S1, 1, CORE, 1);
        String coreS2 = Edf.Link.idOf(CORE, 2, S2, 1);
        String up2 = Edf.Link.idOf("v2", 0, S1, 3);
        String down2 = Edf.Link.idOf(S1, 3, "v2", 0);

        assertProblem(withRoute(edf, "v1", "v3", up1, s1Core, down3), "$.routes[0].linkIds[2]", "starts at " + S2);
        assertProblem(withRoute(edf, "v1", "v3", up2, s1Core, coreS2, down3), "$.routes[0].linkIds[0]",
                "not the link up from v1");
        assertProblem(withRoute(edf, "v1", "v3", up1, down2), "$.routes[0].linkIds[1]", "not the link down to v3");
        assertProblem(withRoute(edf, "v1", "v3", up1, "nowhere:1->S:2", coreS2, down3), "$.routes[0].linkIds[1]",
                "no link nowhere:1->S:2");
        assertProblem(withRoute(edf, "v1", "v3", up1), "$.routes[0].linkIds", "a route is at least");
        assertProblem(withRoute(edf, "v1", "v9", up1, s1Core, coreS2, down3), "$.routes[0].destinationId", "no VM v9");
    }

    @Test
    void vlanIdsPast4094AreRefusedNamingThePm() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> new VlanRouting(4088, 40000).plan(fan().route("v1", S1, CORE, middle(1), S2, "v5").build(), "e1"));
        // host1 4088..4091, host2 4092..4095: refused
        assertEquals(List.of("$.pms[1]"), e.problems().stream().map(Problem::path).toList());
        assertTrue(e.problems().get(0).message().startsWith("host2 would get VLAN ids 4092..4095, past 4094, "
                + "as would 1 more PM after it"), e.getMessage());
    }

    @Test
    void vmIdsThatWouldMakeBadEntryNamesGiveWayToTheirPositions() {
        Edf edf = new TestEdf().sw(S1, true).pm("h1", S1, "vm one", 2, "v2", 3).route("vm one", S1, "v2")
                .route("v2", S1, "vm one").build();
        RoutePlan plan = routing.plan(edf, "e1");
        assertEquals(List.of("virtue-e1-0-1", "virtue-e1-1-0"), plan.entries().stream().map(FlowEntry::name).toList());
        assertEquals("virtue-e1-0-1", plan.counters().get(0).entry());
    }

    @Test
    void everyEntryPassesTheStaticFlowsAppsChecksForOpenFlow13AndAllButTaggingForOpenFlow10() {
        List<FlowEntry> entries = new ArrayList<>(routing.plan(appendixB(), "e1").entries());
        entries.addAll(routing.plan(tree(), "e1").entries());
        for (FlowEntry entry : entries) {
            for (OFVersion version : List.of(OFVersion.OF_13, OFVersion.OF_14, OFVersion.OF_15)) {
                assertEquals(List.of(), StaticFlowsCheck.problems(entry, version), version + " " + entry);
                assertTrue(StaticFlowsCheck.encodedFlowAdd(entry, version) > 0);
            }
            boolean tags = entry.applyActions().stream().anyMatch(a -> a instanceof Action.PushVlan);
            List<String> of10 = StaticFlowsCheck.problems(entry, OFVersion.OF_10);
            if (tags) {
                // OpenFlow 1.0 has no push_vlan (its set_vlan_vid tags an untagged packet, which the static
                // flows app does not offer): the tagging entries need OpenFlow 1.1 or later
                assertEquals(1, of10.size(), of10.toString());
                assertTrue(of10.get(0).contains("push_vlan") && of10.get(0).contains("requires OpenFlow 1.1"), of10.toString());
            } else {
                assertEquals(List.of(), of10, entry.toString());
                assertTrue(StaticFlowsCheck.encodedFlowAdd(entry, OFVersion.OF_10) > 0);
            }
        }
    }

    private static Set<String> paths(InvalidInputException e) {
        return e.problems().stream().map(Problem::path).collect(Collectors.toSet());
    }

    private void assertProblem(Edf edf, String path, String fragment) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> routing.plan(edf, "e1"));
        assertEquals(List.of(path), e.problems().stream().map(Problem::path).toList(), e.getMessage());
        assertTrue(e.problems().get(0).message().contains(fragment), e.getMessage());
    }

    /** The EDF with one route only. */
    private static Edf withRoute(Edf edf, String source, String destination, String... linkIds) {
        return new Edf(edf.parameters(), edf.pms(), edf.switches(), edf.links(),
                List.of(new Edf.Route(source, destination, List.of(linkIds))));
    }

    private static Edf replaceVm(Edf edf, int pm, String vm, Map<String, String> parameters) {
        List<Edf.Pm> pms = new ArrayList<>(edf.pms());
        Map<String, Edf.Vm> vms = new LinkedHashMap<>(pms.get(pm).vms());
        vms.put(vm, new Edf.Vm(vm, parameters));
        pms.set(pm, new Edf.Pm(pms.get(pm).id(), pms.get(pm).parameters(), vms));
        return new Edf(edf.parameters(), pms, edf.switches(), edf.links(), edf.routes());
    }
}
