package io.heliograph.routing.internal;

import io.heliograph.routing.Metric;
import io.heliograph.topology.Link;

/** Per-link costs, for the shell to show each hop's share of a route. Private to this bundle. */
interface LinkCosts {

    /** The cost of one link under a metric now, or NaN when the link is not routable. */
    double linkCost(Link link, Metric metric);
}
