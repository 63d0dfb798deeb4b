package io.heliograph.core.pipeline;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Metatype for pid {@code io.heliograph.pipelines}. The common types are listed so tools can show
 * them; any other {@code order.<TYPE>} key is read too.
 */
@ObjectClassDefinition(id = MessagePipelines.PID, name = "Heliograph listener pipelines",
        description = "The order of the message listeners in each OpenFlow message type's pipeline, by "
                + "listener name. Listeners not named go last, in registration order. Any message type "
                + "can be ordered with a key order.<TYPE>.")
public @interface PipelinesConfig {

    @AttributeDefinition(name = "PACKET_IN order", description = "Comma-separated listener names.")
    String order_PACKET__IN() default "topology,devices,forwarding,learningswitch";

    @AttributeDefinition(name = "PORT_STATUS order", description = "Comma-separated listener names.",
            required = false)
    String order_PORT__STATUS() default "";

    @AttributeDefinition(name = "FLOW_REMOVED order", description = "Comma-separated listener names.",
            required = false)
    String order_FLOW__REMOVED() default "";

    @AttributeDefinition(name = "ERROR order", description = "Comma-separated listener names.",
            required = false)
    String order_ERROR() default "";
}
