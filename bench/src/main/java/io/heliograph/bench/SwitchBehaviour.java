package io.heliograph.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How the emulated switches treat the controller's optional requests, so that a controller can be
 * tested against switches that do not answer what OpenFlow does not require (as simple switches,
 * emulators and some hardware do): statistics (multipart) requests and role requests are answered
 * (the default), answered with an OpenFlow error, or ignored, and an answer or error can be sent
 * late. The handshake's own requests are always answered at once: FEATURES, and on 1.3 the port
 * description, which is a multipart request but never one of {@link #statsTypes}.
 *
 * <p>Role requests are 1.3's ROLE_REQUEST and, on 1.0, Nicira's NXT_ROLE_REQUEST (a VENDOR message).
 * The 1.0 switch has no Nicira extension: its answer to the Nicira role request is a BAD_VENDOR
 * error, so on 1.0 {@link Reply#ANSWER} and {@link Reply#ERROR} both send that error. On 1.3 the
 * answer grants the role asked and the error is ROLE_REQUEST_FAILED/UNSUP. A statistics error is
 * BAD_REQUEST/BAD_STAT (1.3 calls the same code BAD_MULTIPART): the switch does not support it.
 *
 * @param stats        what the switch does with a statistics request of one of {@code statsTypes}
 * @param statsTypes   the statistics types {@code stats} and {@code statsDelayMs} apply to; any other
 *                     type is answered at once
 * @param statsDelayMs how late the answer or error to such a request is sent (0: at once)
 * @param role         what the switch does with a role request
 * @param roleDelayMs  how late the answer or error to a role request is sent (0: at once)
 */
public record SwitchBehaviour(Reply stats, Set<StatsType> statsTypes, int statsDelayMs, Reply role, int roleDelayMs) {

    /** Every request answered at once, as before these options existed. */
    static final SwitchBehaviour DEFAULT = new SwitchBehaviour(Reply.ANSWER, StatsType.ALL, 0, Reply.ANSWER, 0);

    /** What a switch does with a request. */
    public enum Reply {
        /** The answer the switch has (for a 1.0 Nicira role request: BAD_VENDOR). */
        ANSWER,
        /** An OpenFlow error: the switch does not support the request. */
        ERROR,
        /** Nothing, ever. */
        IGNORE;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The statistics types (multipart types on 1.3) a behaviour can apply to, by their wire number,
     * which both versions share. PORT_DESC is missing on purpose: on 1.3 it is part of the handshake.
     */
    public enum StatsType {
        DESC(SwitchMessages.STATS_DESC),
        FLOW(SwitchMessages.STATS_FLOW),
        AGGREGATE(SwitchMessages.STATS_AGGREGATE),
        TABLE(SwitchMessages.STATS_TABLE),
        PORT(SwitchMessages.STATS_PORT),
        QUEUE(SwitchMessages.STATS_QUEUE),
        GROUP(SwitchMessages.STATS_GROUP),
        GROUP_DESC(SwitchMessages.STATS_GROUP_DESC),
        GROUP_FEATURES(8),
        METER(SwitchMessages.STATS_METER),
        METER_CONFIG(SwitchMessages.STATS_METER_CONFIG),
        METER_FEATURES(11),
        TABLE_FEATURES(SwitchMessages.STATS_TABLE_FEATURES);

        /**
         * What {@code all} means: every type but DESC, which a switch describing itself answers even
         * when it answers no counters (name {@code desc} to have it treated the same way).
         */
        static final Set<StatsType> ALL = Collections.unmodifiableSet(EnumSet.complementOf(EnumSet.of(DESC)));

        private final int wire;

        StatsType(int wire) {
            this.wire = wire;
        }

        /** The name on the command line: {@code group-desc}. */
        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static StatsType ofLabel(String label) {
            for (StatsType t : values()) {
                if (t.label().equals(label)) {
                    return t;
                }
            }
            return null;
        }
    }

    public SwitchBehaviour {
        statsTypes = statsTypes.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(statsTypes));
        if (statsDelayMs < 0 || roleDelayMs < 0) {
            throw new IllegalArgumentException("a delay is 0 ms or more");
        }
    }

    /** Whether {@link #stats} applies to a request of this wire statistics type. */
    boolean appliesToStats(int wireType) {
        for (StatsType t : statsTypes) {
            if (t.wire == wireType) {
                return true;
            }
        }
        return false;
    }

    /** The lines {@link BenchOptions#describe()} adds: none when every request is answered at once. */
    List<String> describe() {
        List<String> lines = new ArrayList<>();
        if (stats != Reply.ANSWER || statsDelayMs > 0) {
            lines.add("   statistics requests (" + String.join(",", statsTypes.stream().map(StatsType::label).toList())
                    + "): " + treatment(stats, statsDelayMs));
        }
        if (role != Reply.ANSWER || roleDelayMs > 0) {
            lines.add("   role requests: " + treatment(role, roleDelayMs));
        }
        return lines;
    }

    private static String treatment(Reply reply, int delayMs) {
        String what = switch (reply) {
            case ANSWER -> "answered";
            case ERROR -> "refused with an OpenFlow error";
            case IGNORE -> "ignored";
        };
        return delayMs > 0 ? what + " " + delayMs + " ms late" : what;
    }

    /**
     * Parses {@code --stats-types}: {@code all} (every type but desc), {@code all,desc}, or names
     * such as {@code flow,port,table}.
     */
    static Set<StatsType> parseStatsTypes(String shown, String value) throws BenchOptions.UsageException {
        Set<StatsType> types = EnumSet.noneOf(StatsType.class);
        for (String part : value.split(",", -1)) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (name.equals("all")) {
                types.addAll(StatsType.ALL);
                continue;
            }
            if (name.equals("port-desc")) {
                throw new BenchOptions.UsageException(shown + ": port-desc is part of the OpenFlow 1.3 handshake and is"
                        + " always answered");
            }
            StatsType type = StatsType.ofLabel(name);
            if (type == null) {
                throw new BenchOptions.UsageException(shown + " takes all or statistics types separated by commas ("
                        + String.join(", ", Arrays.stream(StatsType.values()).map(StatsType::label).toList())
                        + "), got '" + part + "'");
            }
            types.add(type);
        }
        return types;
    }

    static Reply parseReply(String shown, String value) throws BenchOptions.UsageException {
        for (Reply r : Reply.values()) {
            if (r.label().equals(value.trim().toLowerCase(Locale.ROOT))) {
                return r;
            }
        }
        throw new BenchOptions.UsageException(shown + " takes answer, error or ignore, got '" + value + "'");
    }
}
