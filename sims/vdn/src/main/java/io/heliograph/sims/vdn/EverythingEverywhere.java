package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Node;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TreeOptimiser;
import java.time.Duration;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * EE, Everything Everywhere (§4.7): every object requested in the window goes to every reflector and
 * every edge, each over its cheapest in-link, and each group takes it from its nearest edge. Capacity is
 * ignored, so links overload; {@link Delivery} measures what they deliver.
 */
public final class EverythingEverywhere implements TreeOptimiser {

    @Override
    public String name() {
        return "EE";
    }

    @Override
    public Distribution optimise(Problem problem) {
        long start = System.nanoTime();
        Topology topology = problem.topology();
        BitSet everywhere = new BitSet();
        for (Tier tier : List.of(Tier.REFLECTOR, Tier.EDGE)) {
            for (Node node : topology.tier(tier)) {
                topology.in(node.id()).stream().min(Comparator.comparingDouble(Link::cost).thenComparingInt(Link::index))
                        .ifPresent(link -> everywhere.set(link.index()));
            }
        }
        Map<String, BitSet> serves = new LinkedHashMap<>();
        for (String key : problem.objects().keySet()) {
            serves.put(key, (BitSet) everywhere.clone());
        }
        for (Request request : problem.requests()) {
            Node group = topology.node(request.clientGroup()).orElseThrow();
            topology.in(group.id()).stream()
                    .min(Comparator.comparingDouble((Link l) -> topology.node(l.from()).orElseThrow().distanceTo(group))
                            .thenComparingInt(Link::index))
                    .ifPresent(link -> serves.get(request.object().key()).set(link.index()));
        }
        return new Distribution(problem, serves, name(), Double.NaN, Duration.ofNanos(System.nanoTime() - start));
    }
}
