package io.heliograph.routing.internal;

import io.heliograph.topology.Link;

/** What one link costs under a metric. Costs are positive and finite. */
@FunctionalInterface
interface LinkCost {

    double cost(Link link);

    LinkCost HOPS = link -> 1.0;

    /** Every edge's cost, by edge index; a cost that is not positive and finite is refused by link. */
    static double[] of(LinkGraph graph, LinkCost metric) {
        double[] costs = new double[graph.edgeCount()];
        for (int edge = 0; edge < costs.length; edge++) {
            double cost = metric.cost(graph.link(edge));
            if (!(cost > 0) || Double.isInfinite(cost)) {
                throw new IllegalStateException("cost of " + graph.link(edge) + " is " + cost
                        + "; link costs must be positive and finite");
            }
            costs[edge] = cost;
        }
        return costs;
    }
}
