package io.heliograph.routing.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import io.heliograph.routing.Route;
import io.heliograph.topology.Link;

/**
 * A path in a {@link LinkGraph}: its first node and edges in order, and their summed cost. Paths
 * are ordered by cost (to a millionth, so sums that differ only by rounding count as equal) and then
 * by their edge sequence, which is dpid/port order: the tie-break every answer uses.
 */
final class Path {

    static final Comparator<Path> ORDER = Comparator.comparingLong(Path::roundedCost)
            .thenComparing((a, b) -> Arrays.compare(a.edges, b.edges));

    private final int source;
    private final int[] edges;
    private final double cost;

    private Path(int source, int[] edges, double cost) {
        this.source = source;
        this.edges = edges;
        this.cost = cost;
    }

    /** The path with these edges; its cost is their costs summed in order. */
    static Path of(int source, int[] edges, double[] edgeCost) {
        double sum = 0;
        for (int edge : edges) {
            sum += edgeCost[edge];
        }
        return new Path(source, edges, sum);
    }

    int length() {
        return edges.length;
    }

    int edge(int i) {
        return edges[i];
    }

    double cost() {
        return cost;
    }

    /** The i-th node (0 = source, length() = destination). */
    int node(LinkGraph graph, int i) {
        return i == 0 ? source : graph.to(edges[i - 1]);
    }

    /** True when the first n edges of both paths are the same. */
    boolean sharesPrefix(Path other, int n) {
        return other.edges.length >= n && edges.length >= n
                && Arrays.equals(edges, 0, n, other.edges, 0, n);
    }

    Path append(Path tail, double[] edgeCost, int prefixLength) {
        int[] joined = Arrays.copyOf(edges, prefixLength + tail.edges.length);
        System.arraycopy(tail.edges, 0, joined, prefixLength, tail.edges.length);
        return of(source, joined, edgeCost);
    }

    Route toRoute(LinkGraph graph) {
        List<Link> links = new ArrayList<>(edges.length);
        for (int edge : edges) {
            links.add(graph.link(edge));
        }
        return new Route(graph.dpid(source), graph.dpid(node(graph, edges.length)), links, cost);
    }

    private long roundedCost() {
        return Math.round(cost * 1e6);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Path p && p.source == source && Arrays.equals(p.edges, edges);
    }

    @Override
    public int hashCode() {
        return 31 * source + Arrays.hashCode(edges);
    }

    @Override
    public String toString() {
        return "Path" + Arrays.toString(edges) + " cost " + cost;
    }
}
