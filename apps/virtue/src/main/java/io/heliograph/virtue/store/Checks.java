package io.heliograph.virtue.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;

/**
 * The checks every stored value passes before it is queued, so that a write the database would refuse
 * (too long, not a number) is refused to its caller instead, and never blocks the recorder's queue.
 */
final class Checks {

    static final int EXPERIMENT_ID = 40;
    static final int NAME = 200;
    static final int STATE = 16;
    static final int LINK_ID = 200;
    static final int VM_ID = 100;
    static final int DPID = 32;
    static final int METRIC = 100;

    private Checks() {
    }

    static String id(String what, String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " is missing");
        }
        if (value.length() > maxLength) {
            throw new IllegalArgumentException(what + " is longer than " + maxLength + " characters: " + value);
        }
        return value;
    }

    static double rate(String what, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(what + " must be a finite rate of 0 or more, not " + value);
        }
        return value;
    }

    static double finite(String what, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(what + " must be a finite number, not " + value);
        }
        return value;
    }

    /** Stored as epoch milliseconds: what is read back equals what was given. */
    static Instant millis(String what, Instant at) {
        return Objects.requireNonNull(at, what).truncatedTo(ChronoUnit.MILLIS);
    }

    static <K, V> Map<K, V> copy(String what, Map<K, V> map) {
        return map == null ? Map.of() : Map.copyOf(map);
    }
}
