package io.heliograph.topology.internal;

/**
 * How link discovery runs.
 *
 * @param lldpIntervalMs how often every port is probed with LLDP
 * @param linkTimeoutMs  a link not confirmed by a probe for this long is removed; longer than the
 *                       interval, so one lost probe does not drop a link
 * @param lldpMaxAgeMs   a probe older than this when it comes back is refused as a replay; it bounds
 *                       how long a captured probe stays usable, so keep it near the fabric's delay
 */
public record TopologySettings(long lldpIntervalMs, long linkTimeoutMs, long lldpMaxAgeMs) {

    public static final TopologySettings DEFAULTS = new TopologySettings(5_000, 15_000, 3_000);

    public TopologySettings {
        if (lldpIntervalMs < 100 || lldpIntervalMs > 3_600_000) {
            throw new IllegalArgumentException("lldpIntervalMs must be within 100..3600000, was " + lldpIntervalMs);
        }
        if (linkTimeoutMs <= lldpIntervalMs) {
            throw new IllegalArgumentException("linkTimeoutMs (" + linkTimeoutMs
                    + ") must be longer than lldpIntervalMs (" + lldpIntervalMs + "), or every link would flap");
        }
        if (lldpMaxAgeMs < 1 || lldpMaxAgeMs > linkTimeoutMs) {
            throw new IllegalArgumentException("lldpMaxAgeMs must be within 1..linkTimeoutMs (" + linkTimeoutMs
                    + "), was " + lldpMaxAgeMs);
        }
    }
}
