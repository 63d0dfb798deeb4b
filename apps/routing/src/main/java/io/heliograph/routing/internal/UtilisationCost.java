package io.heliograph.routing.internal;

import java.util.function.Function;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.PortRate;
import io.heliograph.topology.Link;

/**
 * Link cost that grows with measured load: {@code 1 + weight × utilisation}, utilisation being the
 * link's load over its capacity, capped at 1. The load is the larger of what the source port sends
 * and what the destination port receives, so either end's counters count. An idle link, or one with
 * no statistics yet, costs 1, as under hop count; a saturated one costs 1 + weight hops.
 */
final class UtilisationCost implements LinkCost {

    private final Function<SwitchPort, PortRate> rates;
    private final PortSpeeds speeds;
    private final long unknownSpeedBps;
    private final double weight;

    UtilisationCost(Function<SwitchPort, PortRate> rates, PortSpeeds speeds, long unknownSpeedBps, double weight) {
        this.rates = rates;
        this.speeds = speeds;
        this.unknownSpeedBps = unknownSpeedBps;
        this.weight = weight;
    }

    @Override
    public double cost(Link link) {
        return 1 + weight * utilisation(link);
    }

    double utilisation(Link link) {
        double load = Math.max(txBps(rates.apply(link.src())), rxBps(rates.apply(link.dst())));
        double capacity = CapacityCost.capacity(speeds, unknownSpeedBps, link);
        return Math.min(1, Math.max(0, load / capacity));
    }

    private static double txBps(PortRate rate) {
        return rate == null || !Double.isFinite(rate.txBitsPerSecond()) ? 0 : rate.txBitsPerSecond();
    }

    private static double rxBps(PortRate rate) {
        return rate == null || !Double.isFinite(rate.rxBitsPerSecond()) ? 0 : rate.rxBitsPerSecond();
    }
}
