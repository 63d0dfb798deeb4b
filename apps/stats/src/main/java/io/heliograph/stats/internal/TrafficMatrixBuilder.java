package io.heliograph.stats.internal;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.HostPair;
import io.heliograph.stats.TrafficMatrix;

/**
 * Derives the host-to-host traffic matrix from flow rates, counting every packet once although a
 * pair's traffic passes through several flow entries: one per switch on its path, and one per table
 * on a multi-table switch.
 *
 * <ul>
 * <li>Within one table a packet matches one entry, so the pair's entries in one table are added.</li>
 * <li>Across tables of a switch the same packet may match an entry in each, so the switch's figure is
 * the largest per-table sum.</li>
 * <li>Across switches the same packet is counted on every switch of its path. When the edge ports are
 * known (topology running), the pair's traffic is what enters the network: the entries whose match
 * has an in_port on an edge port, summed over those ingress switches (a host attached at two
 * switches, or a host that moved, sends through both). Without topology, or when none of the pair's
 * entries names an edge in_port (flows that match on addresses only), it is the largest switch
 * figure: the first and last switches of a path see all of the pair's traffic and the switches in
 * between a part (ECMP splits it), so the maximum is the total, never a double count.</li>
 * </ul>
 */
final class TrafficMatrixBuilder {

    private TrafficMatrixBuilder() {
    }

    /**
     * @param flowRates the latest flow rates of every switch
     * @param edgePort  true for a port facing hosts; null when the topology is unknown
     */
    static TrafficMatrix build(Instant at, Map<DatapathId, ? extends Collection<FlowRate>> flowRates,
            Predicate<SwitchPort> edgePort) {
        return new TrafficMatrix(at,
                view(flowRates, edgePort, TrafficMatrixBuilder::macPair),
                view(flowRates, edgePort, TrafficMatrixBuilder::ipv4Pair));
    }

    private static <A> Map<HostPair<A>, Double> view(Map<DatapathId, ? extends Collection<FlowRate>> flowRates,
            Predicate<SwitchPort> edgePort, Function<Match, HostPair<A>> pairOf) {
        Map<HostPair<A>, PairLoad> loads = new HashMap<>();
        flowRates.forEach((dpid, rates) -> {
            for (FlowRate rate : rates) {
                Match match = rate.flow().match();
                HostPair<A> pair = pairOf.apply(match);
                if (pair == null) {
                    continue;
                }
                boolean ingress = edgePort != null && entersAtEdge(dpid, match, edgePort);
                loads.computeIfAbsent(pair, p -> new PairLoad())
                        .add(dpid, rate.flow().table(), ingress, rate.bitsPerSecond());
            }
        });
        Map<HostPair<A>, Double> matrix = new HashMap<>();
        loads.forEach((pair, load) -> matrix.put(pair, load.total()));
        return matrix;
    }

    private static boolean entersAtEdge(DatapathId dpid, Match match, Predicate<SwitchPort> edgePort) {
        if (!match.isExact(MatchField.IN_PORT)) {
            return false;
        }
        OFPort inPort = match.get(MatchField.IN_PORT);
        return inPort != null && edgePort.test(SwitchPort.of(dpid, inPort));
    }

    static HostPair<MacAddress> macPair(Match match) {
        if (!match.isExact(MatchField.ETH_SRC) || !match.isExact(MatchField.ETH_DST)) {
            return null;
        }
        MacAddress src = match.get(MatchField.ETH_SRC);
        MacAddress dst = match.get(MatchField.ETH_DST);
        return src == null || dst == null ? null : new HostPair<>(src, dst);
    }

    static HostPair<IPv4Address> ipv4Pair(Match match) {
        if (!match.isExact(MatchField.IPV4_SRC) || !match.isExact(MatchField.IPV4_DST)) {
            return null;
        }
        IPv4Address src = match.get(MatchField.IPV4_SRC);
        IPv4Address dst = match.get(MatchField.IPV4_DST);
        return src == null || dst == null ? null : new HostPair<>(src, dst);
    }

    /** One pair's rates, by switch and table, split into ingress entries and the rest. */
    private static final class PairLoad {
        private final Map<DatapathId, Map<TableId, Double>> ingress = new HashMap<>();
        private final Map<DatapathId, Map<TableId, Double>> all = new HashMap<>();

        void add(DatapathId dpid, TableId table, boolean atIngress, double bitsPerSecond) {
            if (atIngress) {
                ingress.computeIfAbsent(dpid, d -> new HashMap<>()).merge(table, bitsPerSecond, Double::sum);
            }
            all.computeIfAbsent(dpid, d -> new HashMap<>()).merge(table, bitsPerSecond, Double::sum);
        }

        double total() {
            if (!ingress.isEmpty()) {
                return ingress.values().stream().mapToDouble(PairLoad::busiestTable).sum();
            }
            return all.values().stream().mapToDouble(PairLoad::busiestTable).max().orElse(0);
        }

        private static double busiestTable(Map<TableId, Double> byTable) {
            return byTable.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        }
    }
}
