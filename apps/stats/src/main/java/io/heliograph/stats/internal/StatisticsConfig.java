package io.heliograph.stats.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = StatisticsComponent.PID, name = "Heliograph statistics",
        description = "Polls every switch for port, flow, table, group and meter statistics; keeps rates and "
                + "the host-to-host traffic matrix.")
@interface StatisticsConfig {

    @AttributeDefinition(description = "Milliseconds between polls of every switch", min = "100", max = "86400000")
    long intervalMs() default 5_000;

    @AttributeDefinition(description = "Rates kept per port and per flow entry (the recent history)",
            min = "1", max = "100000")
    int historySize() default 60;

    @AttributeDefinition(description = "Milliseconds to wait for a switch's whole statistics reply",
            min = "100", max = "600000")
    long timeoutMs() default 10_000;

    @AttributeDefinition(description = "The longest wait in milliseconds between two requests of one kind (port, flow, "
            + "table, group, meter) to a switch that does not answer them: after n unanswered requests in a row the next "
            + "waits intervalMs * 2^n, up to this (never less than intervalMs); the switch is polled at intervalMs again "
            + "once it answers", min = "100", max = "86400000")
    long backoffMaxMs() default 300_000;

    @AttributeDefinition(description = "Whether /metrics has each port's counters and rates (twelve series a port, "
            + "labelled dpid and port): turn off where a large network would make too many series")
    boolean portMetrics() default true;
}
