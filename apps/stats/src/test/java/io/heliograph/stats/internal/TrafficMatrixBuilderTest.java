package io.heliograph.stats.internal;

import static io.heliograph.stats.internal.Flows.ip;
import static io.heliograph.stats.internal.Flows.ips;
import static io.heliograph.stats.internal.Flows.mac;
import static io.heliograph.stats.internal.Flows.macs;
import static io.heliograph.stats.internal.Flows.rate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.OFVlanVidMatch;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.HostPair;
import io.heliograph.stats.TrafficMatrix;

/**
 * Mostly a path h1 - s1 - s2 - s3 - h2: hosts on port 1 of s1 and s3, port 2 of every switch faces
 * the next switch, port 3 the previous one.
 */
class TrafficMatrixBuilderTest {

    /** Every port but 2 and 3 faces hosts. */
    private static final Predicate<SwitchPort> EDGE = port -> port.port().getPortNumber() == 1
            || port.port().getPortNumber() > 3;

    private static Map<DatapathId, Collection<FlowRate>> bySwitch(FlowRate... rates) {
        return List.of(rates).stream().collect(Collectors.groupingBy(FlowRate::dpid,
                Collectors.toCollection(ArrayList::new)));
    }

    private static TrafficMatrix build(Predicate<SwitchPort> edge, FlowRate... rates) {
        return TrafficMatrixBuilder.build(Flows.AT, bySwitch(rates), edge);
    }

    /** The forwarding app's shape: in_port + MACs on every switch of the path. */
    private static FlowRate[] pathFlows(double h1ToH2, double h2ToH1) {
        return new FlowRate[] {
            rate(1, 0, macs(1, 1, 2), h1ToH2), rate(2, 0, macs(3, 1, 2), h1ToH2), rate(3, 0, macs(3, 1, 2), h1ToH2),
            rate(3, 0, macs(1, 2, 1), h2ToH1), rate(2, 0, macs(2, 2, 1), h2ToH1), rate(1, 0, macs(2, 2, 1), h2ToH1)};
    }

    @Test
    void aPathAcrossThreeSwitchesCountsOnceWithTopology() {
        TrafficMatrix matrix = build(EDGE, pathFlows(8e6, 1e6));
        assertEquals(8e6, matrix.bitsPerSecond(mac(1), mac(2)), 1e-6);
        assertEquals(1e6, matrix.bitsPerSecond(mac(2), mac(1)), 1e-6);
        assertEquals(2, matrix.byMac().size());
        assertTrue(matrix.byIpv4().isEmpty());
    }

    @Test
    void aPathAcrossThreeSwitchesCountsOnceWithoutTopology() {
        TrafficMatrix matrix = build(null, pathFlows(8e6, 1e6));
        assertEquals(8e6, matrix.bitsPerSecond(mac(1), mac(2)), 1e-6);
        assertEquals(1e6, matrix.bitsPerSecond(mac(2), mac(1)), 1e-6);
    }

    @Test
    void ecmpSplitAcrossTwoCoresIsTheEdgeTotalNotTheSumOfAllSwitches() {
        // h1 on s1 port 1, h2 on s4 port 1; two TCP flows of the pair, one via core s2, one via core s3.
        FlowRate[] rates = {
            rate(1, 0, macs(1, 1, 2), 3e6), // s1 has one entry for the pair (MAC-keyed), 3 Mb/s in all
            rate(2, 0, macs(3, 1, 2), 1e6),
            rate(3, 0, macs(3, 1, 2), 2e6),
            rate(4, 0, macs(3, 1, 2), 3e6)};
        assertEquals(3e6, build(EDGE, rates).bitsPerSecond(mac(1), mac(2)), 1e-6);
        assertEquals(3e6, build(null, rates).bitsPerSecond(mac(1), mac(2)), 1e-6);
    }

    @Test
    void aHostSendingThroughTwoEdgeSwitchesIsTheSumOfBothIngresses() {
        // A dual-homed h1 (port 1 of s1 and port 4 of s2) sends 5 Mb/s through s1 and 2 Mb/s through s2,
        // all of it to h2 behind s3. The maximum over switches would say 7 only by luck of s3; the
        // ingress entries say it directly.
        FlowRate[] rates = {
            rate(1, 0, macs(1, 1, 2), 5e6), rate(2, 0, macs(4, 1, 2), 2e6), rate(3, 0, macs(3, 1, 2), 7e6)};
        assertEquals(7e6, build(EDGE, rates).bitsPerSecond(mac(1), mac(2)), 1e-6);
        // Without s3's entry (expired, or h2 is elsewhere) only the ingress rule gets it right.
        FlowRate[] ingressOnly = {rate(1, 0, macs(1, 1, 2), 5e6), rate(2, 0, macs(4, 1, 2), 2e6)};
        assertEquals(7e6, build(EDGE, ingressOnly).bitsPerSecond(mac(1), mac(2)), 1e-6);
        assertEquals(5e6, build(null, ingressOnly).bitsPerSecond(mac(1), mac(2)), 1e-6);
    }

    @Test
    void aMultiTablePipelineCountsEachPacketOnceOnASwitch() {
        // Table 0 counts the pair, table 1 forwards it: the same packets, counted twice on one switch.
        FlowRate[] rates = {rate(1, 0, macs(1, 1, 2), 4e6), rate(1, 1, macs(1, 1, 2), 4e6)};
        assertEquals(4e6, build(EDGE, rates).bitsPerSecond(mac(1), mac(2)), 1e-6);
        assertEquals(4e6, build(null, rates).bitsPerSecond(mac(1), mac(2)), 1e-6);
    }

    @Test
    void severalEntriesOfAPairInOneTableAreAdded() {
        // Per-VLAN entries of the same pair in one table match disjoint packets.
        var vlan7 = Flows.OF13.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(1))
                .setExact(MatchField.VLAN_VID, OFVlanVidMatch.ofVlan(7))
                .setExact(MatchField.ETH_SRC, mac(1)).setExact(MatchField.ETH_DST, mac(2)).build();
        FlowRate[] rates = {rate(1, 0, macs(1, 1, 2), 1e6), rate(1, 0, vlan7, 2e6)};
        assertEquals(3e6, build(EDGE, rates).bitsPerSecond(mac(1), mac(2)), 1e-6);
        assertEquals(3e6, build(null, rates).bitsPerSecond(mac(1), mac(2)), 1e-6);
    }

    @Test
    void flowsWithoutInPortFallBackToTheBusiestSwitchEvenWithTopology() {
        // Address-only entries (static VLAN-style routing): no way to tell the ingress, so the maximum.
        FlowRate[] rates = {rate(1, 0, macs(0, 1, 2), 6e6), rate(2, 0, macs(0, 1, 2), 6e6),
            rate(3, 0, macs(0, 1, 2), 5e6)};
        assertEquals(6e6, build(EDGE, rates).bitsPerSecond(mac(1), mac(2)), 1e-6);
    }

    @Test
    void ipv4PairsHaveTheirOwnView() {
        FlowRate[] rates = {rate(1, 0, ips(1, 2), 9e6), rate(2, 0, ips(1, 2), 9e6)};
        TrafficMatrix matrix = build(null, rates);
        assertEquals(Set.of(new HostPair<>(ip(1), ip(2))), matrix.byIpv4().keySet());
        assertEquals(9e6, matrix.bitsPerSecond(ip(1), ip(2)), 1e-6);
        assertEquals(0, matrix.bitsPerSecond(ip(2), ip(1)));
        assertTrue(matrix.byMac().isEmpty());
    }

    @Test
    void flowsThatDoNotNameBothHostsAreNotInTheMatrix() {
        var subnet = Flows.OF13.buildMatch().setExact(MatchField.ETH_TYPE, EthType.IPv4)
                .setMasked(MatchField.IPV4_SRC, IPv4Address.of("10.0.0.0"), IPv4Address.of("255.0.0.0"))
                .setExact(MatchField.IPV4_DST, ip(2)).build();
        var dstOnly = Flows.OF13.buildMatch().setExact(MatchField.ETH_DST, mac(2)).build();
        TrafficMatrix matrix = build(EDGE, rate(1, 0, subnet, 1e6), rate(1, 0, dstOnly, 1e6),
                rate(1, 0, Flows.OF13.matchWildcardAll(), 1e6));
        assertTrue(matrix.byMac().isEmpty());
        assertTrue(matrix.byIpv4().isEmpty());
    }
}
