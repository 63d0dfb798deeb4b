package io.heliograph.learningswitch;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = LearningSwitchComponent.PID, name = "Heliograph learning switch",
        description = "Learns where hosts are and installs flows between them; floods unknown destinations.")
@interface LearningSwitchConfig {

    @AttributeDefinition(description = "Seconds without traffic before a learned flow expires (0 = never)",
            min = "0", max = "65535")
    int idleTimeout() default 5;

    @AttributeDefinition(description = "Seconds before a learned flow expires whatever the traffic (0 = never)",
            min = "0", max = "65535")
    int hardTimeout() default 0;

    @AttributeDefinition(description = "Priority of learned flows (the table-miss flow has 0)", min = "0", max = "65535")
    int priority() default 1;

    @AttributeDefinition(description = "The most MAC addresses remembered per switch. At the bound a new address "
            + "takes the place of one not seen for hostIdleMs, or is refused (its packets are flooded) when every "
            + "address was seen more recently: a MAC flood never pushes out hosts that are talking", min = "1",
            max = "16777216")
    int maxHosts() default 65_536;

    @AttributeDefinition(description = "The most MAC addresses remembered per port of a switch (at most maxHosts), "
            + "so a flood on one port leaves room for the others; the same rule applies at this bound. The default "
            + "is the whole table: a port facing another switch carries every host behind it", min = "1",
            max = "16777216")
    int maxHostsPerPort() default 65_536;

    @AttributeDefinition(description = "Milliseconds: an address seen (as source or destination) within this "
            + "long is never evicted for a new one", min = "1000")
    long hostIdleMs() default 120_000;
}
