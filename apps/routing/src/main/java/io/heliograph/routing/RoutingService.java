package io.heliograph.routing;

import java.util.List;

import org.projectfloodlight.openflow.types.DatapathId;

/** Paths over the current topology. Answers are consistent with one topology snapshot. */
public interface RoutingService {

    /** A shortest path, or null when dst is unreachable. src == dst gives an empty route. */
    Route getRoute(DatapathId src, DatapathId dst, Metric metric);

    /**
     * Every shortest path (equal cost), for ECMP, up to the configured maxEcmpPaths, in dpid/port
     * order; empty when unreachable. src == dst gives one empty route.
     */
    List<Route> getEqualCostRoutes(DatapathId src, DatapathId dst, Metric metric);

    /** Up to k loop-free paths in order of cost (Yen's algorithm). */
    List<Route> getKShortestRoutes(DatapathId src, DatapathId dst, int k, Metric metric);

    /** The metric to use when the caller has no preference: configuration's defaultMetric. */
    default Metric getDefaultMetric() {
        return Metric.HOPS;
    }
}
