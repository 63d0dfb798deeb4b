package io.heliograph.vdn.engine;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The greedy warm start of §4.5 ("[UNSPEC→REC]"): the (client group, object) requests by priority per
 * kbit/s, highest first, each joined to its object's tree along the cheapest path through residual
 * capacity from the nearest node already receiving the object (links already carrying it cost nothing
 * more), and skipped when there is no such path or when serving it would lower the objective
 * ({@code w_s · priority < w_c · added cost}). The result is always feasible; it proves no bound.
 *
 * <p>Ties go to the object more groups request (its tree is shared more), then by object key, then by
 * group id, so the result depends on the problem alone. A request costs a walk over the few links above
 * its group, so tens of thousands of requests take milliseconds.
 */
public final class GreedyTrees implements TreeOptimiser {

    public static final String NAME = "greedy";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Distribution optimise(Problem problem) {
        long start = System.nanoTime();
        ServeIndex index = new ServeIndex(problem);
        return route(index, order(index), null).distribution(NAME, Double.NaN, Duration.ofNanos(System.nanoTime() - start));
    }

    /** The trees grown by routing the requests in {@code order}, each along its least-{@code preference} path. */
    static TreeBuilder route(ServeIndex index, int[] order, TreeBuilder.Preference preference) {
        TreeBuilder trees = new TreeBuilder(index);
        for (int r : order) {
            trees.route(r, preference);
        }
        return trees;
    }

    /** The requests' indices in the greedy's order. */
    static int[] order(ServeIndex index) {
        return sorted(index, Comparator.comparingInt(r -> 0));
    }

    /** The requests' indices by {@code first}, then in the greedy's order. */
    static int[] sorted(ServeIndex index, Comparator<Integer> first) {
        Comparator<Integer> greedy = Comparator
                .<Integer>comparingDouble(r -> -index.priority[index.requestObject[r]]
                        / index.bitrate[index.requestObject[r]])
                .thenComparingInt(r -> -index.groups[index.requestObject[r]].length)
                .thenComparing(r -> index.key[index.requestObject[r]])
                .thenComparing(r -> index.problem.requests().get(r).clientGroup());
        Integer[] requests = new Integer[index.requests()];
        Arrays.setAll(requests, r -> r);
        Arrays.sort(requests, first.thenComparing(greedy));
        return Arrays.stream(requests).mapToInt(Integer::intValue).toArray();
    }
}
