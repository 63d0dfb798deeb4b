package io.heliograph.stats;

import java.time.Instant;
import java.util.List;

import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupStatsEntry;
import org.projectfloodlight.openflow.protocol.OFMeterStats;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFTableStatsEntry;
import org.projectfloodlight.openflow.types.DatapathId;

/**
 * The latest raw statistics of one switch, as it reported them, every part of each multipart reply
 * joined. Each kind carries the time its reply arrived; a kind the switch's version lacks (groups and
 * meters before OpenFlow 1.3), or that it refused or has not answered yet, is {@link Sample#none()}.
 */
public record SwitchStatistics(DatapathId dpid, Sample<OFPortStatsEntry> ports, Sample<OFFlowStatsEntry> flows,
        Sample<OFTableStatsEntry> tables, Sample<OFGroupStatsEntry> groups, Sample<OFMeterStats> meters) {

    /** One kind's entries and when their reply arrived (null receivedAt: never received). */
    public record Sample<T>(Instant receivedAt, List<T> entries) {

        private static final Sample<?> NONE = new Sample<>(null, List.of());

        public Sample {
            entries = List.copyOf(entries);
        }

        /** Nothing received. */
        @SuppressWarnings("unchecked")
        public static <T> Sample<T> none() {
            return (Sample<T>) NONE;
        }

        public boolean isPresent() {
            return receivedAt != null;
        }
    }

    public static SwitchStatistics empty(DatapathId dpid) {
        return new SwitchStatistics(dpid, Sample.none(), Sample.none(), Sample.none(), Sample.none(), Sample.none());
    }
}
