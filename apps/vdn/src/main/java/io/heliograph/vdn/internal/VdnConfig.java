package io.heliograph.vdn.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = VdnComponent.PID, name = "Heliograph VDN",
        description = "Live video delivery with hybrid control: how often and how long the central optimiser decides, "
                + "and what the clusters' local agents are told about staleness, the controller's timeout and old versions.")
@interface VdnConfig {

    @AttributeDefinition(description = "Seconds between central decisions (the thesis: about 60)", min = "1")
    long periodSeconds() default 60;

    @AttributeDefinition(description = "The optimiser's time limit, seconds, at most the period", min = "1")
    long timeLimitSeconds() default 50;

    @AttributeDefinition(description = "The optimiser stops at this relative gap, percent", min = "0", max = "100")
    double gapPercent() default 1;

    @AttributeDefinition(description = "The optimiser's solver threads (it shares the machine with the controller's I/O)",
            min = "1", max = "2")
    int workers() default 2;

    @AttributeDefinition(description = "A local agent treats a central entry as stale when a link of its evidence "
            + "changed by more than this, percent (the thesis: 20)", min = "1", max = "100")
    int stalePercent() default 20;

    @AttributeDefinition(description = "A local agent without a new RIB for this long goes purely distributed, seconds "
            + "(at least the period; the spec suggests twice it)", min = "1")
    long controllerTimeoutSeconds() default 120;

    @AttributeDefinition(description = "The older RIB versions a local agent keeps (shadow FIBs) for requests tagged "
            + "with them", min = "0", max = "16")
    int shadowVersions() default 3;

    @AttributeDefinition(description = "A cluster's report older than this, seconds, is left out of a decision "
            + "(its viewers gone, its links as configured)", min = "1")
    long reportTimeoutSeconds() default 180;
}
