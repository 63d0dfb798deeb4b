package io.heliograph.stats.internal;

/**
 * Per-second rates between two samples of the same counters. Never negative: a counter that went
 * down either wrapped or was reset, and each is handled.
 */
final class Rates {

    private static final double NANOS_PER_SECOND = 1e9;
    private static final long TWO_TO_31 = 1L << 31;
    private static final long TWO_TO_32 = 1L << 32;

    private Rates() {
    }

    /**
     * The rate of each counter from {@code previous} to {@code current}, or null when no interval can
     * be timed (same instant, or clock stepped back).
     *
     * <p>The interval is the difference of the switch-reported durations when both have sub-second
     * precision: they were read together with the counters, so control-channel delays do not skew
     * the rate. Otherwise the receive times are used.
     *
     * <p>A duration that went down means the entry was re-created (a flow deleted and added again, a
     * port re-attached): its counters restarted from zero {@code current.durationNanos} ago, so the
     * rate is the current counters over that time.
     */
    static double[] between(CounterSample previous, CounterSample current) {
        boolean bothTimed = previous.hasDuration() && current.hasDuration();
        if (bothTimed && current.durationNanos() < previous.durationNanos()) {
            return sinceRestart(current);
        }
        long elapsedNanos = bothTimed && previous.durationPrecise() && current.durationPrecise()
                ? current.durationNanos() - previous.durationNanos()
                : current.receivedNanos() - previous.receivedNanos();
        if (elapsedNanos <= 0) {
            return null;
        }
        long[] before = previous.counters();
        long[] after = current.counters();
        double[] rates = new double[after.length];
        for (int i = 0; i < after.length; i++) {
            rates[i] = i >= before.length ? 0 : increase(before[i], after[i]) * NANOS_PER_SECOND / elapsedNanos;
        }
        return rates;
    }

    private static double[] sinceRestart(CounterSample current) {
        if (current.durationNanos() <= 0) {
            return null;
        }
        long[] after = current.counters();
        double[] rates = new double[after.length];
        for (int i = 0; i < after.length; i++) {
            rates[i] = after[i] == CounterSample.UNAVAILABLE ? 0
                    : unsigned(after[i]) * NANOS_PER_SECOND / current.durationNanos();
        }
        return rates;
    }

    /**
     * How much an unsigned counter grew from {@code before} to {@code after}, as a non-negative number.
     *
     * <p>A counter that went down wrapped if it was near the top of its range: switches with 32-bit
     * hardware counters wrap at 2^32 (the protocol field is 64 bits), a 64-bit counter at 2^64. From
     * anywhere lower it was reset (a switch or port restart the duration did not reveal); then the
     * current value is what was counted since, a lower bound for the interval's traffic.
     */
    static double increase(long before, long after) {
        if (before == CounterSample.UNAVAILABLE || after == CounterSample.UNAVAILABLE) {
            return 0;
        }
        if (Long.compareUnsigned(after, before) >= 0) {
            return unsigned(after - before);
        }
        boolean wasNear32BitTop = before >= TWO_TO_31 && before < TWO_TO_32;
        if (wasNear32BitTop && after < TWO_TO_32) {
            return (double) (TWO_TO_32 - before + after);
        }
        boolean wasNear64BitTop = before < 0; // unsigned value >= 2^63
        if (wasNear64BitTop) {
            return unsigned(after - before); // modulo 2^64
        }
        return unsigned(after);
    }

    private static double unsigned(long value) {
        return value >= 0 ? value : value + 0x1p64;
    }
}
