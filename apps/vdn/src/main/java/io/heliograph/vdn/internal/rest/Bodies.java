package io.heliograph.vdn.internal.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import java.util.List;
import java.util.Map;

/**
 * The request bodies of the VDN app's REST API as the OpenAPI document describes them. The handlers read
 * the bodies as JSON text and check them member by member (so a refusal names the member at fault by its
 * JSON path); these records are the descriptions, never parsed.
 */
final class Bodies {

    private Bodies() {
    }

    @ApiDescription("A node of the overlay: a CDN cluster or a client group ((city, AS) pair)")
    record Node(
            @JsonProperty(required = true) @ApiDescription("its id, no spaces and no '->'") String id,
            @JsonProperty(required = true) @ApiSchema(values = {"source", "reflector", "edge", "client-group"})
            @ApiDescription("its tier") String tier,
            @ApiDescription("grid x, a whole number (for nearest and close)") Long x,
            @ApiDescription("grid y, a whole number") Long y) {
    }

    @ApiDescription("A directed overlay link from one tier to the next")
    record Link(
            @JsonProperty(required = true) @ApiDescription("the node it leaves") String from,
            @JsonProperty(required = true) @ApiDescription("the node it enters, in the next tier") String to,
            @JsonProperty(required = true) @ApiDescription("capacity available to video, kbit/s") Long capacityKbps,
            @JsonProperty(required = true) @ApiDescription("relative price of a kbit/s on it, a whole number") Long cost) {
    }

    @ApiDescription("The CDN's overlay")
    record Topology(
            @JsonProperty(required = true) @ApiDescription("every cluster and client group") List<Node> nodes,
            @JsonProperty(required = true) @ApiDescription("every link") List<Link> links) {
    }

    @ApiDescription("The central optimiser's knobs; a member left out keeps its default")
    record Knobs(
            @ApiDescription("weight of service (priority of each request served), default 10,000,000") Long serviceWeight,
            @ApiDescription("weight of cost (price times kbit/s moved), default 1") Long costWeight,
            @ApiSchema(values = {"balanced", "quality", "quantity"})
            @ApiDescription("priority of every object: 1, its Mb/s, or 1 over its Mb/s") String priorityScheme,
            @ApiDescription("priority overrides by video or video/bitrate, whole numbers from 1") Map<String, Long> priorities,
            @ApiDescription("costs by link (from->to) in place of the topology's") Map<String, Long> linkCosts) {
    }

    @ApiDescription("Clients of a client group watching a video at a bitrate")
    record Viewers(
            @JsonProperty(required = true) @ApiDescription("the client group, linked to this edge") String group,
            @JsonProperty(required = true) @ApiDescription("the video") String video,
            @JsonProperty(required = true) @ApiDescription("the bitrate, kbit/s") Long bitrateKbps,
            @JsonProperty(required = true) @ApiDescription("how many clients") Long clients) {
    }

    @ApiDescription("A local agent's report for its cluster")
    record Report(
            @JsonProperty(required = true) @ApiDescription("the cluster: the agent's own") String cluster,
            @ApiDescription("measured capacity of links touching the cluster, kbit/s, by from->to") Map<String, Long> links,
            @ApiDescription("links touching the cluster that timed out") List<String> failed,
            @ApiDescription("at an edge, its client groups' viewers") List<Viewers> viewers) {
    }

    @ApiDescription("A local agent's FIB: the RIB merged with its local decisions")
    record Fib(
            @JsonProperty(required = true) @ApiSchema(values = {"CENTRAL", "DISTRIBUTED"})
            @ApiDescription("DISTRIBUTED once the controller timed out") String mode,
            @ApiDescription("the older RIB versions kept (shadow FIBs)") List<Long> shadows,
            @JsonProperty(required = true) @ApiDescription("the entries in use: {partition (the cluster), version, "
                    + "issuedAt, decisions: [{key, value (next hop), origin, version, decidedAt, evidence}]}")
            Map<String, Object> table,
            @ApiDescription("serving figures, whole numbers: joins, join time, clients, bitrates") Map<String, Long> serving) {
    }
}
