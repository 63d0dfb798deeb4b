package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.Weights;
import java.util.Arrays;

/**
 * The operator's knobs (§4.7, Fig 4.15): how an object's priority follows its bitrate (quality:
 * priority = bitrate; balanced: 1; quantity: 1 / bitrate, each scaled so the least is 1), and the
 * weight of cost against service.
 */
public enum Priorities {
    QUALITY, BALANCED, QUANTITY;

    /** The priority of an object at {@code kbps} on a ladder; the least priority of the ladder is 1. */
    public double priority(int kbps, int[] ladderKbps) {
        int lowest = Arrays.stream(ladderKbps).min().orElse(kbps);
        int highest = Arrays.stream(ladderKbps).max().orElse(kbps);
        return switch (this) {
            case QUALITY -> (double) kbps / lowest;
            case BALANCED -> 1;
            case QUANTITY -> (double) highest / kbps;
        };
    }

    /**
     * The weights for a cost weight from 0 to 1. The objective (§4.5) adds priorities to prices times
     * kbit/s, so the cost term is scaled first: at cost weight 1, the dearest path's cost for the highest
     * bitrate is half the least priority, so serving a request is always worth its stream and cost only
     * chooses among trees that serve as much; at 0, cost is ignored.
     */
    public static Weights weights(double costWeight, Topology topology, int[] ladderKbps) {
        if (!(costWeight >= 0 && costWeight <= 1)) {
            throw new IllegalArgumentException("cost weight " + costWeight + " is not from 0 to 1");
        }
        double path = 0;
        for (Tier tier : new Tier[] {Tier.SOURCE, Tier.REFLECTOR, Tier.EDGE}) {
            double dearest = 0;
            for (var node : topology.tier(tier)) {
                for (Link link : topology.out(node.id())) {
                    dearest = Math.max(dearest, link.cost());
                }
            }
            path += dearest;
        }
        int highest = Arrays.stream(ladderKbps).max().orElse(1);
        return new Weights(1, costWeight / (2 * Math.max(path, 1e-9) * highest));
    }
}
