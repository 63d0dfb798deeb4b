package io.heliograph.routing.internal;

import java.util.Objects;

import io.heliograph.routing.Metric;

/**
 * How routes are computed.
 *
 * @param defaultMetric        the metric used when a caller does not name one
 * @param maxEcmpPaths         the most equal-cost routes returned for one pair of switches
 * @param utilisationWeight    how many extra hops a saturated link costs under UTILISATION
 * @param utilisationRefreshMs how long utilisation-based costs are reused before statistics are read again
 * @param unknownSpeedMbps     the speed assumed for a link whose ports report none
 */
record RoutingSettings(Metric defaultMetric, int maxEcmpPaths, double utilisationWeight, int utilisationRefreshMs,
        long unknownSpeedMbps) {

    static final RoutingSettings DEFAULTS = new RoutingSettings(Metric.HOPS, 16, 10.0, 1000, 1000);

    RoutingSettings {
        Objects.requireNonNull(defaultMetric, "defaultMetric must be one of HOPS, CAPACITY, UTILISATION");
        check("maxEcmpPaths", maxEcmpPaths, 1, 1024);
        if (!(utilisationWeight >= 0 && utilisationWeight <= 1e6)) {
            throw new IllegalArgumentException("utilisationWeight must be within 0..1000000, was " + utilisationWeight);
        }
        check("utilisationRefreshMs", utilisationRefreshMs, 0, 3_600_000);
        check("unknownSpeedMbps", unknownSpeedMbps, 1, 1_000_000_000L);
    }

    /** Reads a metric name as configuration gives it, in any case. */
    static Metric metric(String name) {
        String trimmed = name == null ? "" : name.trim();
        for (Metric metric : Metric.values()) {
            if (metric.name().equalsIgnoreCase(trimmed)) {
                return metric;
            }
        }
        throw new IllegalArgumentException("defaultMetric must be one of HOPS, CAPACITY, UTILISATION, was '" + name
                + "'");
    }

    long unknownSpeedBps() {
        return unknownSpeedMbps * 1_000_000L;
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }
}
