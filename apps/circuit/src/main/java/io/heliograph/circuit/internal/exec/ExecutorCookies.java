package io.heliograph.circuit.internal.exec;

import org.projectfloodlight.openflow.types.U64;

/**
 * The cookies of the flow entries a {@link ScheduleExecutor} writes, so that it (after a restart too)
 * deletes exactly its own entries with one cookie-masked delete, and so that the VOQ estimator reads
 * each rack pair's byte counter from the ToRs.
 *
 * <pre>
 *  63            48 47      40 39      32 31            16 15             0
 * +----------------+----------+----------+----------------+----------------+
 * |  0xC1C0 (tag)  |   kind   |    0     |   source rack  |   dest rack    |
 * +----------------+----------+----------+----------------+----------------+
 * </pre>
 * Kind {@value #CIRCUIT}: a circuit switch entry (source rack = the input's rack, destination 0xFFFF,
 * since a day's change of output modifies the entry in place). Kind {@value #PAIR}: a ToR entry sending
 * the source rack's traffic for the destination rack out of its packet or circuit uplink; it is modified
 * in place when the pair's circuit comes and goes, so its counters are the pair's bytes over both paths
 * since the executor first installed it.
 */
public final class ExecutorCookies {

    /** Every executor entry has this in bits 63 to 48. */
    public static final long TAG = 0xC1C0L << 48;
    /** Selects the tag: with {@link #TAG}, every entry any executor wrote. */
    public static final long TAG_MASK = 0xFFFFL << 48;
    /** Selects the tag and the kind. */
    public static final long KIND_MASK = 0xFFFFFFL << 40;
    /** Selects everything: one entry's cookie. */
    public static final long EXACT_MASK = -1L;

    public static final int CIRCUIT = 1;
    public static final int PAIR = 2;

    private static final int NO_RACK = 0xFFFF;

    private ExecutorCookies() {
    }

    /** The circuit switch's entry for the input of rack {@code src}. */
    public static long circuit(int src) {
        return TAG | (long) CIRCUIT << 40 | rack(src) << 16 | NO_RACK;
    }

    /** The ToR entries of the pair: every entry on {@code src}'s ToR for the hosts of rack {@code dst}. */
    public static long pair(int src, int dst) {
        return TAG | (long) PAIR << 40 | rack(src) << 16 | rack(dst);
    }

    /** With {@link #KIND_MASK}: every ToR pair entry. */
    public static long allPairs() {
        return TAG | (long) PAIR << 40;
    }

    /** With {@link #KIND_MASK}: every circuit switch entry. */
    public static long allCircuits() {
        return TAG | (long) CIRCUIT << 40;
    }

    public static boolean isPair(long cookie) {
        return (cookie & KIND_MASK) == allPairs();
    }

    public static boolean isCircuit(long cookie) {
        return (cookie & KIND_MASK) == allCircuits();
    }

    /** The rack pair of a ToR pair entry's cookie. */
    public static RackPair pairOf(long cookie) {
        if (!isPair(cookie)) {
            throw new IllegalArgumentException(String.format("0x%016x is not a rack pair's cookie", cookie));
        }
        return new RackPair((int) (cookie >>> 16 & 0xFFFF), (int) (cookie & 0xFFFF));
    }

    static U64 u64(long cookie) {
        return U64.of(cookie);
    }

    private static long rack(int r) {
        if (r < 0 || r >= NO_RACK) {
            throw new IllegalArgumentException("rack " + r + " does not fit a cookie (0 to 65534)");
        }
        return r;
    }
}
