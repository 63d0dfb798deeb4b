package io.heliograph.circuit.internal;

import java.time.Instant;

import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;

import io.heliograph.circuit.internal.exec.ExecutorCookies;
import io.heliograph.circuit.internal.exec.Fabric;
import io.heliograph.circuit.internal.exec.RackPair;
import io.heliograph.stats.StatisticsService;
import io.heliograph.stats.SwitchStatistics;

/**
 * Cumulative bytes per rack pair from the statistics app's latest flow statistics of the ToRs, for the
 * VOQ estimator's counters: the executor's pair entries on rack r's ToR (cookie
 * {@link ExecutorCookies#pair}(r, d), one per prefix of d's hosts, modified in place as the pair moves
 * between uplinks, so their counters only grow) add their bytes to (r, d). Other entries are not the
 * executor's and are not counted. The instant is the oldest of the ToRs' samples.
 */
final class VoqCounters {

    record Sample(long[][] bytes, Instant at) {
    }

    private VoqCounters() {
    }

    /** The counters now; null when a ToR has no flow statistics yet. */
    static Sample read(StatisticsService statistics, Fabric fabric, int racks) {
        long[][] bytes = new long[racks][racks];
        Instant oldest = null;
        for (int r = 0; r < racks && r < fabric.racks().size(); r++) {
            SwitchStatistics stats = statistics.getSwitchStatistics(fabric.racks().get(r).tor());
            if (stats == null || !stats.flows().isPresent()) {
                return null;
            }
            Instant at = stats.flows().receivedAt();
            oldest = oldest == null || at.isBefore(oldest) ? at : oldest;
            for (OFFlowStatsEntry entry : stats.flows().entries()) {
                long cookie = entry.getCookie().getValue();
                if (!ExecutorCookies.isPair(cookie)) {
                    continue;
                }
                RackPair pair = ExecutorCookies.pairOf(cookie);
                if (pair.src() == r && pair.dst() < racks && pair.dst() != r) {
                    bytes[r][pair.dst()] += Math.max(0, entry.getByteCount().getValue());
                }
            }
        }
        return oldest == null ? null : new Sample(bytes, oldest);
    }
}
