package io.heliograph.routing.internal;

import java.util.Arrays;

/** Dijkstra's shortest-path search over a {@link LinkGraph} with a binary heap. Costs must be positive. */
final class Dijkstra {

    private Dijkstra() {
    }

    /** Distances from the source to every node. */
    static ShortestPathTree search(LinkGraph graph, double[] cost, int source) {
        return search(graph, cost, source, -1, null, null);
    }

    /**
     * Distances from the source, stopping once the target (if not -1) is settled; nodes and edges
     * marked blocked are treated as absent (Yen's spur searches). Distances of nodes settled after
     * the target may be too high, but no shortest path to the target goes through them.
     */
    static ShortestPathTree search(LinkGraph graph, double[] cost, int source, int target, boolean[] blockedNodes,
            boolean[] blockedEdges) {
        double[] distance = new double[graph.switchCount()];
        Arrays.fill(distance, Double.POSITIVE_INFINITY);
        boolean[] settled = new boolean[graph.switchCount()];
        IndexedMinHeap heap = new IndexedMinHeap(graph.switchCount());
        distance[source] = 0;
        heap.offer(source, 0);
        while (!heap.isEmpty()) {
            int node = heap.poll();
            settled[node] = true;
            if (node == target) {
                break;
            }
            for (int edge : graph.outEdges(node)) {
                int next = graph.to(edge);
                if (settled[next] || blockedEdges != null && blockedEdges[edge]
                        || blockedNodes != null && blockedNodes[next]) {
                    continue;
                }
                double through = distance[node] + cost[edge];
                if (through < distance[next]) {
                    distance[next] = through;
                    heap.offer(next, through);
                }
            }
        }
        return new ShortestPathTree(graph, cost, source, distance, blockedEdges);
    }
}
