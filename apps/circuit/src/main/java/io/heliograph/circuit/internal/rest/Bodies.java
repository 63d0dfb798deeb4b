package io.heliograph.circuit.internal.rest;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;

/**
 * The request bodies of the circuit app's REST API as the OpenAPI document describes them. The handlers
 * read the bodies as JSON text and check them member by member (so a refusal names the member at
 * fault); these records are the descriptions, never parsed.
 */
final class Bodies {

    private Bodies() {
    }

    @ApiDescription("The scheduler and demand estimator to use, on every instance of the cluster")
    record SchedulerChoice(
            @JsonProperty(required = true) @ApiSchema(values = {"solstice", "round-robin", "fixed"})
            @ApiDescription("the scheduler") String scheduler,
            @JsonProperty(required = true) @ApiSchema(values = {"voq", "adu"})
            @ApiDescription("the demand estimator") String estimator,
            @ApiDescription("the fixed scheduler's week {weekMicros, nightMicros, days: [{upMicros, sourceOf, dummy}]};"
                    + " without it the strobe") Map<String, Object> fixedWeek) {
    }

    @ApiDescription("The 5-tuple of a flow")
    record Flow(
            @JsonProperty(required = true) @ApiDescription("source host address") String src,
            @JsonProperty(required = true) @ApiDescription("source port") Integer srcPort,
            @JsonProperty(required = true) @ApiDescription("destination host address") String dst,
            @JsonProperty(required = true) @ApiDescription("destination port") Integer dstPort,
            @JsonProperty(required = true) @ApiDescription("IP protocol (6: TCP)") Integer protocol) {
    }

    @ApiDescription("One ADU report: bytes a flow's application wrote, or that it closed")
    record AduReport(
            @JsonProperty(required = true) @ApiDescription("the flow") Flow flow,
            @ApiDescription("bytes written, a whole number from 0 to 10^12") Long bytes,
            @ApiDescription("true: the flow closed") Boolean closed) {
    }
}
