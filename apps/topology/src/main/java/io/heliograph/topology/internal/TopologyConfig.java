package io.heliograph.topology.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = TopologyComponent.PID, name = "Heliograph topology",
        description = "LLDP link discovery between switches, islands and broadcast trees.")
@interface TopologyConfig {

    @AttributeDefinition(description = "Milliseconds between two LLDP probes of every switch port", min = "100",
            max = "3600000")
    long lldpIntervalMs() default 5_000;

    @AttributeDefinition(description = "Milliseconds without a probe across a link before the link is removed; "
            + "longer than lldpIntervalMs", min = "101")
    long linkTimeoutMs() default 15_000;

    @AttributeDefinition(description = "Milliseconds a probe may take to come back before it is refused as a "
            + "replay", min = "1")
    long lldpMaxAgeMs() default 3_000;
}
