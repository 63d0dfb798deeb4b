package io.heliograph.virtue.live;

import static io.heliograph.virtue.live.VlanRoutingTest.CORE;
import static io.heliograph.virtue.live.VlanRoutingTest.S1;
import static io.heliograph.virtue.live.VlanRoutingTest.S2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;
import io.heliograph.stats.SwitchStatistics;
import io.heliograph.stats.TrafficMatrix;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.InvalidInputException;
import io.heliograph.virtue.live.NetworkSample.LinkRate;
import io.heliograph.virtue.live.NetworkSample.PairRate;
import io.heliograph.virtue.live.NetworkSample.VmRate;

class NetworkSamplerTest {

    private static final double M = 1e6;
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final U64 STATIC_COOKIE = U64.of(0x5346L << 48);

    /** The routing test's tree, with a fourth VM on h2 (port 3) that no route uses. */
    private static Edf tree() {
        return new TestEdf().sw(S1, true).sw(S2, true).sw(CORE, false)
                .pm("h1", S1, "v1", 2, "v2", 3).pm("h2", S2, "v3", 2, "v4", 3)
                .cable(S1, 1, CORE, 1, null).cable(S2, 1, CORE, 2, "1000000000")
                .route("v1", S1, CORE, S2, "v3").route("v3", S2, CORE, S1, "v1")
                .route("v2", S1, CORE, S2, "v3").route("v1", S1, "v2")
                .build();
    }

    private static MacAddress mac(int n) {
        return MacAddress.of(String.format("02:00:00:00:00:%02x", n));
    }

    private static Match match(OFVersion version, int inPort, int source, int destination) {
        return OFFactories.getFactory(version).buildMatch().setExact(MatchField.IN_PORT, OFPort.of(inPort))
                .setExact(MatchField.ETH_SRC, mac(source)).setExact(MatchField.ETH_DST, mac(destination)).build();
    }

    @Test
    void linksAreReadFromThePortsTheyLeaveOrEnterAndTheTrafficMatrixFromTheSourceEntries() {
        Edf edf = tree();
        RoutePlan plan = new VlanRouting().plan(edf, "e1");
        KnownRates stats = new KnownRates()
                .port(S1, 2, 50 * M, 20 * M, NOW).port(S1, 3, 10 * M, 0, NOW).port(S1, 1, 20 * M, 60 * M, NOW)
                .port(CORE, 1, 60 * M, 20 * M, NOW).port(CORE, 2, 20 * M, 60 * M, NOW).port(S2, 1, 60 * M, 20 * M, NOW);
        // S2 (v3's and v4's ports, and the v3->v1 source entry) has not been polled twice yet.
        Match v1v2 = match(OFVersion.OF_13, 2, 1, 2);
        Match v1v3WithEthType = OFFactories.getFactory(OFVersion.OF_13).buildMatch()
                .setExact(MatchField.IN_PORT, OFPort.of(2)).setExact(MatchField.ETH_SRC, mac(1))
                .setExact(MatchField.ETH_DST, mac(3)).setExact(MatchField.ETH_TYPE, EthType.IPv4).build();
        stats.flow(S1, new FlowKey(TableId.of(0), 100, v1v2, STATIC_COOKIE), 99 * M, NOW) // another priority
                .flow(S1, new FlowKey(TableId.of(1), 40000, v1v2, STATIC_COOKIE), 55 * M, NOW) // another table
                .flow(S1, new FlowKey(TableId.of(0), 40000, v1v3WithEthType, U64.ZERO), 77 * M, NOW) // a narrower match
                .flow(S1, new FlowKey(TableId.of(0), 40000, match(OFVersion.OF_13, 2, 1, 3), STATIC_COOKIE), 40 * M, NOW)
                // the same entry as an OpenFlow 1.0 switch reports it
                .flow(S1, new FlowKey(TableId.of(0), 40000, match(OFVersion.OF_10, 3, 2, 3), U64.ZERO), 10 * M, NOW)
                .flow(S1, new FlowKey(TableId.of(0), 40000, v1v2, STATIC_COOKIE), 10 * M, NOW);

        NetworkSample sample = new NetworkSampler(edf, plan).sample(stats);

        assertEquals(List.of(
                new LinkRate("v1:0->" + S1 + ":2", "v1", 0, S1, 2, 50 * M, 200 * M, 0.25),
                new LinkRate(S1 + ":2->v1:0", S1, 2, "v1", 0, 20 * M, 200 * M, 0.1),
                new LinkRate("v2:0->" + S1 + ":3", "v2", 0, S1, 3, 10 * M, 200 * M, 0.05),
                new LinkRate(S1 + ":3->v2:0", S1, 3, "v2", 0, 0.0, 200 * M, 0.0),
                new LinkRate("v3:0->" + S2 + ":2", "v3", 0, S2, 2, null, 200 * M, null),
                new LinkRate(S2 + ":2->v3:0", S2, 2, "v3", 0, null, 200 * M, null),
                new LinkRate("v4:0->" + S2 + ":3", "v4", 0, S2, 3, null, 200 * M, null),
                new LinkRate(S2 + ":3->v4:0", S2, 3, "v4", 0, null, 200 * M, null),
                new LinkRate(S1 + ":1->" + CORE + ":1", S1, 1, CORE, 1, 60 * M, 100 * M, 0.6),
                new LinkRate(CORE + ":1->" + S1 + ":1", CORE, 1, S1, 1, 20 * M, 100 * M, 0.2),
                new LinkRate(S2 + ":1->" + CORE + ":2", S2, 1, CORE, 2, 20 * M, 1000 * M, 0.02),
                new LinkRate(CORE + ":2->" + S2 + ":1", CORE, 2, S2, 1, 60 * M, 1000 * M, 0.06)),
                sample.links());
        assertEquals(List.of(new PairRate("v1", "v3", 40 * M), new PairRate("v3", "v1", null),
                new PairRate("v2", "v3", 10 * M), new PairRate("v1", "v2", 10 * M)), sample.traffic());
        assertEquals(List.of(
                new VmRate("v1", "h1", 50 * M, 20 * M, 50 * M, null), // received from v3: unknown
                new VmRate("v2", "h1", 10 * M, 0.0, 10 * M, 10 * M),
                new VmRate("v3", "h2", null, null, null, 50 * M),
                new VmRate("v4", "h2", null, null, 0.0, 0.0)), // in no route: nothing to count, nothing missing
                sample.vms());
    }

    @Test
    void ratesOlderThanTheRoundAllowsAreMissing() {
        Edf edf = tree();
        RoutePlan plan = new VlanRouting().plan(edf, "e1");
        Instant old = NOW.minusSeconds(30);
        KnownRates stats = new KnownRates().port(S1, 2, 50 * M, 20 * M, NOW).port(S1, 1, 20 * M, 60 * M, old)
                .flow(S1, new FlowKey(TableId.of(0), 40000, match(OFVersion.OF_13, 2, 1, 3), STATIC_COOKIE), 40 * M, old)
                .flow(S1, new FlowKey(TableId.of(0), 40000, match(OFVersion.OF_13, 2, 1, 2), STATIC_COOKIE), 5 * M, NOW);
        NetworkSampler sampler = new NetworkSampler(edf, plan);

        NetworkSample recent = sampler.sample(stats, NOW.minusSeconds(10));
        assertEquals(50 * M, link(recent, "v1:0->" + S1 + ":2").bitsPerSecond());
        assertNull(link(recent, S1 + ":1->" + CORE + ":1").bitsPerSecond());
        assertNull(link(recent, S1 + ":1->" + CORE + ":1").utilisation());
        assertEquals(List.of(new PairRate("v1", "v3", null), new PairRate("v3", "v1", null),
                new PairRate("v2", "v3", null), new PairRate("v1", "v2", 5 * M)), recent.traffic());

        NetworkSample any = sampler.sample(stats);
        assertEquals(60 * M, link(any, S1 + ":1->" + CORE + ":1").bitsPerSecond());
        assertEquals(40 * M, any.traffic().get(0).bitsPerSecond());
    }

    @Test
    void capacitiesFollowTheEdfsRuleForAppendixB() {
        Edf edf = VlanRoutingTest.appendixB();
        NetworkSample sample = new NetworkSampler(edf, new VlanRouting().plan(edf, "e1")).sample(new KnownRates());
        // the first physical pair says 10 Mb/s, the second 100 Mb/s; the VMs' links take INTRA_PM_LINK_SPEED
        assertEquals(List.of(10 * M, 10 * M, 100 * M, 100 * M, 200 * M, 200 * M, 200 * M, 200 * M, 200 * M, 200 * M),
                sample.links().stream().map(LinkRate::capacity).toList());
        sample.links().forEach(l -> assertNull(l.bitsPerSecond(), l.id()));
        sample.traffic().forEach(t -> assertNull(t.bitsPerSecond(), t.toString()));
        assertEquals(4, sample.traffic().size());

        // without INTRA_PM_LINK_SPEED a VM's link takes the EDF's LINK_SPEED, as every other link does
        Map<String, String> parameters = new HashMap<>(edf.parameters());
        parameters.remove(Edf.INTRA_PM_LINK_SPEED);
        Edf plain = new Edf(parameters, edf.pms(), edf.switches(), edf.links(), edf.routes());
        assertEquals(List.of(10 * M, 10 * M, 100 * M, 100 * M, 100 * M, 100 * M, 100 * M, 100 * M, 100 * M, 100 * M),
                new NetworkSampler(plain, new VlanRouting().plan(plain, "e1")).sample(new KnownRates()).links().stream()
                        .map(LinkRate::capacity).toList());
    }

    @Test
    void aLinkOnAnUnparsableSwitchIdIsRefusedAtItsPath() {
        Edf edf = new TestEdf().sw("not-a-dpid", true).pm("h1", "not-a-dpid", "v1", 2).build();
        RoutePlan empty = new RoutePlan("e1", List.of(), Map.of(), Map.of(), List.of());
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> new NetworkSampler(edf, empty));
        assertEquals(List.of("$.links[0].destinationId", "$.links[1].sourceId"),
                e.problems().stream().map(p -> p.path()).toList());
    }

    private static LinkRate link(NetworkSample sample, String id) {
        return sample.links().stream().filter(l -> l.id().equals(id)).findFirst().orElseThrow();
    }

    /** A statistics service with known rates, and nothing for whatever it was not told. */
    static final class KnownRates implements StatisticsService {

        private final Map<SwitchPort, PortRate> ports = new HashMap<>();
        private final Map<DatapathId, List<FlowRate>> flows = new HashMap<>();

        KnownRates port(String sw, int port, double rx, double tx, Instant at) {
            SwitchPort where = SwitchPort.of(DatapathId.of(sw), OFPort.of(port));
            ports.put(where, new PortRate(where, at, rx, tx, rx / 8000, tx / 8000));
            return this;
        }

        KnownRates flow(String sw, FlowKey key, double bits, Instant at) {
            DatapathId dpid = DatapathId.of(sw);
            flows.computeIfAbsent(dpid, d -> new ArrayList<>()).add(new FlowRate(dpid, key, at, bits, bits / 8000));
            return this;
        }

        @Override
        public PortRate getPortRate(SwitchPort port) {
            return ports.get(port);
        }

        @Override
        public List<PortRate> getPortRateHistory(SwitchPort port) {
            throw new AssertionError("a round reads only the latest rates");
        }

        @Override
        public List<PortRate> getPortRates(DatapathId dpid) {
            return ports.values().stream().filter(p -> p.port().dpid().equals(dpid)).toList();
        }

        @Override
        public List<FlowRate> getFlowRates(DatapathId dpid) {
            return flows.getOrDefault(dpid, List.of());
        }

        @Override
        public List<FlowRate> getFlowRateHistory(DatapathId dpid, FlowKey flow) {
            throw new AssertionError("a round reads only the latest rates");
        }

        @Override
        public SwitchStatistics getSwitchStatistics(DatapathId dpid) {
            throw new AssertionError("a round reads rates, not raw statistics");
        }

        @Override
        public TrafficMatrix getTrafficMatrix() {
            throw new AssertionError("the traffic matrix comes from the experiment's own entries");
        }
    }
}
