package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TreeOptimiser;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for VDN's optimiser in the tests, until the real one is merged: each request in turn, along
 * the cheapest source-reflector-edge-group path with room, where a link already carrying the object costs
 * nothing and needs no room. Always feasible.
 */
final class CheapestPaths implements TreeOptimiser {

    @Override
    public String name() {
        return "cheapest-paths";
    }

    @Override
    public Distribution optimise(Problem problem) {
        Topology topology = problem.topology();
        long[] left = topology.links().stream().mapToLong(Link::capacityKbps).toArray();
        Map<String, BitSet> serves = new HashMap<>();
        for (Request request : problem.requests()) {
            String key = request.object().key();
            int bitrate = request.object().bitrateKbps();
            BitSet carrying = serves.computeIfAbsent(key, k -> new BitSet());
            double best = Double.POSITIVE_INFINITY;
            List<Link> bestPath = null;
            for (Link toGroup : topology.in(request.clientGroup())) {
                for (Link toEdge : topology.in(toGroup.from())) {
                    for (Link toReflector : topology.in(toEdge.from())) {
                        List<Link> path = needed(topology, carrying, List.of(toGroup, toEdge, toReflector));
                        double cost = 0;
                        for (Link link : path) {
                            cost = left[link.index()] < bitrate ? Double.POSITIVE_INFINITY : cost + link.cost() * bitrate;
                        }
                        if (cost < best) {
                            best = cost;
                            bestPath = path;
                        }
                    }
                }
            }
            if (bestPath == null) {
                continue;
            }
            for (Link link : bestPath) {
                carrying.set(link.index());
                left[link.index()] -= bitrate;
            }
        }
        return new Distribution(problem, serves, name(), Double.NaN, Duration.ZERO);
    }

    /** The links of a path, from the group up, that must newly carry the object: up to a node that has it. */
    private static List<Link> needed(Topology topology, BitSet carrying, List<Link> upwards) {
        List<Link> needed = new java.util.ArrayList<>();
        for (Link link : upwards) {
            if (carrying.get(link.index())) {
                break;
            }
            needed.add(link);
            if (topology.in(link.from()).stream().anyMatch(l -> carrying.get(l.index()))) {
                break;
            }
        }
        return needed;
    }
}
