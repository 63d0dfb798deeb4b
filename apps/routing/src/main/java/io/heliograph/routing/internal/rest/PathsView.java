package io.heliograph.routing.internal.rest;

import java.util.List;

import io.heliograph.routing.Route;
import io.heliograph.topology.Link;

/**
 * The paths from switch {@code src} to {@code dst} under {@code metric}: the k shortest in order of
 * cost when {@code k} is given, otherwise every equal-cost shortest path. Empty when dst is unreachable.
 */
public record PathsView(String src, String dst, String metric, Integer k, List<PathView> paths) {

    /** One loop-free path: its hops in order and its cost under the metric. */
    public record PathView(int hops, double cost, List<Hop> links) {

        static PathView of(Route route) {
            return new PathView(route.hops(), route.cost(), route.links().stream().map(Hop::of).toList());
        }
    }

    /** One link of a path: leaves switch {@code srcDpid} by {@code srcPort}, enters {@code dstDpid} at {@code dstPort}. */
    public record Hop(String srcDpid, int srcPort, String dstDpid, int dstPort) {

        static Hop of(Link link) {
            return new Hop(link.src().dpid().toString(), link.src().port().getPortNumber(),
                    link.dst().dpid().toString(), link.dst().port().getPortNumber());
        }
    }
}
