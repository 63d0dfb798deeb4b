package io.heliograph.routing.internal.rest;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.routing.RoutingService;
import io.heliograph.topology.TopologyService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.Requests;

/**
 * Paths between two switches under {@code /api/v1/paths/{src}/{dst}}: the equal-cost shortest ones,
 * or with {@code k} the k shortest; {@code metric} HOPS, CAPACITY or UTILISATION (default: the
 * configured one). Registered while the routing app runs, so its paths go with it.
 */
@RestController
@ApiDescription("Paths between switches over the current topology (routing app)")
@Component(service = RestResource.class)
public final class PathsResource implements RestResource {

    private final RoutingService routing;
    private final TopologyService topology;

    @Activate
    public PathsResource(@Reference(name = "routing") RoutingService routing,
            @Reference(name = "topology") TopologyService topology) {
        this.routing = routing;
        this.topology = topology;
    }

    @ApiDescription("The equal-cost shortest paths from src to dst, or with k the k shortest in order of cost, under metric (HOPS, CAPACITY, UTILISATION)")
    @GetMapping("/api/v1/paths/{src}/{dst}")
    @OperationId("listPaths")
    public PathsView paths(@PathVariable("src") String srcText, @PathVariable("dst") String dstText,
            @RequestParam(name = "k", required = false) String kText,
            @RequestParam(name = "metric", required = false) String metricText) {
        DatapathId src = Requests.dpid("src", srcText);
        DatapathId dst = Requests.dpid("dst", dstText);
        Integer k = kText == null ? null : k(kText);
        Metric metric = metricText == null ? routing.getDefaultMetric() : metric(metricText);
        var switches = topology.getTopology().switches();
        if (!switches.contains(src)) {
            throw Requests.notFound("src", "switch " + src + " is not in the topology");
        }
        if (!switches.contains(dst)) {
            throw Requests.notFound("dst", "switch " + dst + " is not in the topology");
        }
        List<Route> routes;
        try {
            routes = k == null ? routing.getEqualCostRoutes(src, dst, metric)
                    : routing.getKShortestRoutes(src, dst, k, metric);
        } catch (IllegalArgumentException e) {
            // The routing service's own bound on k (and only k is left to check there).
            throw Requests.badRequest("k", e.getMessage());
        }
        return new PathsView(src.toString(), dst.toString(), metric.name(), k,
                routes.stream().map(PathsView.PathView::of).toList());
    }

    private static int k(String text) {
        try {
            int k = Integer.parseInt(text.trim());
            if (k >= 1) {
                return k;
            }
        } catch (NumberFormatException e) {
            // explained below
        }
        throw Requests.badRequest("k", "k must be a whole number of paths, at least 1, was '" + text + "'");
    }

    private static Metric metric(String text) {
        try {
            return Metric.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw Requests.badRequest("metric", "'" + text + "' is not a metric " + Arrays.toString(Metric.values()));
        }
    }
}
