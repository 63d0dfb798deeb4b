package io.heliograph.virtue.internal.rest;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;

/**
 * The request bodies of Virtue's REST API as the OpenAPI document describes them, so that a generated
 * client sends typed objects. The handlers read the bodies as plain JSON and check them member by
 * member (which is how a refusal names the member at fault); these records are the descriptions, never
 * parsed.
 */
final class Bodies {

    private Bodies() {
    }

    @ApiDescription("An Experiment Description File (the Virtue thesis's schema, Appendix B): every scalar a string,"
            + " but a switch's software and a link's ports")
    record Edf(
            @ApiDescription("experiment parameters: CPU_COUNT, CPU_SPEED (cycles/s), LINK_SPEED and"
                    + " INTRA_PM_LINK_SPEED (b/s), ...") Map<String, String> parameters,
            @JsonProperty(required = true) @ApiDescription("the PMs, each {id, parameters, vms: {vmId: {id, parameters}}};"
                    + " a VM that a route names has a MAC parameter") List<Object> pms,
            @JsonProperty(required = true) @ApiDescription("the switches, each {id (a datapath id), parameters, software}")
            List<Object> switches,
            @JsonProperty(required = true) @ApiDescription("the directed links, each {id, sourceId, sourcePort,"
                    + " destinationId, destinationPort, parameters}; a VM's link is at its real switch port")
            List<Object> links,
            @JsonProperty(required = true) @ApiDescription("the routes, each {sourceId, destinationId, linkIds}")
            List<Object> routes) {
    }

    @ApiDescription("A host agent's report for its VM")
    record Report(
            @JsonProperty(required = true) @ApiDescription("the VM, the one the agent key is for") String vm,
            @ApiDescription("the share of one of the PM's CPUs the VM used (1: one CPU busy)") Double cpu,
            @ApiDescription("application metrics, name to number (at most 64)") Map<String, Double> metrics) {
    }

    @ApiDescription("An optimisation to run on an experiment's measurements")
    record OptimisationRequest(
            @JsonProperty(required = true) @ApiSchema(values = {"random", "saC", "saCN", "saCNTM", "saAll", "greedyNet",
                    "greedyFill", "model"}) @ApiDescription("the placement algorithm") String algorithm,
            @ApiDescription("the seed (random when left out): the same seed gives the same plan") Long seed,
            @ApiDescription("the Model's time limit in seconds (60 when left out)") Integer timeLimitSeconds,
            @ApiDescription("average the rounds from this instant (ISO-8601; the last run's start when left out)")
            String from,
            @ApiDescription("average the rounds up to this instant (ISO-8601; the last run's end when left out)")
            String to,
            @ApiDescription("the averaged measurements to use instead of what was recorded: {cpu: {vm: cycles/s},"
                    + " nic: {vm: {sent, received}}, traffic: [{source, destination, bitsPerSecond}]}")
            Map<String, Object> measurements) {
    }
}
