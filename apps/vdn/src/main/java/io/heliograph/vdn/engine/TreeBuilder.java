package io.heliograph.vdn.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Grows the objects' distribution trees one request at a time through residual capacity, the step of
 * the greedy warm start and of the rounding of the relaxation. A request is joined to its object's tree
 * by the path of least weight from a node that already receives the object (a source always does): links
 * already carrying it cost nothing more, a new link needs residual capacity for the object's bitrate. It
 * is joined only when that does not lower the objective ({@code w_s · priority >= w_c · added cost}), so
 * every tree it grows is feasible and pays for itself. The optimiser's local search changes grown trees
 * through the moves here ({@link #routeMakingRoom}, {@link #routeEvicting}, {@link #rejoin}), each of which
 * keeps them feasible, its running objective equal to theirs, and never lowers it.
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
    /** How many times the trees have changed (a request joined, links taken out). */
    private int changes;
    /**
     * For each link, the least room that {@link #cheapestRoom} found no way to make on it, while the trees
     * were as they were at {@link #hopelessAt} changes: thousands of requests too large for any source
     * link ask the same question of the same links in one pass.
     */
    private final long[] hopeless;
    private int hopelessAt = -1;

    TreeBuilder(ServeIndex index) {
        this.index = index;
        this.residual = index.capacity.clone();
        this.serves = new BitSet[index.objects()];
        this.receives = new BitSet[index.objects()];
        this.price = index::price;
        this.hopeless = new long[index.links()];
    }

    private TreeBuilder(TreeBuilder other) {
        this.index = other.index;
        this.residual = other.residual.clone();
        this.serves = new BitSet[other.serves.length];
        this.receives = new BitSet[other.receives.length];
        for (int o = 0; o < serves.length; o++) {
            serves[o] = other.serves[o] == null ? null : (BitSet) other.serves[o].clone();
            receives[o] = other.receives[o] == null ? null : (BitSet) other.receives[o].clone();
        }
        this.price = other.price;
        this.objective = other.objective;
        this.hopeless = new long[other.hopeless.length];
    }

    /**
     * Joins request {@code r} along the least-{@code preference} path if that pays for itself, else along
     * the cheapest path if that does; returns whether it is served. {@code preference} null: the true price.
     */
    boolean route(int r, Preference preference) {
        return route(r, preference, 0);
    }

    /** As {@link #route(int, Preference)}, with {@code spent} of the request's gain already spent elsewhere. */
    private boolean route(int r, Preference preference, double spent) {
        int o = index.requestObject[r];
        int g = index.requestGroup[r];
        if (receives(o, g)) {
            objective += index.gain(o);
            return true;
        }
        if (preference != null && join(g, o, spent, preference)) {
            return true;
        }
        return join(g, o, spent, price);
    }

    /**
     * Serves request {@code r}, which {@link #route} could not, by first making room on one full link
     * into a node on its way: one or two objects that link carries are fed to that node over sibling
     * links instead, from nodes that already receive them (sources always do), where the siblings have
     * room. Free space split over a node's in-links (four source links into a reflector, each a little
     * short of one more object) is so gathered where a request can use it. The move is the one costing least that frees
     * enough, and it is kept only if the request is then served and pays for its path and the move;
     * otherwise everything is as before. Returns whether {@code r} is served.
     */
    boolean routeMakingRoom(int r, Preference preference) {
        if (route(r, preference)) {
            return true;
        }
        int o = index.requestObject[r];
        int bitrate = index.bitrate[o];
        if (hopelessAt != changes) {
            Arrays.fill(hopeless, Long.MAX_VALUE);
            hopelessAt = changes;
        }
        BitSet onTheWay = new BitSet();
        linksAbove(index.requestGroup[r], o, onTheWay);
        for (int l = onTheWay.nextSetBit(0); l >= 0; l = onTheWay.nextSetBit(l + 1)) {
            long needed = bitrate - residual[l];
            if (needed <= 0 || needed >= hopeless[l]) {
                continue;
            }
            List<Move> moves = cheapestRoom(l, needed, o);
            if (moves.isEmpty()) {
                if (serves[o] == null || !serves[o].get(l)) {
                    hopeless[l] = needed; // what cannot free this much cannot free more
                }
                continue;
            }
            double cost = 0;
            for (Move move : moves) {
                refeed(move.object, l, move.to);
                cost += move.cost;
            }
            if (route(r, preference, cost)) {
                for (Move move : moves) {
                    release(move.object, index.from[l]);
                }
                return true;
            }
            for (Move move : moves) {
                refeed(move.object, move.to, l);
            }
        }
        return false;
    }

    /**
     * Serves request {@code r}, which {@link #routeMakingRoom} could not, on a copy of these trees in
     * which room is made on one full link into a node on its way by evicting an object from that node:
     * the branch of its tree below the node is taken out, {@code r} joins, and the requests the branch
     * served join again wherever the tree and the free capacity let them (a small object evicted from a
     * reflector whose source links are a little short of a large one often has room at another). Tries,
     * on each such link, the smallest object that frees enough on its own. Returns the first copy better
     * than these trees, or null.
     */
    TreeBuilder routeEvicting(int r, Preference preference) {
        int o = index.requestObject[r];
        int bitrate = index.bitrate[o];
        BitSet onTheWay = new BitSet();
        linksAbove(index.requestGroup[r], o, onTheWay);
        for (int l = onTheWay.nextSetBit(0); l >= 0; l = onTheWay.nextSetBit(l + 1)) {
            long needed = bitrate - residual[l];
            if (needed <= 0) {
                continue;
            }
            int evicted = -1;
            for (int other = 0; other < serves.length; other++) {
                if (other != o && serves[other] != null && serves[other].get(l) && index.bitrate[other] >= needed
                        && (evicted < 0 || index.bitrate[other] < index.bitrate[evicted])) {
                    evicted = other;
                }
            }
            if (evicted < 0) {
                continue;
            }
            TreeBuilder trial = new TreeBuilder(this);
            int[] cut = trial.prune(evicted, index.to[l]);
            if (!trial.route(r, preference)) {
                continue;
            }
            for (int c : cut) {
                trial.route(c, preference);
            }
            if (trial.objective > objective + 1e-9) {
                return trial;
            }
        }
        return null;
    }

    /**
     * Takes the branch of {@code o}'s tree below node {@code v} out, with {@code v}'s feed: its requests
     * are cut. Returns them.
     */
    private int[] prune(int o, int v) {
        int[] below = Arrays.stream(index.requestsOf[o])
                .filter(r -> receives(o, index.requestGroup[r]) && feeds(o, v, index.requestGroup[r])).toArray();
        for (int r : below) {
            cut(r);
        }
        return below;
    }

    /**
     * Joins served request {@code r} to its object's tree again along its cheapest path: the links only
     * it used are taken out first (its group's feed, and up from there each node left feeding nothing),
     * so the old path is among those it may take and the objective never falls. (Where no path pays for
     * itself any more, as one may not that {@link #routeMakingRoom} took with a move that saved more, the
     * request is left unserved, which the objective gains by.) It rises where the tree has grown since
     * the request joined (a group first reached through a reflector of its own may now hang from one the
     * object reaches anyway), and the capacity so freed, on the source links most of all, is what other
     * requests need.
     */
    void rejoin(int r) {
        int o = index.requestObject[r];
        int v = index.requestGroup[r];
        if (!receives(o, v)) {
            return;
        }
        cut(r);
        route(r, null);
    }

    /**
     * Stops serving request {@code r}: its group's feed is taken out, and up from there each node left
     * feeding nothing.
     */
    private void cut(int r) {
        int o = index.requestObject[r];
        int v = index.requestGroup[r];
        objective -= index.gain(o);
        release(o, v);
    }

    /** Takes out {@code v}'s feed of {@code o} if it feeds nothing, and so on up. */
    private void release(int o, int v) {
        while (index.tier[v] != Tier.SOURCE && !feedsAny(o, v)) {
            changes++;
            int l = feed(o, v);
            residual[l] += index.bitrate[o];
            serves[o].clear(l);
            receives[o].clear(v);
            objective += index.price(l, o);
            v = index.from[l];
        }
    }

    /** Whether a link out of {@code v} carries {@code o}. */
    private boolean feedsAny(int o, int v) {
        for (int l = serves[o].nextSetBit(0); l >= 0; l = serves[o].nextSetBit(l + 1)) {
            if (index.from[l] == v) {
                return true;
            }
        }
        return false;
    }

    /** Moving {@code object}'s feed onto link {@code to}, which changes the trees' cost by {@code cost}. */
    private record Move(int object, int to, double cost) {
    }

    /** The links on some path from a fed node to {@code v} that may carry {@code o}. */
    private void linksAbove(int v, int o, BitSet links) {
        for (int l : index.in[v]) {
            if (index.fed[index.from[l]] && !links.get(l)) {
                links.set(l);
                if (!receives(o, index.from[l])) {
                    linksAbove(index.from[l], o, links);
                }
            }
        }
    }

    /**
     * The least-cost way to free at least {@code needed} on full link {@code l} by feeding one object, or
     * two, other than {@code except} into the link's head over sibling links instead: links into the
     * same node with room for them, whose tails receive the object other than through that node. Empty
     * when there is none.
     */
    private List<Move> cheapestRoom(int l, long needed, int except) {
        int v = index.to[l];
        List<Move> options = new ArrayList<>();
        for (int o = 0; o < serves.length; o++) {
            if (o == except || serves[o] == null || !serves[o].get(l)) {
                continue;
            }
            for (int sibling : index.in[v]) {
                int tail = index.from[sibling];
                if (sibling != l && residual[sibling] >= index.bitrate[o] && receives(o, tail) && !feeds(o, v, tail)) {
                    options.add(new Move(o, sibling, index.price(sibling, o) - index.price(l, o)));
                }
            }
        }
        List<Move> best = List.of();
        double least = Double.POSITIVE_INFINITY;
        for (int i = 0; i < options.size(); i++) {
            Move one = options.get(i);
            long freed = index.bitrate[one.object];
            if (freed >= needed) {
                if (one.cost < least) {
                    least = one.cost;
                    best = List.of(one);
                }
                continue;
            }
            for (int j = i + 1; j < options.size(); j++) {
                Move two = options.get(j);
                if (two.object == one.object || freed + index.bitrate[two.object] < needed
                        || one.cost + two.cost >= least) {
                    continue;
                }
                if (one.to == two.to && residual[one.to] < freed + index.bitrate[two.object]) {
                    continue;
                }
                least = one.cost + two.cost;
                best = List.of(one, two);
            }
        }
        return best;
    }

    /** Whether node {@code u} receives {@code o} through node {@code v}. */
    private boolean feeds(int o, int v, int u) {
        for (int w = u; index.tier[w] != Tier.SOURCE; w = index.from[feed(o, w)]) {
            if (w == v) {
                return true;
            }
        }
        return false;
    }

    /** The link carrying {@code o} into {@code v}, which receives it and is no source. */
    private int feed(int o, int v) {
        for (int l : index.in[v]) {
            if (serves[o].get(l)) {
                return l;
            }
        }
        throw new IllegalStateException("node " + v + " receives object " + o + " over no link");
    }

    /** Feeds {@code o} into the head of {@code from} over {@code to} instead, a link into the same node. */
    private void refeed(int o, int from, int to) {
        int bitrate = index.bitrate[o];
        residual[from] += bitrate;
        residual[to] -= bitrate;
        serves[o].clear(from);
        serves[o].set(to);
        objective += index.price(from, o) - index.price(to, o);
    }

    /** {@code w_s · service − w_c · cost} of the trees grown so far, as {@link Distribution#objective()} has it. */
    double objective() {
        return objective;
    }

    /** Whether request {@code r} is served by the trees grown so far. */
    boolean serves(int r) {
        return receives(index.requestObject[r], index.requestGroup[r]);
    }

    /** Joins group {@code g} to {@code o}'s tree if its gain pays for the path and {@code spent} besides. */
    private boolean join(int g, int o, double spent, Preference preference) {
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
        double gain = index.gain(o);
        if (gain - spent < added) {
            return false;
        }
        objective += gain - added;
        changes++;
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
