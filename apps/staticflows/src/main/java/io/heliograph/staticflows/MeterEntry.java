package io.heliograph.staticflows;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;

/** A static meter (OpenFlow 1.3+): rate unit and options in {@code flags}, and its bands. */
public record MeterEntry(DatapathId dpid, String name, long meterId, Set<Flag> flags, List<Band> bands)
        implements StaticEntry {

    public MeterEntry {
        Objects.requireNonNull(dpid, "dpid");
        Objects.requireNonNull(name, "name");
        flags = flags == null || flags.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(flags));
        bands = List.copyOf(bands == null ? List.of() : bands);
    }

    @Override
    public String kind() {
        return "meter";
    }

    /** Rates in kb/s (KBPS) or packets/s (PKTPS); BURST uses the bands' burst sizes; STATS collects statistics. */
    public enum Flag {
        KBPS, PKTPS, BURST, STATS;

        public static Flag parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + s + "' is not a meter flag (kbps, pktps, burst, stats)");
            }
        }
    }

    /**
     * A band: above {@code rate}, packets are dropped (DROP) or their DSCP drop precedence is raised by
     * {@code precLevel} (DSCP_REMARK).
     */
    public record Band(Type type, long rate, long burstSize, int precLevel) {
        public Band {
            Objects.requireNonNull(type, "type");
        }

        public static Band drop(long rate, long burstSize) {
            return new Band(Type.DROP, rate, burstSize, 0);
        }

        public static Band dscpRemark(long rate, long burstSize, int precLevel) {
            return new Band(Type.DSCP_REMARK, rate, burstSize, precLevel);
        }

        public enum Type {
            DROP, DSCP_REMARK;

            public static Type parse(String s) {
                try {
                    return valueOf(s.trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("'" + s + "' is not a meter band type (drop, dscp_remark)");
                }
            }
        }

        @Override
        public String toString() {
            return type.name().toLowerCase(Locale.ROOT) + ":rate=" + rate + (burstSize != 0 ? ",burst_size=" + burstSize : "")
                    + (type == Type.DSCP_REMARK ? ",prec_level=" + precLevel : "");
        }
    }

    @Override
    public String toString() {
        return "meter " + name + " meter_id=" + meterId + " flags=" + flags + " bands=" + bands;
    }
}
