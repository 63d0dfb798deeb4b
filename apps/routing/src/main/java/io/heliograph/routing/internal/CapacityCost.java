package io.heliograph.routing.internal;

import io.heliograph.topology.Link;

/**
 * Link cost inversely proportional to capacity, as OSPF does: a 10 Gbit/s link costs 1, a
 * 1 Gbit/s link 10, a 100 Gbit/s link 0.1. A link runs at the slower of its two ports; a link
 * whose ports report no speed is assumed to run at the configured default.
 */
final class CapacityCost implements LinkCost {

    static final double REFERENCE_BPS = 10e9;

    private final PortSpeeds speeds;
    private final long unknownSpeedBps;

    CapacityCost(PortSpeeds speeds, long unknownSpeedBps) {
        this.speeds = speeds;
        this.unknownSpeedBps = unknownSpeedBps;
    }

    @Override
    public double cost(Link link) {
        return REFERENCE_BPS / capacity(speeds, unknownSpeedBps, link);
    }

    /** The link's capacity in bits per second. */
    static long capacity(PortSpeeds speeds, long unknownSpeedBps, Link link) {
        long src = speeds.bitsPerSecond(link.src());
        long dst = speeds.bitsPerSecond(link.dst());
        if (src <= 0 && dst <= 0) {
            return unknownSpeedBps;
        }
        if (src <= 0 || dst <= 0) {
            return Math.max(src, dst);
        }
        return Math.min(src, dst);
    }
}
