package io.heliograph.routing.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Yen's algorithm: the k shortest loop-free paths in order of cost. Each next path is the cheapest
 * deviation from one already found: for every node of the last path (the spur node), keep the
 * prefix up to it (the root), forbid the edges that earlier paths with the same root took next and
 * the root's other nodes (so the result stays loop-free), and search the rest with Dijkstra.
 * Roots are compared by edges, not nodes, so parallel links between two switches are told apart.
 */
final class YenKShortestPaths {

    private YenKShortestPaths() {
    }

    /** Up to k paths in {@link Path#ORDER}; the first is the given shortest path. */
    static List<Path> search(LinkGraph graph, double[] cost, Path shortest, int target, int k) {
        List<Path> accepted = new ArrayList<>();
        if (shortest == null || k <= 0) {
            return accepted;
        }
        accepted.add(shortest);
        Set<Path> seen = new HashSet<>(accepted);
        TreeSet<Path> candidates = new TreeSet<>(Path.ORDER);
        boolean[] blockedNodes = new boolean[graph.switchCount()];
        boolean[] blockedEdges = new boolean[graph.edgeCount()];

        while (accepted.size() < k) {
            Path last = accepted.get(accepted.size() - 1);
            for (int spurIndex = 0; spurIndex < last.length(); spurIndex++) {
                int spurNode = last.node(graph, spurIndex);
                for (Path earlier : accepted) {
                    if (earlier.length() > spurIndex && earlier.sharesPrefix(last, spurIndex)) {
                        blockedEdges[earlier.edge(spurIndex)] = true;
                    }
                }
                for (int i = 0; i < spurIndex; i++) {
                    blockedNodes[last.node(graph, i)] = true;
                }

                Path spur = Dijkstra.search(graph, cost, spurNode, target, blockedNodes, blockedEdges)
                        .firstPath(target);
                if (spur != null) {
                    Path candidate = last.append(spur, cost, spurIndex);
                    if (seen.add(candidate)) {
                        candidates.add(candidate);
                    }
                }

                Arrays.fill(blockedNodes, false);
                Arrays.fill(blockedEdges, false);
            }
            if (candidates.isEmpty()) {
                break;
            }
            accepted.add(candidates.pollFirst());
        }
        return accepted;
    }
}
