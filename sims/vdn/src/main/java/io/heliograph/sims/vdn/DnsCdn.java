package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Node;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DNS-based CDN (§4.7). Requests are taken in the order they arrived. When a node (a client group,
 * then an edge, then a reflector) needs an object it does not yet receive, it picks a parent: the one
 * already subscribed to the object (receiving it, or a source) whose link to it has the most capacity
 * left, where that link still fits the stream; else, among its closer half of parents (by distance) the
 * lightly loaded ones (at most {@value #LIGHT} of the link used once the stream is on it), the one with
 * the most left; else the one with the most left, overloading it. The parent then does the same,
 * upwards. It optimises links one at a time, not paths.
 *
 * <p>Every choice is cached, as DNS caches it, for {@code ttlSeconds} from the arrival that made it, per
 * (node, object): a later request for the same object at that node within the TTL goes to the same
 * parent, even if its link is now full, this window or the next (the cache outlives the window; the
 * subscriptions and loads do not, since each window is its own snapshot of the requests). One instance
 * keeps one cache: use one per run.
 */
public final class DnsCdn implements Strategy {

    /** A link is lightly loaded when at most this share of it is used with the new stream on it. */
    static final double LIGHT = 0.8;

    private final String name;
    private final double ttlSeconds;
    private final Map<String, Cached> cache = new HashMap<>();
    private int reused;

    private record Cached(String parent, double expires) {
    }

    public DnsCdn(String name, double ttlSeconds) {
        if (!(ttlSeconds > 0)) {
            throw new IllegalArgumentException("TTL " + ttlSeconds + " s is not positive");
        }
        this.name = name;
        this.ttlSeconds = ttlSeconds;
    }

    /** CDN: TTL 30 s. */
    public static DnsCdn cdn() {
        return new DnsCdn("CDN", 30);
    }

    /** CDN-1: TTL 1 s (an unrealistic number of DNS queries, §4.7). */
    public static DnsCdn cdn1() {
        return new DnsCdn("CDN-1", 1);
    }

    @Override
    public String name() {
        return name;
    }

    /** How many parent choices so far were taken from the cache rather than made. */
    public int reused() {
        return reused;
    }

    @Override
    public synchronized Distribution decide(Problem problem, double[] arrivals) {
        long start = System.nanoTime();
        Window window = new Window(problem);
        List<Request> requests = problem.requests();
        for (int i = 0; i < requests.size(); i++) {
            Request request = requests.get(i);
            window.subscribe(request.clientGroup(), request.object().key(), request.object().bitrateKbps(), arrivals[i]);
        }
        Map<String, BitSet> serves = new LinkedHashMap<>(window.serves);
        return new Distribution(problem, serves, name, Double.NaN, Duration.ofNanos(System.nanoTime() - start));
    }

    /** One window's subscriptions and loads. */
    private final class Window {
        private final Topology topology;
        private final long[] load;
        private final Map<String, BitSet> serves = new HashMap<>();

        Window(Problem problem) {
            this.topology = problem.topology();
            this.load = new long[topology.links().size()];
        }

        boolean receives(String node, String key) {
            if (topology.node(node).orElseThrow().tier() == Tier.SOURCE) {
                return true;
            }
            BitSet set = serves.get(key);
            if (set == null) {
                return false;
            }
            for (Link link : topology.in(node)) {
                if (set.get(link.index())) {
                    return true;
                }
            }
            return false;
        }

        void subscribe(String node, String key, int bitrate, double now) {
            if (receives(node, key)) {
                return;
            }
            String cacheKey = node + " " + key;
            Cached cached = cache.get(cacheKey);
            Link link;
            if (cached != null && cached.expires() > now) {
                link = topology.link(cached.parent(), node).orElseThrow();
                reused++;
            } else {
                link = choose(node, key, bitrate);
                cache.put(cacheKey, new Cached(link.from(), now + ttlSeconds));
            }
            serves.computeIfAbsent(key, k -> new BitSet()).set(link.index());
            load[link.index()] += bitrate;
            subscribe(link.from(), key, bitrate, now);
        }

        private long left(Link link) {
            return link.capacityKbps() - load[link.index()];
        }

        Link choose(String node, String key, int bitrate) {
            List<Link> in = topology.in(node);
            Comparator<Link> mostLeft = Comparator.comparingLong(this::left).thenComparing(Link::index,
                    Comparator.reverseOrder());
            Optional<Link> subscribed = in.stream()
                    .filter(l -> receives(l.from(), key) && left(l) >= bitrate).max(mostLeft);
            if (subscribed.isPresent()) {
                return subscribed.get();
            }
            Node here = topology.node(node).orElseThrow();
            List<Link> close = new ArrayList<>(in);
            close.sort(Comparator.comparingDouble((Link l) -> topology.node(l.from()).orElseThrow().distanceTo(here))
                    .thenComparingInt(Link::index));
            close = close.subList(0, (close.size() + 1) / 2);
            return close.stream()
                    .filter(l -> load[l.index()] + bitrate <= LIGHT * l.capacityKbps())
                    .max(mostLeft)
                    .orElseGet(() -> in.stream().max(mostLeft).orElseThrow());
        }
    }
}
