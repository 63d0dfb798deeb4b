package io.heliograph.core;

import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFType;

/**
 * The ordered listener pipelines, one per message type. The order comes from configuration by
 * listener name (pid {@code io.heliograph.pipelines}, key {@code order.<TYPE>}, e.g.
 * {@code order.PACKET_IN = topology,devices,forwarding,learningswitch}); a listener whose name the
 * order does not mention goes last. The order can be changed at runtime.
 *
 * <p>This is the operator's view (REST, web UI, shell); the OpenFlow layer runs messages through the
 * same pipelines with {@link io.heliograph.core.spi.PipelineDispatch}.
 */
public interface PipelineService {

    /** The names of the listeners currently in each non-empty pipeline, in order. */
    Map<OFType, List<String>> getPipelines();

    /** The configured name order for a type (may mention listeners that are not registered). */
    List<String> getOrder(OFType type);

    /**
     * Sets the name order for a type and reorders its pipeline at once. Names not registered are
     * kept in the order for when they register.
     */
    void setOrder(OFType type, List<String> names);
}
