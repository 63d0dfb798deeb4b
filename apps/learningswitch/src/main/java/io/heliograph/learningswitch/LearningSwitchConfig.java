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

    @AttributeDefinition(description = "The most MAC addresses remembered per switch; beyond it the least "
            + "recently used are forgotten", min = "1", max = "16777216")
    int maxHosts() default 65_536;
}
