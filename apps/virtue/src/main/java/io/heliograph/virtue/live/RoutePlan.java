package io.heliograph.virtue.live;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.staticflows.FlowEntry;
import io.heliograph.stats.FlowKey;

/**
 * The static entries that realise an experiment's routes ({@link VlanRouting}), and what a sampler
 * needs to read the traffic matrix back from them.
 *
 * @param experiment  the experiment id the entries are named after
 * @param entries     every entry, each switch's names unique; the far end of each path (delivery, then
 *                    transit) comes before the entries that send traffic into it (sources)
 * @param vlans       each PM's four VLAN ids, by PM id, in the EDF's order of PMs
 * @param pmSwitches  each PM's software switch, by PM id (the switch its VMs' links attach to)
 * @param counters    for each route (directed VM pair), in the EDF's order of routes, the entry that
 *                    counts its traffic
 */
public record RoutePlan(String experiment, List<FlowEntry> entries, Map<String, List<Integer>> vlans,
        Map<String, String> pmSwitches, List<PairCounter> counters) {

    public RoutePlan {
        Objects.requireNonNull(experiment, "experiment");
        entries = List.copyOf(entries);
        Map<String, List<Integer>> copy = new LinkedHashMap<>();
        vlans.forEach((pm, ids) -> copy.put(pm, List.copyOf(ids)));
        vlans = Collections.unmodifiableMap(copy);
        pmSwitches = Collections.unmodifiableMap(new LinkedHashMap<>(pmSwitches));
        counters = List.copyOf(counters);
    }

    /**
     * The source entry of one directed VM pair: on the source VM's switch, matching the VM's port and the
     * pair's MAC addresses at {@code priority} in {@code table}. Every packet of the pair crosses it
     * exactly once, so its byte counter is the pair's traffic.
     *
     * @param vlan the destination PM's VLAN id the pair's traffic is tagged with, or null when both VMs
     *             share a switch (nothing is tagged)
     */
    public record PairCounter(String source, String destination, DatapathId dpid, String entry, int table,
            int priority, OFPort inPort, MacAddress ethSrc, MacAddress ethDst, Integer vlan) {

        public PairCounter {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(destination, "destination");
            Objects.requireNonNull(dpid, "dpid");
            Objects.requireNonNull(entry, "entry");
            Objects.requireNonNull(inPort, "inPort");
            Objects.requireNonNull(ethSrc, "ethSrc");
            Objects.requireNonNull(ethDst, "ethDst");
        }

        /**
         * Whether a flow the statistics app polled is this entry: same table and priority, and a match of
         * exactly the in port and the two MAC addresses (however the switch's OpenFlow version writes it).
         */
        public boolean isCountedBy(FlowKey flow) {
            if (flow.table().getValue() != table || flow.priority() != priority) {
                return false;
            }
            Match match = flow.match();
            int fields = 0;
            for (MatchField<?> field : match.getMatchFields()) {
                if (field != MatchField.IN_PORT && field != MatchField.ETH_SRC && field != MatchField.ETH_DST) {
                    return false;
                }
                fields++;
            }
            return fields == 3
                    && match.isExact(MatchField.IN_PORT) && inPort.equals(match.get(MatchField.IN_PORT))
                    && match.isExact(MatchField.ETH_SRC) && ethSrc.equals(match.get(MatchField.ETH_SRC))
                    && match.isExact(MatchField.ETH_DST) && ethDst.equals(match.get(MatchField.ETH_DST));
        }
    }
}
