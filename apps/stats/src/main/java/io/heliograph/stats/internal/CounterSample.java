package io.heliograph.stats.internal;

import java.time.Instant;

/**
 * The counters of one port or flow entry in one poll.
 *
 * @param receivedNanos   when the reply arrived, on a monotonic clock
 * @param receivedAt      when the reply arrived, wall-clock (what rates are stamped with)
 * @param durationNanos   how long the entry had existed when the switch read its counters, or
 *                        {@link #NO_DURATION} when the switch does not say (ports before 1.3)
 * @param durationPrecise false when the switch reports whole seconds only (nanoseconds part 0), too coarse
 *                        to time a short interval with
 * @param counters        unsigned 64-bit counters (bytes, packets...); {@link #UNAVAILABLE} marks one the
 *                        switch does not keep
 */
record CounterSample(long receivedNanos, Instant receivedAt, long durationNanos, boolean durationPrecise,
        long[] counters) {

    static final long NO_DURATION = -1;

    /** OpenFlow: "counters that are not supported are set to all ones". */
    static final long UNAVAILABLE = -1L;

    /** A duration from the switch's (seconds, nanoseconds) pair. */
    static CounterSample of(long receivedNanos, Instant receivedAt, long durationSec, long durationNsec,
            long... counters) {
        return new CounterSample(receivedNanos, receivedAt, durationSec * 1_000_000_000L + durationNsec,
                durationNsec != 0, counters);
    }

    /** No duration from the switch: timed by receive times only. */
    static CounterSample untimed(long receivedNanos, Instant receivedAt, long... counters) {
        return new CounterSample(receivedNanos, receivedAt, NO_DURATION, false, counters);
    }

    boolean hasDuration() {
        return durationNanos >= 0;
    }
}
