package io.heliograph.stats.internal;

/**
 * How statistics are collected.
 *
 * @param intervalMs  milliseconds between polls of every switch
 * @param historySize rates kept per port and per flow
 * @param timeoutMs   milliseconds to wait for a switch's whole reply before giving up on it
 */
record StatsSettings(long intervalMs, int historySize, long timeoutMs) {

    static final StatsSettings DEFAULTS = new StatsSettings(5_000, 60, 10_000);

    StatsSettings {
        check("intervalMs", intervalMs, 100, 86_400_000);
        check("historySize", historySize, 1, 100_000);
        check("timeoutMs", timeoutMs, 100, 600_000);
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }
}
