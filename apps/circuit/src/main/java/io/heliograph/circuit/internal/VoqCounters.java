package io.heliograph.circuit.internal;

import java.time.Instant;
import java.util.OptionalInt;

import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.IPv4Address;

import io.heliograph.circuit.engine.CircuitGroups;
import io.heliograph.circuit.internal.exec.Fabric;
import io.heliograph.stats.StatisticsService;
import io.heliograph.stats.SwitchStatistics;

/**
 * Cumulative bytes per rack pair from the statistics app's latest flow statistics of the ToRs, for the
 * VOQ estimator's counters. Read generically (until the executor names its ToR flows by cookie): on rack
 * r's ToR, every flow entry that matches an exact IPv4 destination in another rack d, and an IPv4 source
 * in rack r or none, adds its byte count to (r, d); an entry whose source is in another rack is that
 * rack's traffic passing through, and is not counted. The instant is the oldest of the ToRs' samples.
 */
final class VoqCounters {

    record Sample(long[][] bytes, Instant at) {
    }

    private VoqCounters() {
    }

    /** The counters now; null when a ToR has no flow statistics yet. */
    static Sample read(StatisticsService statistics, Fabric fabric, CircuitGroups groups) {
        int n = groups.racks();
        long[][] bytes = new long[n][n];
        Instant oldest = null;
        for (int r = 0; r < n && r < fabric.racks().size(); r++) {
            SwitchStatistics stats = statistics.getSwitchStatistics(fabric.racks().get(r).tor());
            if (stats == null || !stats.flows().isPresent()) {
                return null;
            }
            Instant at = stats.flows().receivedAt();
            oldest = oldest == null || at.isBefore(oldest) ? at : oldest;
            for (OFFlowStatsEntry entry : stats.flows().entries()) {
                int d = rack(entry.getMatch(), MatchField.IPV4_DST, groups);
                if (d < 0 || d == r) {
                    continue;
                }
                int s = rack(entry.getMatch(), MatchField.IPV4_SRC, groups);
                if (s >= 0 && s != r) {
                    continue;
                }
                bytes[r][d] += Math.max(0, entry.getByteCount().getValue());
            }
        }
        return oldest == null ? null : new Sample(bytes, oldest);
    }

    /** The rack of an exact IPv4 field, -1 when the entry has none or it is in no group. */
    private static int rack(Match match, MatchField<IPv4Address> field, CircuitGroups groups) {
        if (!match.supports(field) || !match.isExact(field)) {
            return -1;
        }
        IPv4Address address = match.get(field);
        if (address == null) {
            return -1;
        }
        OptionalInt rack = groups.rackOf(address.toString());
        return rack.isPresent() ? rack.getAsInt() : -1;
    }
}
