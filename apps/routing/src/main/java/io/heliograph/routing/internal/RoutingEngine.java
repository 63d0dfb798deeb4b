package io.heliograph.routing.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.SwitchPort;
import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.stats.PortRate;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;

/**
 * Answers route queries over the current topology snapshot, with no OSGi types so it is tested
 * directly.
 *
 * <p>Freshness: routes are computed on demand and cached per (metric, source switch) as one
 * Dijkstra shortest-path tree, which answers the route and the equal-cost set to every destination;
 * the equal-cost set of each (source, destination) pair asked about is kept too, so a repeated
 * lookup is one hash probe. The route is always the first of the equal-cost set.
 *
 * <p>The cache belongs to one topology version: every query compares the version of the current
 * snapshot (one read) and starts afresh when it moved, and a topology or port change drops the
 * cache at once. Utilisation-based costs also expire after the configured refresh interval, since
 * load changes without any topology event.
 */
final class RoutingEngine {

    static final int MAX_K = 256;

    /** Beyond this many cached pairs per metric, equal-cost sets are computed but not kept. */
    static final int MAX_CACHED_PAIRS = 100_000;

    private final Supplier<Topology> topology;
    private final PortSpeeds speeds;
    private final Function<SwitchPort, PortRate> rates;
    private final LongSupplier nanoClock;
    private final AtomicLong searches = new AtomicLong();
    private volatile RoutingSettings settings = RoutingSettings.DEFAULTS;
    private volatile Snapshot snapshot;

    RoutingEngine(Supplier<Topology> topology, PortSpeeds speeds, Function<SwitchPort, PortRate> rates,
            LongSupplier nanoClock) {
        this.topology = topology;
        this.speeds = speeds;
        this.rates = rates;
        this.nanoClock = nanoClock;
    }

    RoutingSettings settings() {
        return settings;
    }

    /** Applies new settings; costs depend on them, so cached routes are dropped. */
    void configure(RoutingSettings newSettings) {
        settings = Objects.requireNonNull(newSettings);
        snapshot = null;
    }

    /** The topology changed: forget routes now rather than on the next query. */
    void topologyChanged() {
        snapshot = null;
    }

    /** A port's speed may have changed: capacity and utilisation costs must be read again. */
    void portsChanged() {
        snapshot = null;
    }

    Route route(DatapathId src, DatapathId dst, Metric metric) {
        List<Route> routes = equalCostRoutes(src, dst, metric);
        return routes.isEmpty() ? null : routes.get(0);
    }

    List<Route> equalCostRoutes(DatapathId src, DatapathId dst, Metric metric) {
        check(src, dst, metric);
        if (src.equals(dst)) {
            return List.of(empty(src));
        }
        Snapshot s = current();
        int from = s.graph.indexOf(src);
        int to = s.graph.indexOf(dst);
        if (from < 0 || to < 0) {
            return List.of();
        }
        return s.routes(metric).equalCost(from, to);
    }

    List<Route> kShortestRoutes(DatapathId src, DatapathId dst, int k, Metric metric) {
        check(src, dst, metric);
        if (k < 1 || k > MAX_K) {
            throw new IllegalArgumentException("k must be within 1.." + MAX_K + ", was " + k);
        }
        if (src.equals(dst)) {
            return List.of(empty(src));
        }
        Snapshot s = current();
        int from = s.graph.indexOf(src);
        int to = s.graph.indexOf(dst);
        if (from < 0 || to < 0) {
            return List.of();
        }
        Snapshot.MetricRoutes routes = s.routes(metric);
        Path shortest = routes.tree(from).firstPath(to);
        return toRoutes(s.graph, YenKShortestPaths.search(s.graph, routes.cost, shortest, to, k));
    }

    /** The cost of one link under a metric now, or NaN when the link is not routable. */
    double linkCost(Link link, Metric metric) {
        Snapshot s = current();
        int edge = s.graph.edgeOf(link);
        return edge < 0 ? Double.NaN : s.routes(metric).cost[edge];
    }

    /** Dijkstra searches run so far (cache misses), for tests and figures. */
    long searches() {
        return searches.get();
    }

    private Snapshot current() {
        Topology now = topology.get();
        long version = now == null ? Long.MIN_VALUE : now.version();
        Snapshot s = snapshot;
        RoutingSettings current = settings;
        if (s == null || s.version != version || s.settings != current) {
            // Two threads may both build one; each is correct for the version it read.
            s = new Snapshot(now, version, current);
            snapshot = s;
        }
        return s;
    }

    private static Route empty(DatapathId dpid) {
        return new Route(dpid, dpid, List.of(), 0);
    }

    private static List<Route> toRoutes(LinkGraph graph, List<Path> paths) {
        List<Route> routes = new ArrayList<>(paths.size());
        for (Path path : paths) {
            routes.add(path.toRoute(graph));
        }
        return List.copyOf(routes);
    }

    private static void check(DatapathId src, DatapathId dst, Metric metric) {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
        Objects.requireNonNull(metric, "metric");
    }

    /** One topology version's graph, and the costs and cached searches of each metric over it. */
    private final class Snapshot {

        final long version;
        final LinkGraph graph;
        final RoutingSettings settings;
        private final AtomicReferenceArray<MetricRoutes> byMetric =
                new AtomicReferenceArray<>(Metric.values().length);

        Snapshot(Topology topology, long version, RoutingSettings settings) {
            this.version = version;
            this.graph = topology == null ? LinkGraph.of(List.of(), List.of()) : LinkGraph.of(topology);
            this.settings = settings;
        }

        /** Lock-free when the costs are current; costs are computed under the lock, once. */
        MetricRoutes routes(Metric metric) {
            MetricRoutes routes = byMetric.get(metric.ordinal());
            if (routes != null && isCurrent(routes, metric, nanoClock.getAsLong())) {
                return routes;
            }
            synchronized (this) {
                long now = nanoClock.getAsLong();
                routes = byMetric.get(metric.ordinal());
                if (routes == null || !isCurrent(routes, metric, now)) {
                    routes = new MetricRoutes(LinkCost.of(graph, cost(metric)), now);
                    byMetric.set(metric.ordinal(), routes);
                }
                return routes;
            }
        }

        /** Only utilisation costs age: load moves without any topology event. */
        private boolean isCurrent(MetricRoutes routes, Metric metric, long now) {
            return metric != Metric.UTILISATION
                    || now - routes.createdNanos < settings.utilisationRefreshMs() * 1_000_000L;
        }

        private LinkCost cost(Metric metric) {
            return switch (metric) {
                case HOPS -> LinkCost.HOPS;
                case CAPACITY -> new CapacityCost(speeds, settings.unknownSpeedBps());
                case UTILISATION -> new UtilisationCost(rates, speeds, settings.unknownSpeedBps(),
                        settings.utilisationWeight());
            };
        }

        /** Costs of every edge, and the shortest-path tree of each source asked about so far. */
        final class MetricRoutes {

            final double[] cost;
            final long createdNanos;
            private final Map<Integer, ShortestPathTree> trees = new ConcurrentHashMap<>();
            private final Map<Long, List<Route>> equalCost = new ConcurrentHashMap<>();

            MetricRoutes(double[] cost, long createdNanos) {
                this.cost = cost;
                this.createdNanos = createdNanos;
            }

            ShortestPathTree tree(int source) {
                return trees.computeIfAbsent(source, s -> {
                    searches.incrementAndGet();
                    return Dijkstra.search(graph, cost, s);
                });
            }

            List<Route> equalCost(int from, int to) {
                long pair = (long) from << 32 | to;
                List<Route> routes = equalCost.get(pair);
                if (routes == null) {
                    routes = toRoutes(graph, tree(from).paths(to, settings.maxEcmpPaths()));
                    if (equalCost.size() < MAX_CACHED_PAIRS) {
                        equalCost.put(pair, routes);
                    }
                }
                return routes;
            }
        }
    }
}
