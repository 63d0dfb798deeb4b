package io.heliograph.routing;

/** How a link's cost is computed when paths are chosen. */
public enum Metric {
    /** Every link costs 1. */
    HOPS,
    /** Cost inversely proportional to the link's capacity (its ports' current speed). */
    CAPACITY,
    /** Cost grows with the link's measured utilisation (from statistics), so busy links are avoided. */
    UTILISATION
}
