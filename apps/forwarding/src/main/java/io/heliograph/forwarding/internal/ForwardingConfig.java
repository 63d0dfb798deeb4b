package io.heliograph.forwarding.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

@ObjectClassDefinition(id = ForwardingComponent.PID, name = "Heliograph forwarding",
        description = "Reactive forwarding along routed paths; floods on the topology's broadcast tree.")
@interface ForwardingConfig {

    @AttributeDefinition(description = "Seconds without traffic before a path's flows expire (0 = never)",
            min = "0", max = "65535")
    int idleTimeout() default 5;

    @AttributeDefinition(description = "Seconds before a path's flows expire whatever the traffic (0 = never)",
            min = "0", max = "65535")
    int hardTimeout() default 0;

    @AttributeDefinition(description = "Priority of forwarding flows (the learning switch uses 1)", min = "1",
            max = "65535")
    int priority() default 10;

    @AttributeDefinition(description = "Spread flows over equal-cost routes (off: always the first route)")
    boolean ecmp() default true;

    @AttributeDefinition(description = "What forwarding flows match, and so what ECMP spreads: MAC (host pairs), "
            + "IP (address pairs) or TRANSPORT (TCP/UDP connections)",
            options = {@Option(label = "MAC", value = "MAC"), @Option(label = "IP", value = "IP"),
                    @Option(label = "TRANSPORT", value = "TRANSPORT")})
    String matchGranularity() default "TRANSPORT";

    @AttributeDefinition(description = "The most installed paths remembered (each is what deletes its flows when a "
            + "link, switch or host it depends on changes). At the bound a new flow gets no path and no flows: its "
            + "packets are sent along the route by packet-outs, each switch on the way asking again; paths leave as "
            + "the switches report their flows expired", min = "1", max = "16777216")
    int maxInstalledPaths() default 32_768;

    @AttributeDefinition(description = "The most packets held, over every switch, while the switches downstream "
            + "confirm a new path (barriers). Beyond it a packet is not held but sent along its path at once",
            min = "0", max = "1048576")
    int maxHeldPackets() default 1_024;

    @AttributeDefinition(description = "Milliseconds held packets wait for the switches downstream to confirm their "
            + "path; then they are released as if it had come (a switch that never answers barriers is served all "
            + "the same)", min = "10", max = "60000")
    long heldTimeoutMs() default 2_000;
}
