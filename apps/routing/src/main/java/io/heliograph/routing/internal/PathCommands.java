package io.heliograph.routing.internal;

import java.util.List;
import java.util.Locale;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.DatapathIds;
import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.routing.RoutingService;
import io.heliograph.topology.Link;

/**
 * Gogo shell command to see routes in a running controller: {@code heliograph:path <src> <dst>}
 * shows every equal-cost shortest route; {@code path <src> <dst> <k>} the k shortest loop-free
 * routes (Yen); a fourth argument names the metric, otherwise the configured default is used.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=path",
    "heliograph.command.help=path SRC DST [K [METRIC]]|"
        + "the K shortest routes between two switches under a metric (HOPS, CAPACITY, UTILISATION)"})
public final class PathCommands {

    private final RoutingService routing;
    private final LinkCosts costs;

    @Activate
    public PathCommands(@Reference(name = "routing") RoutingService routing,
            @Reference(name = "costs") LinkCosts costs) {
        this.routing = routing;
        this.costs = costs;
    }

    /** The equal-cost shortest routes under the default metric. */
    public String path(String src, String dst) {
        return run(src, dst, null, null);
    }

    /** The k shortest routes under the default metric. */
    public String path(String src, String dst, String k) {
        return run(src, dst, k, null);
    }

    /** The k shortest routes under the named metric (HOPS, CAPACITY, UTILISATION). */
    public String path(String src, String dst, String k, String metric) {
        return run(src, dst, k, metric);
    }

    private String run(String srcText, String dstText, String kText, String metricText) {
        DatapathId src;
        DatapathId dst;
        int k;
        Metric metric;
        try {
            src = DatapathIds.parse(srcText);
            dst = DatapathIds.parse(dstText);
            k = kText == null ? 0 : parseK(kText);
            metric = metricText == null ? routing.getDefaultMetric() : parseMetric(metricText);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        List<Route> routes = k == 0 ? routing.getEqualCostRoutes(src, dst, metric)
                : routing.getKShortestRoutes(src, dst, k, metric);
        return format(src, dst, k, metric, routes);
    }

    private String format(DatapathId src, DatapathId dst, int k, Metric metric, List<Route> routes) {
        StringBuilder out = new StringBuilder();
        out.append(src).append(" -> ").append(dst).append(", metric ").append(metric).append(": ");
        if (routes.isEmpty()) {
            return out.append("no route").toString();
        }
        out.append(routes.size()).append(k == 0 ? " equal-cost route" : " shortest route")
                .append(routes.size() == 1 ? "" : "s").append('\n');
        for (int i = 0; i < routes.size(); i++) {
            Route route = routes.get(i);
            out.append('#').append(i + 1).append(": ").append(route.hops()).append(route.hops() == 1 ? " hop" : " hops")
                    .append(", cost ").append(number(route.cost())).append('\n');
            if (route.hops() == 0) {
                out.append("    same switch\n");
            }
            for (Link link : route.links()) {
                out.append("    ").append(link.src()).append(" -> ").append(link.dst())
                        .append("  cost ").append(number(costs.linkCost(link, metric))).append('\n');
            }
        }
        return out.toString().stripTrailing();
    }

    private static int parseK(String text) {
        try {
            int k = Integer.parseInt(text.trim());
            if (k >= 1 && k <= RoutingEngine.MAX_K) {
                return k;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException("k must be a number within 1.." + RoutingEngine.MAX_K + ", was '" + text
                + "'");
    }

    private static Metric parseMetric(String text) {
        try {
            return Metric.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not a metric (HOPS, CAPACITY or UTILISATION)");
        }
    }

    private static String number(double value) {
        if (Double.isNaN(value)) {
            return "?";
        }
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%.3f", value);
    }
}
