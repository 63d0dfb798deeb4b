package io.heliograph.vdn.engine;

import java.time.Duration;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Grows the objects' distribution trees one request at a time through residual capacity, the step of
 * the greedy warm start and of the rounding of the relaxation. A request is joined to its object's tree
 * by the path of least weight from a node that already receives the object (a source always does): links
 * already carrying it cost nothing more, a new link needs residual capacity for the object's bitrate. It
 * is joined only when that does not lower the objective ({@code w_s · priority >= w_c · added cost}), so
 * every tree it grows is feasible and pays for itself.
 */
final class TreeBuilder {

    /** The weight of sending object {@code o} over link {@code l} when choosing a path. */
    interface Preference {
        double weight(int l, int o);
    }

    private final ServeIndex index;
    private final long[] residual;
    private final BitSet[] serves;
    private final BitSet[] receives;
    private final Preference price;
    private double objective;

    TreeBuilder(ServeIndex index) {
        this.index = index;
        this.residual = index.capacity.clone();
        this.serves = new BitSet[index.objects()];
        this.receives = new BitSet[index.objects()];
        this.price = index::price;
    }

    /**
     * Joins request {@code r} along the least-{@code preference} path if that pays for itself, else along
     * the cheapest path if that does; returns whether it is served. {@code preference} null: the true price.
     */
    boolean route(int r, Preference preference) {
        int o = index.requestObject[r];
        int g = index.requestGroup[r];
        double gain = index.gain(o);
        if (receives(o, g)) {
            objective += gain;
            return true;
        }
        if (preference != null && join(g, o, gain, preference)) {
            return true;
        }
        return join(g, o, gain, price);
    }

    /** {@code w_s · service − w_c · cost} of the trees grown so far, as {@link Distribution#objective()} has it. */
    double objective() {
        return objective;
    }

    /** Whether request {@code r} is served by the trees grown so far. */
    boolean serves(int r) {
        return receives(index.requestObject[r], index.requestGroup[r]);
    }

    private boolean join(int g, int o, double gain, Preference preference) {
        if (least(g, o, preference) == Double.POSITIVE_INFINITY) {
            return false;
        }
        // walk the least path up to the tree, pricing its new links
        double added = 0;
        int[] path = new int[3];
        int length = 0;
        int v = g;
        while (!receives(o, v)) {
            int link = argLeast(v, o, preference);
            path[length++] = link;
            added += index.price(link, o);
            v = index.from[link];
        }
        if (gain < added) {
            return false;
        }
        objective += gain - added;
        int bitrate = index.bitrate[o];
        for (int i = 0; i < length; i++) {
            int link = path[i];
            residual[link] -= bitrate;
            links(o).set(link);
            nodes(o).set(index.to[link]);
        }
        return true;
    }

    /** The least weight of a path bringing {@code o} to {@code v} from a node receiving it; +inf if none. */
    private double least(int v, int o, Preference preference) {
        if (receives(o, v)) {
            return 0;
        }
        double best = Double.POSITIVE_INFINITY;
        int bitrate = index.bitrate[o];
        for (int link : index.in[v]) {
            if (residual[link] >= bitrate && index.fed[index.from[link]]) {
                double weight = least(index.from[link], o, preference);
                if (weight < Double.POSITIVE_INFINITY) {
                    best = Math.min(best, weight + preference.weight(link, o));
                }
            }
        }
        return best;
    }

    /** The link into {@code v} on its least path (the first in link order among equals). */
    private int argLeast(int v, int o, Preference preference) {
        double best = Double.POSITIVE_INFINITY;
        int chosen = -1;
        int bitrate = index.bitrate[o];
        for (int link : index.in[v]) {
            if (residual[link] >= bitrate && index.fed[index.from[link]]) {
                double weight = least(index.from[link], o, preference) + preference.weight(link, o);
                if (weight < best) {
                    best = weight;
                    chosen = link;
                }
            }
        }
        return chosen;
    }

    boolean receives(int o, int v) {
        return index.tier[v] == Tier.SOURCE || (receives[o] != null && receives[o].get(v));
    }

    private BitSet links(int o) {
        if (serves[o] == null) {
            serves[o] = new BitSet();
        }
        return serves[o];
    }

    private BitSet nodes(int o) {
        if (receives[o] == null) {
            receives[o] = new BitSet();
        }
        return receives[o];
    }

    /** The links carrying each object so far. */
    Map<String, BitSet> serves() {
        Map<String, BitSet> result = new LinkedHashMap<>();
        for (int o = 0; o < serves.length; o++) {
            if (serves[o] != null) {
                result.put(index.key[o], serves[o]);
            }
        }
        return result;
    }

    Distribution distribution(String method, double bound, Duration time) {
        return new Distribution(index.problem, serves(), method, bound, time);
    }
}
