package io.heliograph.routing.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The result of one Dijkstra search from a source: the distance to every node reached. Rather
 * than one predecessor per node it keeps the distances, so that every shortest path can be read
 * back (the equal-cost set) by walking "tight" edges, those whose cost closes the distance gap
 * exactly. The first path in edge order is the route; the search order does not matter.
 */
final class ShortestPathTree {

    private static final double TOLERANCE = 1e-9;

    private final LinkGraph graph;
    private final double[] cost;
    private final int source;
    private final double[] distance;
    private final boolean[] blockedEdges;

    ShortestPathTree(LinkGraph graph, double[] cost, int source, double[] distance, boolean[] blockedEdges) {
        this.graph = graph;
        this.cost = cost;
        this.source = source;
        this.distance = distance;
        this.blockedEdges = blockedEdges;
    }

    boolean reaches(int node) {
        return distance[node] != Double.POSITIVE_INFINITY;
    }

    double distance(int node) {
        return distance[node];
    }

    /** The first shortest path in edge order, or null when the node is not reached. */
    Path firstPath(int target) {
        List<Path> paths = paths(target, 1);
        return paths.isEmpty() ? null : paths.get(0);
    }

    /** Up to max shortest paths to the target, in edge order; empty when it is not reached. */
    List<Path> paths(int target, int max) {
        List<Path> found = new ArrayList<>();
        if (!reaches(target) || max <= 0) {
            return found;
        }
        boolean[] leadsToTarget = nodesOnShortestPaths(target);
        int[] stack = new int[graph.switchCount()];
        collect(source, target, leadsToTarget, stack, 0, found, max);
        return found;
    }

    /**
     * Depth-first over tight edges into nodes from which the target is still reachable on a
     * shortest path, so every branch ends at the target and no time goes to dead ends.
     */
    private void collect(int node, int target, boolean[] leadsToTarget, int[] stack, int depth, List<Path> found,
            int max) {
        if (node == target) {
            found.add(Path.of(source, Arrays.copyOf(stack, depth), cost));
            return;
        }
        if (depth == stack.length) {
            return; // cannot happen with positive costs; guards against a tolerance-made cycle
        }
        for (int edge : graph.outEdges(node)) {
            int next = graph.to(edge);
            if (leadsToTarget[next] && isTight(edge)) {
                stack[depth] = edge;
                collect(next, target, leadsToTarget, stack, depth + 1, found, max);
                if (found.size() >= max) {
                    return;
                }
            }
        }
    }

    /** The nodes from which a tight walk reaches the target: the shortest-path DAG towards it. */
    private boolean[] nodesOnShortestPaths(int target) {
        boolean[] marked = new boolean[graph.switchCount()];
        int[] queue = new int[graph.switchCount()];
        int head = 0;
        int tail = 0;
        marked[target] = true;
        queue[tail++] = target;
        while (head < tail) {
            int node = queue[head++];
            for (int edge : graph.inEdges(node)) {
                int previous = graph.from(edge);
                if (!marked[previous] && isTight(edge)) {
                    marked[previous] = true;
                    queue[tail++] = previous;
                }
            }
        }
        return marked;
    }

    private boolean isTight(int edge) {
        if (blockedEdges != null && blockedEdges[edge]) {
            return false;
        }
        double from = distance[graph.from(edge)];
        double to = distance[graph.to(edge)];
        if (from == Double.POSITIVE_INFINITY || to == Double.POSITIVE_INFINITY) {
            return false;
        }
        double gap = from + cost[edge] - to;
        return Math.abs(gap) <= TOLERANCE * Math.max(1, Math.abs(to));
    }
}
