package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a distribution's links actually deliver. A link asked to carry more than its capacity shares it
 * max-min fairly among its streams (one per object: the tree multicasts): the streams below the fair
 * level pass whole, the others are cut to the level, below their bitrate, so not watchable at it. Each
 * link is shared on its own, every stream counted at its bitrate even where a link above cut it (so
 * an overloaded path is judged a little harshly). A request is served when its object reaches its group
 * whole along links carrying it (its clients otherwise re-request a lower bitrate, see
 * {@link Simulator}). A link is paid for what it carries, at most its capacity.
 */
public final class Delivery {

    private final Distribution distribution;
    private final long[] load;
    /** Per link, the highest bitrate that passes whole (MAX_VALUE where the link is not overloaded). */
    private final long[] level;
    private final Map<String, Map<String, Boolean>> reached = new HashMap<>();

    public Delivery(Distribution distribution) {
        this.distribution = distribution;
        this.load = distribution.loadKbps();
        List<Link> links = distribution.problem().topology().links();
        List<List<Integer>> streams = new ArrayList<>();
        links.forEach(l -> streams.add(new ArrayList<>()));
        distribution.problem().objects().forEach((key, object) ->
                distribution.links(key).stream().forEach(i -> streams.get(i).add(object.bitrateKbps())));
        this.level = new long[links.size()];
        for (Link link : links) {
            level[link.index()] = load[link.index()] <= link.capacityKbps() ? Long.MAX_VALUE
                    : fairLevel(streams.get(link.index()), link.capacityKbps());
        }
    }

    /** Water-filling: the level below which streams pass whole when {@code capacity} is shared max-min fairly. */
    static long fairLevel(List<Integer> bitrates, long capacity) {
        List<Integer> sorted = new ArrayList<>(bitrates);
        Collections.sort(sorted);
        double left = capacity;
        for (int i = 0; i < sorted.size(); i++) {
            double share = left / (sorted.size() - i);
            if (sorted.get(i) > share) {
                return (long) Math.floor(share);
            }
            left -= sorted.get(i);
        }
        return Long.MAX_VALUE;
    }

    /** Whether the request's clients get its object at its bitrate. */
    public boolean served(Request request) {
        return reaches(request.clientGroup(), request.object().key());
    }

    /** Whether some chain of links carrying the object, none cutting it, leads from a source to the node. */
    boolean reaches(String node, String objectKey) {
        Topology topology = distribution.problem().topology();
        if (topology.node(node).orElseThrow().tier() == Tier.SOURCE) {
            return true;
        }
        Map<String, Boolean> byNode = reached.computeIfAbsent(objectKey, k -> new HashMap<>());
        Boolean known = byNode.get(node);
        if (known != null) {
            return known;
        }
        boolean reaches = false;
        for (Link link : topology.in(node)) {
            if (distribution.carries(link, objectKey) && bitrate(objectKey) <= level[link.index()]
                    && reaches(link.from(), objectKey)) {
                reaches = true;
                break;
            }
        }
        byNode.put(node, reaches);
        return reaches;
    }

    private int bitrate(String objectKey) {
        return distribution.problem().objects().get(objectKey).bitrateKbps();
    }

    /** Σ cost × min(load, capacity) over the links. */
    public double cost() {
        double cost = 0;
        for (Link link : distribution.problem().topology().links()) {
            cost += link.cost() * Math.min(load[link.index()], link.capacityKbps());
        }
        return cost;
    }

    /** The links carrying more than their capacity. */
    public int overloadedLinks() {
        int count = 0;
        for (long whole : level) {
            count += whole == Long.MAX_VALUE ? 0 : 1;
        }
        return count;
    }
}
