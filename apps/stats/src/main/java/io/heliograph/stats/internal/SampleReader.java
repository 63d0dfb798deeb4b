package io.heliograph.stats.internal;

import java.time.Instant;

import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.stat.Stat;
import org.projectfloodlight.openflow.protocol.stat.StatField;
import org.projectfloodlight.openflow.types.U64;

/** Reads the counters of Loxi statistics entries, whatever their version says them in. */
final class SampleReader {

    /** Port counter order in a port sample. */
    static final int RX_BYTES = 0;
    static final int TX_BYTES = 1;
    static final int RX_PACKETS = 2;
    static final int TX_PACKETS = 3;

    /** Flow counter order in a flow sample. */
    static final int BYTES = 0;
    static final int PACKETS = 1;

    private SampleReader() {
    }

    /** Port stats carry a duration from 1.3 on; 1.0 ports are timed by receive times. */
    static CounterSample port(OFPortStatsEntry entry, long receivedNanos, Instant receivedAt) {
        long[] counters = {entry.getRxBytes().getValue(), entry.getTxBytes().getValue(),
            entry.getRxPackets().getValue(), entry.getTxPackets().getValue()};
        if (entry.getVersion().compareTo(OFVersion.OF_13) < 0) {
            return CounterSample.untimed(receivedNanos, receivedAt, counters);
        }
        return CounterSample.of(receivedNanos, receivedAt, entry.getDurationSec(), entry.getDurationNsec(), counters);
    }

    /** Flow stats say their counters and duration in fixed fields up to 1.4, and as OXS fields from 1.5. */
    static CounterSample flow(OFFlowStatsEntry entry, long receivedNanos, Instant receivedAt) {
        if (entry.getVersion().compareTo(OFVersion.OF_15) < 0) {
            return CounterSample.of(receivedNanos, receivedAt, entry.getDurationSec(), entry.getDurationNsec(),
                    entry.getByteCount().getValue(), entry.getPacketCount().getValue());
        }
        Stat stats = entry.getStats();
        long bytes = field(stats, StatField.BYTE_COUNT);
        long packets = field(stats, StatField.PACKET_COUNT);
        if (!stats.supports(StatField.DURATION) || stats.get(StatField.DURATION) == null) {
            return CounterSample.untimed(receivedNanos, receivedAt, bytes, packets);
        }
        // OXS duration: seconds in the upper 32 bits, nanoseconds in the lower 32.
        long duration = stats.get(StatField.DURATION).getValue();
        return CounterSample.of(receivedNanos, receivedAt, duration >>> 32, duration & 0xffff_ffffL, bytes, packets);
    }

    /** The byte count of a flow entry, any version (for display). */
    static long flowBytes(OFFlowStatsEntry entry) {
        return entry.getVersion().compareTo(OFVersion.OF_15) < 0 ? entry.getByteCount().getValue()
                : field(entry.getStats(), StatField.BYTE_COUNT);
    }

    /** The packet count of a flow entry, any version (for display). */
    static long flowPackets(OFFlowStatsEntry entry) {
        return entry.getVersion().compareTo(OFVersion.OF_15) < 0 ? entry.getPacketCount().getValue()
                : field(entry.getStats(), StatField.PACKET_COUNT);
    }

    /** Seconds the flow entry has existed, any version (for display). */
    static long flowDurationSeconds(OFFlowStatsEntry entry) {
        if (entry.getVersion().compareTo(OFVersion.OF_15) < 0) {
            return entry.getDurationSec();
        }
        Stat stats = entry.getStats();
        return stats.supports(StatField.DURATION) && stats.get(StatField.DURATION) != null
                ? stats.get(StatField.DURATION).getValue() >>> 32 : 0;
    }

    private static long field(Stat stats, StatField<U64> field) {
        if (!stats.supports(field)) {
            return CounterSample.UNAVAILABLE;
        }
        U64 value = stats.get(field);
        return value == null ? CounterSample.UNAVAILABLE : value.getValue();
    }
}
