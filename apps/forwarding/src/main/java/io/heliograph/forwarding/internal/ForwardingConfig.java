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
}
