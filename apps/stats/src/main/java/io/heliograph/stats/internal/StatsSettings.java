package io.heliograph.stats.internal;

/**
 * How statistics are collected.
 *
 * @param intervalMs  milliseconds between polls of every switch
 * @param historySize rates kept per port and per flow
 * @param timeoutMs   milliseconds to wait for a switch's whole reply before giving up on it
 * @param backoffMaxMs the longest wait between two requests of one kind to a switch that does not
 *                    answer them: after n unanswered requests in a row the next waits
 *                    {@code intervalMs * 2^n}, up to this (or up to intervalMs, if that is longer)
 */
record StatsSettings(long intervalMs, int historySize, long timeoutMs, long backoffMaxMs) {

    static final StatsSettings DEFAULTS = new StatsSettings(5_000, 60, 10_000, 300_000);

    StatsSettings {
        check("intervalMs", intervalMs, 100, 86_400_000);
        check("historySize", historySize, 1, 100_000);
        check("timeoutMs", timeoutMs, 100, 600_000);
        check("backoffMaxMs", backoffMaxMs, 100, 86_400_000);
    }

    /** The wait before asking again after {@code failedInARow} (at least 1) failed requests: doubling from the interval, capped. */
    long backoffMs(int failedInARow) {
        long cap = Math.max(backoffMaxMs, intervalMs); // a backoff never asks more often than the interval
        long delay = intervalMs;
        for (int i = 0; i < failedInARow && delay < cap; i++) {
            delay *= 2;
        }
        return Math.min(delay, cap);
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }
}
