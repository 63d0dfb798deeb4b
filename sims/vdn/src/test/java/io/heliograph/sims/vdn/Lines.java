package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;

/** The tests' smallest overlay: one source, reflector and edge in a line, and groups under the edge. */
final class Lines {

    private Lines() {
    }

    /**
     * s0 -> r0 ({@code sourceKbps}, cost 10) -> e0 (10,000 kbit/s, {@code reflectorCost}) -> g0, g1, ...
     * (10,000 kbit/s each, at {@code groupCosts}).
     */
    static Topology line(long sourceKbps, double reflectorCost, double... groupCosts) {
        Topology.Builder builder = Topology.builder()
                .node("s0", Tier.SOURCE, 0, 0).node("r0", Tier.REFLECTOR, 0, 0).node("e0", Tier.EDGE, 0, 0);
        for (int i = 0; i < groupCosts.length; i++) {
            builder.node("g" + i, Tier.CLIENT_GROUP, 0, 0);
        }
        builder.link("s0", "r0", sourceKbps, 10).link("r0", "e0", 10_000, reflectorCost);
        for (int i = 0; i < groupCosts.length; i++) {
            builder.link("e0", "g" + i, 10_000, groupCosts[i]);
        }
        return builder.build();
    }
}
