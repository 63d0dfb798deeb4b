package io.heliograph.vdn.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * A problem in arrays, for the optimisers' inner loops: nodes and links by index, objects by index with
 * their bitrates, priorities and requesting groups, and for each object its candidate links: those that
 * lie on some source-to-group path to a group requesting it (§4.5's variable pruning). A link out of a
 * node no source reaches, or into a node that reaches no requester of the object, never carries it in a
 * useful tree, so it gets no variable.
 */
final class ServeIndex {

    final Problem problem;
    final Tier[] tier;
    /** For each node, the indices of the links entering it. */
    final int[][] in;
    final int[] from;
    final int[] to;
    final long[] capacity;
    final double[] cost;
    /** Whether some source reaches the node (sources do). */
    final boolean[] fed;

    final String[] key;
    final int[] bitrate;
    final double[] priority;
    /** For each object, the node indices of the groups requesting it. */
    final int[][] groups;
    /** For each object, its requests' indices, in the order of {@link #groups}. */
    final int[][] requestsOf;
    /** For each request (in the problem's order), its object and group indices. */
    final int[] requestObject;
    final int[] requestGroup;

    private final int[][] candidates;

    ServeIndex(Problem problem) {
        this.problem = problem;
        Topology topology = problem.topology();
        List<Node> nodes = topology.nodes();
        int n = nodes.size();
        tier = new Tier[n];
        in = new int[n][];
        for (int v = 0; v < n; v++) {
            Node node = nodes.get(v);
            tier[v] = node.tier();
            in[v] = topology.in(node.id()).stream().mapToInt(Link::index).toArray();
        }
        List<Link> links = topology.links();
        from = new int[links.size()];
        to = new int[links.size()];
        capacity = new long[links.size()];
        cost = new double[links.size()];
        for (Link link : links) {
            from[link.index()] = topology.indexOf(link.from());
            to[link.index()] = topology.indexOf(link.to());
            capacity[link.index()] = link.capacityKbps();
            cost[link.index()] = link.cost();
        }
        fed = new boolean[n];
        for (Tier t : Tier.values()) {
            for (Node node : topology.tier(t)) {
                int v = topology.indexOf(node.id());
                fed[v] = t == Tier.SOURCE;
                for (int l : in[v]) {
                    fed[v] |= fed[from[l]];
                }
            }
        }

        Map<String, VideoObject> objects = problem.objects();
        key = objects.keySet().toArray(String[]::new);
        bitrate = new int[key.length];
        priority = new double[key.length];
        Map<String, Integer> objectIndex = new java.util.HashMap<>();
        for (int o = 0; o < key.length; o++) {
            VideoObject object = objects.get(key[o]);
            bitrate[o] = object.bitrateKbps();
            priority[o] = object.priority();
            objectIndex.put(key[o], o);
        }
        List<Request> requests = problem.requests();
        requestObject = new int[requests.size()];
        requestGroup = new int[requests.size()];
        int[] count = new int[key.length];
        for (int r = 0; r < requests.size(); r++) {
            requestObject[r] = objectIndex.get(requests.get(r).object().key());
            requestGroup[r] = topology.indexOf(requests.get(r).clientGroup());
            count[requestObject[r]]++;
        }
        groups = new int[key.length][];
        requestsOf = new int[key.length][];
        for (int o = 0; o < key.length; o++) {
            groups[o] = new int[count[o]];
            requestsOf[o] = new int[count[o]];
        }
        Arrays.fill(count, 0);
        for (int r = 0; r < requests.size(); r++) {
            int o = requestObject[r];
            requestsOf[o][count[o]] = r;
            groups[o][count[o]++] = requestGroup[r];
        }
        candidates = new int[key.length][];
    }

    int nodes() {
        return tier.length;
    }

    int links() {
        return from.length;
    }

    int objects() {
        return key.length;
    }

    int requests() {
        return requestObject.length;
    }

    /**
     * The links that may carry object {@code o}, ascending: from a fed node into a node from which a
     * group requesting it can be reached. Computed once per object, walking up from its groups.
     */
    int[] candidates(int o) {
        int[] known = candidates[o];
        if (known != null) {
            return known;
        }
        BitSet reaches = new BitSet(nodes());
        BitSet chosen = new BitSet(links());
        List<Integer> frontier = new ArrayList<>();
        for (int g : groups[o]) {
            if (!reaches.get(g)) {
                reaches.set(g);
                frontier.add(g);
            }
        }
        while (!frontier.isEmpty()) {
            List<Integer> next = new ArrayList<>();
            for (int v : frontier) {
                for (int l : in[v]) {
                    int u = from[l];
                    if (!fed[u]) {
                        continue;
                    }
                    chosen.set(l);
                    if (!reaches.get(u)) {
                        reaches.set(u);
                        next.add(u);
                    }
                }
            }
            frontier = next;
        }
        known = chosen.stream().toArray();
        candidates[o] = known;
        return known;
    }

    /** Σ over objects of their candidate links: the program's link variables. */
    long candidateCount() {
        long total = 0;
        for (int o = 0; o < objects(); o++) {
            total += candidates(o).length;
        }
        return total;
    }

    /** {@code w_s · priority}: what serving one request for object {@code o} adds to the objective. */
    double gain(int o) {
        return problem.weights().service() * priority[o];
    }

    /** {@code w_c · cost(l) · bitrate(o)}: what carrying object {@code o} on link {@code l} takes from it. */
    double price(int l, int o) {
        return problem.weights().cost() * cost[l] * bitrate[o];
    }

    /**
     * A bound from the sources' links alone, for when the relaxation's is not to be had: an object served
     * anywhere crosses a link out of a source, whole, so the objects served fit, by bitrate, in those
     * links' capacity together; and an object serving some of its groups pays at least the cheapest path
     * to the dearest of them, so it is worth at most {@code A_o}, the best over {@code k} of its {@code k}
     * cheapest-to-reach requests' service less the {@code k}-th's path. No decision does better than the
     * fractional knapsack of the objects, worth {@code A_o} and weighing their bitrates, in that capacity
     * (the Lagrangian bound with one price on the source tier's capacity, at its best). Where the sources
     * bind and one reflector reaches most groups (the simulator's dense topologies, where the relaxation
     * does not finish within the minute) it is within a few per cent of the trees found; where the
     * sources do not bind it is above {@link #serviceCeiling}.
     */
    double sourceTierBound() {
        long capacity = 0;
        for (int l = 0; l < links(); l++) {
            if (tier[from[l]] == Tier.SOURCE) {
                capacity += this.capacity[l];
            }
        }
        double[] worth = new double[objects()];
        double[] reach = new double[nodes()];
        for (int o = 0; o < objects(); o++) {
            Arrays.fill(reach, Double.NaN);
            int[] requests = requestsOf[o];
            double[] path = new double[requests.length];
            for (int k = 0; k < requests.length; k++) {
                path[k] = cheapest(o, requestGroup[requests[k]], reach);
            }
            Arrays.sort(path); // the requests of one object are worth the same
            double service = 0;
            for (double price : path) {
                if (price == Double.POSITIVE_INFINITY) {
                    break;
                }
                service += gain(o);
                worth[o] = Math.max(worth[o], service - price);
            }
        }
        Integer[] byDensity = new Integer[objects()];
        Arrays.setAll(byDensity, o -> o);
        Arrays.sort(byDensity, (a, b) -> Double.compare(worth[b] / bitrate[b], worth[a] / bitrate[a]));
        double bound = 0;
        double left = capacity;
        for (int o : byDensity) {
            if (worth[o] <= 0 || left <= 0) {
                break;
            }
            double share = Math.min(1, left / bitrate[o]);
            bound += share * worth[o];
            left -= share * bitrate[o];
        }
        return bound;
    }

    /** The least price of a path carrying {@code o} from a source to {@code v}, memoised in {@code reach}. */
    private double cheapest(int o, int v, double[] reach) {
        if (tier[v] == Tier.SOURCE) {
            return 0;
        }
        if (Double.isNaN(reach[v])) {
            double least = Double.POSITIVE_INFINITY;
            for (int l : in[v]) {
                if (fed[from[l]]) {
                    least = Math.min(least, cheapest(o, from[l], reach) + price(l, o));
                }
            }
            reach[v] = least;
        }
        return reach[v];
    }

    /** Σ {@code w_s · priority} over every request: no decision does better, whatever it serves. */
    double serviceCeiling() {
        double total = 0;
        for (int r = 0; r < requests(); r++) {
            total += gain(requestObject[r]);
        }
        return total;
    }
}
