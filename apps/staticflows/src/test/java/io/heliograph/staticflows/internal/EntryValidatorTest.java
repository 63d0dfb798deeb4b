package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.FlowFlag;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.GroupEntry.Bucket;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.MeterEntry.Band;
import io.heliograph.staticflows.StaticEntry;

class EntryValidatorTest {

    private static final DatapathId DPID = DatapathId.of(1);
    private static final EntryValidator.Definitions NONE = new EntryValidator.Definitions(Set.of(), Set.of());
    private static final SwitchView OF10 = SwitchView.of(new TableSwitch(1, OFVersion.OF_10, 1, 1, 2, 3));
    private static final SwitchView OF13 = SwitchView.of(new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3));
    private static final SwitchView OF15 = SwitchView.of(new TableSwitch(1, OFVersion.OF_15, 4, 1, 2, 3));

    private static FlowEntry.Builder flow() {
        return FlowEntry.builder(DPID, "f1").priority(100);
    }

    private static List<String> check(StaticEntry e, SwitchView sw) {
        return EntryValidator.validate(e, sw, NONE);
    }

    private static List<String> check(StaticEntry e) {
        return check(e, SwitchView.UNKNOWN);
    }

    private static void accepted(StaticEntry e, SwitchView sw) {
        assertEquals(List.of(), check(e, sw), e.toString());
    }

    /** Refused, with exactly one problem that contains every fragment. */
    private static void refused(StaticEntry e, SwitchView sw, String... fragments) {
        List<String> problems = check(e, sw);
        assertEquals(1, problems.size(), "expected one problem for " + e + ", got " + problems);
        for (String f : fragments) {
            assertTrue(problems.get(0).contains(f), "'" + problems.get(0) + "' should contain '" + f + "'");
        }
    }

    // ---- prerequisites ----

    @Test
    void ipv4FieldsNeedEthTypeIpv4() {
        accepted(flow().match("eth_type", "0x0800").match("ipv4_dst", "10.0.0.1").apply(Action.output(2)).build(), OF13);
        refused(flow().match("ipv4_dst", "10.0.0.1").apply(Action.output(2)).build(), OF13,
                "match field ipv4_dst", "eth_type=0x0800", "no exact eth_type");
        refused(flow().match("eth_type", "0x86dd").match("ipv4_src", "10.0.0.0/8").build(), OF13,
                "ipv4_src", "the entry has eth_type=0x86dd");
    }

    @Test
    void transportPortsNeedIpProtoAndAnIpEthType() {
        accepted(flow().match("eth_type", "0x0800").match("ip_proto", "6").match("tcp_dst", "80").build(), OF13);
        accepted(flow().match("eth_type", "0x86dd").match("ip_proto", "17").match("udp_src", "53").build(), OF13);
        // Floodlight issue #737: the pusher hung on exactly this flow.
        refused(flow().match("eth_type", "0x0800").match("tcp_dst", "80").build(), OF13,
                "tcp_dst", "ip_proto=6 (TCP)", "no exact ip_proto");
        refused(flow().match("eth_type", "0x0800").match("ip_proto", "17").match("tcp_dst", "80").build(), OF13,
                "tcp_dst", "the entry has ip_proto=17");
        List<String> both = check(flow().match("tcp_dst", "80").build(), OF13);
        assertEquals(1, both.size(), both.toString());
        assertTrue(both.get(0).contains("eth_type"), both.toString());
    }

    @Test
    void ipProtoNeedsAnIpEthType() {
        refused(flow().match("ip_proto", "6").build(), OF13, "match field ip_proto", "eth_type=0x0800 (IPv4) or eth_type=0x86dd");
    }

    @Test
    void arpFieldsNeedEthTypeArp() {
        accepted(flow().match("eth_type", "0x0806").match("arp_opcode", "1").match("arp_tpa", "10.0.0.1").build(), OF13);
        refused(flow().match("eth_type", "0x0800").match("arp_tpa", "10.0.0.1").build(), OF13,
                "arp_tpa", "eth_type=0x0806 (ARP)");
    }

    @Test
    void vlanPcpNeedsAVlan() {
        accepted(flow().match("eth_vlan_vid", "10").match("eth_vlan_pcp", "3").build(), OF13);
        accepted(flow().match("eth_vlan_vid", "present").match("eth_vlan_pcp", "3").build(), OF13);
        refused(flow().match("eth_vlan_pcp", "3").build(), OF13, "eth_vlan_pcp", "needs a VLAN");
        refused(flow().match("eth_vlan_vid", "none").match("eth_vlan_pcp", "3").build(), OF13, "eth_vlan_pcp");
    }

    @Test
    void icmpAndNeighbourDiscoveryPrerequisites() {
        accepted(flow().match("eth_type", "0x0800").match("ip_proto", "1").match("icmpv4_type", "8").build(), OF13);
        refused(flow().match("eth_type", "0x0800").match("ip_proto", "6").match("icmpv4_type", "8").build(), OF13,
                "icmpv4_type", "ip_proto=1 (ICMP)");
        accepted(flow().match("eth_type", "0x86dd").match("ip_proto", "58").match("icmpv6_type", "135")
                .match("ipv6_nd_target", "fe80::1").build(), OF13);
        refused(flow().match("eth_type", "0x86dd").match("ip_proto", "58").match("icmpv6_type", "128")
                .match("ipv6_nd_target", "fe80::1").build(), OF13, "ipv6_nd_target", "icmpv6_type=135 or 136");
    }

    @Test
    void mplsFieldsNeedMplsEthType() {
        accepted(flow().match("eth_type", "0x8847").match("mpls_label", "100").build(), OF13);
        refused(flow().match("mpls_label", "100").build(), OF13, "mpls_label", "0x8847");
    }

    @Test
    void aMaskedPrerequisiteDoesNotCount() {
        refused(flow().match("eth_type", "0x0800/0xff00").match("ipv4_dst", "10.0.0.1").build(), OF13,
                "ipv4_dst", "no exact eth_type");
    }

    @Test
    void setFieldHasTheSamePrerequisitesAsTheMatch() {
        accepted(flow().match("eth_type", "0x0800").apply(Action.setField("ipv4_dst", "10.0.0.9"), Action.output(1)).build(), OF13);
        refused(flow().apply(Action.setField("ipv4_dst", "10.0.0.9"), Action.output(1)).build(), OF13,
                "set_field=ipv4_dst->10.0.0.9", "eth_type=0x0800");
        refused(flow().match("eth_type", "0x0800").apply(Action.setField("tcp_dst", "8080")).build(), OF13,
                "set_field=tcp_dst->8080", "ip_proto=6");
    }

    @Test
    void vlanActionsNeedAVlanOrAPushFirst() {
        accepted(flow().apply(new Action.PushVlan(0x8100), Action.setField("eth_vlan_vid", "5"), Action.output(1)).build(), OF13);
        accepted(flow().match("eth_vlan_vid", "5").apply(new Action.PopVlan(), Action.output(1)).build(), OF13);
        refused(flow().apply(Action.setField("eth_vlan_vid", "5"), Action.output(1)).build(), OF13,
                "set_field=eth_vlan_vid->5", "push_vlan");
        refused(flow().apply(new Action.PopVlan(), Action.output(1)).build(), OF13, "pop_vlan", "needs a VLAN");
        refused(flow().apply(new Action.PushVlan(0x0800)).build(), OF13, "push_vlan", "0x8100 or 0x88a8");
    }

    // ---- values and names ----

    @Test
    void valueRangesAreChecked() {
        refused(flow().match("eth_vlan_vid", "4096").build(), OF13, "eth_vlan_vid=4096", "outside 0..4095");
        refused(flow().match("eth_type", "0x0800").match("ip_dscp", "64").build(), OF13, "ip_dscp=64");
        refused(flow().match("eth_type", "0x0800").match("ipv4_dst", "10.0.0.300").build(), OF13, "ipv4_dst=10.0.0.300");
        refused(flow().match("eth_dst", "00:11:22").build(), OF13, "eth_dst=00:11:22");
        refused(flow().priority(70000).build(), OF13, "priority 70000", "0..65535");
        refused(flow().idleTimeout(-1).build(), OF13, "idle_timeout");
        refused(flow().table(255).build(), SwitchView.UNKNOWN, "table 255");
        refused(flow().cookie(1L << 48).build(), OF13, "cookie", "48 bits");
    }

    @Test
    void unknownFieldsAndBadNamesAreNamed() {
        refused(flow().match("ip_dst", "10.0.0.1").build(), OF13, "unknown match field 'ip_dst'");
        refused(FlowEntry.builder(DPID, "has space").build(), OF13, "name 'has space'");
        refused(flow().match("eth_type", "0x0800").match("dl_type", "0x0800").build(), OF13, "eth_type is given twice");
        refused(flow().match("eth_dst", "00:00:00:00:00:01/00:00:00:00:00:00").build(), OF13, "selects no bit");
    }

    // ---- ports ----

    @Test
    void portsMustExistOnAConnectedSwitch() {
        accepted(flow().match("in_port", "1").apply(Action.output(3)).build(), OF13);
        refused(flow().apply(Action.output(7)).build(), OF13, "output=7", "port 7 does not exist", "[1, 2, 3]");
        refused(flow().match("in_port", "9").build(), OF13, "in_port", "port 9 does not exist");
        // Not connected: any port in range is taken on trust.
        accepted(flow().apply(Action.output(7)).build(), SwitchView.UNKNOWN);
    }

    @Test
    void reservedPortsOnlyWhereTheyMeanSomething() {
        accepted(flow().apply(Action.output(OFPort.CONTROLLER), Action.output(OFPort.IN_PORT),
                Action.output(OFPort.FLOOD), Action.output(OFPort.NORMAL), Action.output(OFPort.LOCAL)).build(), OF13);
        accepted(flow().match("in_port", "local").build(), OF13);
        refused(flow().apply(Action.output(OFPort.TABLE)).build(), OF13, "port table is only valid in packet-out");
        refused(flow().apply(Action.output(OFPort.ANY)).build(), OF13, "port any is not an output port");
        refused(flow().match("in_port", "flood").build(), OF13, "in_port", "reserved port flood");
        refused(flow().apply(Action.output(0xff00)).build(), OF10, "port 65280 is not a valid port number in OpenFlow 1.0");
    }

    // ---- versions ----

    @Test
    void openFlow10HasOneTableAndOnlyApplyActions() {
        refused(flow().table(1).build(), OF10, "table 1", "one table");
        refused(flow().write(Action.output(1)).build(), OF10, "instruction_write_actions", "requires OpenFlow 1.1");
        refused(flow().gotoTable(1).build(), OF10, "instruction_goto_table", "requires OpenFlow 1.1");
        refused(flow().apply(new Action.Group(1)).build(), OF10, "group=1", "requires OpenFlow 1.1");
        refused(flow().apply(new Action.SetQueue(1)).build(), OF10, "set_queue=1", "OpenFlow 1.0");
        refused(flow().match("eth_type", "0x86dd").match("ipv6_dst", "::1").build(), OF10,
                "ipv6_dst cannot be expressed in OpenFlow 1.0");
        refused(flow().match("eth_type", "0x0800").match("ip_ecn", "1").build(), OF10, "ip_ecn cannot be expressed");
        refused(flow().match("eth_src", "00:00:00:00:00:01/ff:ff:ff:00:00:00").build(), OF10, "eth_src cannot be masked");
        refused(flow().match("eth_type", "0x0800").apply(Action.setField("ip_ecn", "1")).build(), OF10,
                "OpenFlow 1.0 cannot set ip_ecn");
        refused(flow().flag(FlowFlag.RESET_COUNTS).build(), OF10, "flag reset_counts", "requires OpenFlow 1.3");
        accepted(flow().match("eth_type", "0x0800").match("ipv4_src", "10.0.0.0/8")
                .apply(Action.setField("ipv4_dst", "10.0.0.2"), Action.output(1)).build(), OF10);
    }

    @Test
    void tablesAndGotoTable() {
        accepted(flow().table(1).gotoTable(3).build(), OF13);
        refused(flow().table(4).build(), OF13, "table 4 does not exist", "4 tables");
        refused(flow().table(2).gotoTable(1).build(), OF13, "instruction_goto_table 1", "later table");
        refused(flow().table(1).gotoTable(9).build(), OF13, "instruction_goto_table 9 does not exist");
    }

    // ---- groups and meters ----

    @Test
    void groupAndMeterReferencesMustBeDefined() {
        EntryValidator.Definitions defs = new EntryValidator.Definitions(Set.of(5L), Set.of(7L));
        assertEquals(List.of(), EntryValidator.validate(flow().meter(7L).apply(new Action.Group(5)).build(), OF13, defs));
        refused(flow().apply(new Action.Group(6)).build(), OF13, "group=6", "group 6 is not defined");
        refused(flow().meter(8L).build(), OF13, "instruction_goto_meter 8", "meter 8 is not defined");
    }

    @Test
    void groupsNeedOpenFlow11AndWellFormedBuckets() {
        GroupEntry ok = new GroupEntry(DPID, "g", 1, GroupEntry.Type.SELECT,
                List.of(Bucket.weighted(1, Action.output(1)), Bucket.weighted(2, Action.output(2))));
        accepted(ok, OF13);
        refused(ok, OF10, "groups", "requires OpenFlow 1.1");
        refused(new GroupEntry(DPID, "g", 1, GroupEntry.Type.INDIRECT, List.of()), OF13, "indirect group has exactly one bucket");
        refused(new GroupEntry(DPID, "g", 1, GroupEntry.Type.FAST_FAILOVER, List.of(Bucket.of(Action.output(1)))), OF13,
                "bucket 0", "needs bucket_watch_port or bucket_watch_group");
        accepted(new GroupEntry(DPID, "g", 1, GroupEntry.Type.FAST_FAILOVER,
                List.of(Bucket.watching(OFPort.of(1), Action.output(1)), Bucket.watching(OFPort.of(2), Action.output(2)))), OF13);
        refused(new GroupEntry(DPID, "g", 1, GroupEntry.Type.FAST_FAILOVER,
                List.of(Bucket.watching(OFPort.of(9), Action.output(1)))), OF13, "bucket_watch_port", "port 9 does not exist");
        refused(new GroupEntry(DPID, "g", 1, GroupEntry.Type.ALL, List.of(Bucket.weighted(3, Action.output(1)))), OF13,
                "only select groups have weights");
        refused(new GroupEntry(DPID, "g", 1, GroupEntry.Type.ALL, List.of(Bucket.of(new Action.Group(1)))), OF13,
                "cannot forward to itself");
        refused(new GroupEntry(DPID, "g", 0xffffff01L, GroupEntry.Type.ALL, List.of()), OF13, "group_id");
        refused(ok, OF15, "OpenFlow 1.5 groups with more than one bucket");
    }

    @Test
    void metersNeedOpenFlow13AndSaneBands() {
        MeterEntry ok = new MeterEntry(DPID, "m", 1, Set.of(MeterEntry.Flag.KBPS), List.of(Band.drop(1000, 0)));
        accepted(ok, OF13);
        accepted(ok, OF15);
        refused(ok, OF10, "meters", "requires OpenFlow 1.3");
        refused(new MeterEntry(DPID, "m", 0, Set.of(MeterEntry.Flag.KBPS), List.of(Band.drop(1000, 0))), OF13, "meter_id 0");
        refused(new MeterEntry(DPID, "m", 1, Set.of(MeterEntry.Flag.KBPS, MeterEntry.Flag.PKTPS), List.of(Band.drop(1, 0))),
                OF13, "exactly one of kbps and pktps");
        refused(new MeterEntry(DPID, "m", 1, Set.of(MeterEntry.Flag.KBPS), List.of()), OF13, "at least one band");
        refused(new MeterEntry(DPID, "m", 1, Set.of(MeterEntry.Flag.KBPS), List.of(Band.drop(0, 0))), OF13, "band 0", "rate");
        refused(new MeterEntry(DPID, "m", 1, Set.of(MeterEntry.Flag.KBPS), List.of(Band.drop(10, 5))), OF13,
                "burst_size is used only with the burst flag");
        refused(new MeterEntry(DPID, "m", 1, Set.of(MeterEntry.Flag.KBPS), List.of(Band.dscpRemark(10, 0, 0))), OF13,
                "prec_level");
    }

    @Test
    void everyProblemIsReportedNotJustTheFirst() {
        List<String> problems = check(flow().priority(-1).match("tcp_dst", "80").match("bogus", "1")
                .apply(Action.output(OFPort.TABLE)).build());
        assertEquals(4, problems.size(), problems.toString());
    }
}
