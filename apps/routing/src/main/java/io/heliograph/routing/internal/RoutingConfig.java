package io.heliograph.routing.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

@ObjectClassDefinition(id = RoutingManager.PID, name = "Heliograph routing",
        description = "Shortest, equal-cost and k-shortest paths between switches over the current topology.")
@interface RoutingConfig {

    // A String rather than the enum, so a misspelt value is refused by our own message, not by SCR.
    @AttributeDefinition(description = "Metric used when a caller does not name one: HOPS (every link costs 1), "
            + "CAPACITY (10 Gbit/s divided by the link speed) or UTILISATION (1 + weight x measured load)",
            options = {
                @Option(label = "Hop count", value = "HOPS"),
                @Option(label = "Link capacity", value = "CAPACITY"),
                @Option(label = "Measured utilisation", value = "UTILISATION")})
    String defaultMetric() default "HOPS";

    @AttributeDefinition(description = "The most equal-cost routes returned for one pair of switches",
            min = "1", max = "1024")
    int maxEcmpPaths() default 16;

    @AttributeDefinition(description = "Under UTILISATION, a link costs 1 + this weight x its utilisation "
            + "(0..1): how many extra hops a saturated link is worth", min = "0", max = "1000000")
    double utilisationWeight() default 10.0;

    @AttributeDefinition(description = "Milliseconds utilisation-based costs are reused before port "
            + "statistics are read again", min = "0", max = "3600000")
    int utilisationRefreshMs() default 1000;

    @AttributeDefinition(description = "Speed in Mbit/s assumed for a link whose ports report none",
            min = "1", max = "1000000000")
    long unknownSpeedMbps() default 1000;
}
