package io.heliograph.staticflows.internal.rest;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;

/**
 * The body of a static entry write as the OpenAPI document describes it, so that a generated client
 * sends a typed object. The handlers read the body as text and validate it member by member
 * ({@link EntryDocument}), which is how a refusal names the member at fault and how Floodlight's
 * documents, numbers written as strings included, keep being accepted; this record is that body's
 * description, never parsed. A flow's match fields ({@code eth_type}, {@code ipv4_dst},
 * {@code tcp_dst}, ...) are further members at the top level, as in Floodlight.
 */
@ApiDescription("A static flow, group or meter with Floodlight's member names; a flow's match fields"
        + " (eth_type, ipv4_dst, tcp_dst, ...) are further members of this object")
@JsonInclude(JsonInclude.Include.NON_NULL)
record StaticEntryBody(
        @JsonProperty(value = "switch", required = true)
        @ApiDescription("the switch's datapath id (00:00:00:00:00:00:00:01, 0x1 or 1)") String dpid,
        @JsonProperty(required = true) @ApiDescription("the entry's name, unique on its switch") String name,
        @JsonProperty("entry_type") @ApiSchema(values = {"flow", "group", "meter"})
        @ApiDescription("flow when left out; must agree with the path's kind") String entryType,
        @ApiDescription("false: stored but not installed") Boolean active,
        @ApiDescription("flow: its table, 0 when left out") Integer table,
        @ApiDescription("flow: its priority") Integer priority,
        @JsonProperty("idle_timeout") @ApiDescription("flow: seconds idle before the switch removes it") Integer idleTimeout,
        @JsonProperty("hard_timeout") @ApiDescription("flow: seconds before the switch removes it") Integer hardTimeout,
        @ApiDescription("flow: its cookie's low 48 bits") Long cookie,
        @ApiDescription("flow: flow-mod flags, e.g. send_flow_rem") List<String> flags,
        @ApiDescription("flow: the actions to apply, e.g. output=2,set_field=eth_dst->00:00:00:00:00:01")
        String actions,
        @JsonProperty("instruction_apply_actions") @ApiDescription("flow: the same as actions") String applyActions,
        @JsonProperty("instruction_write_actions") @ApiDescription("flow: actions to write to the action set")
        String writeActions,
        @JsonProperty("instruction_clear_actions") @ApiDescription("flow: clear the action set") Boolean clearActions,
        @JsonProperty("instruction_goto_table") @ApiDescription("flow: the table to continue in") Integer gotoTable,
        @JsonProperty("instruction_goto_meter") @ApiDescription("flow: the meter to apply") Long gotoMeter,
        @JsonProperty("instruction_write_metadata") @ApiDescription("flow: metadata to write, value/mask")
        String writeMetadata,
        @JsonProperty("group_id") @ApiDescription("group: its id on the switch") Long groupId,
        @JsonProperty("group_type") @ApiSchema(values = {"all", "select", "indirect", "fast_failover", "ff"})
        @ApiDescription("group: its type, all when left out") String groupType,
        @JsonProperty("group_buckets") @ApiDescription("group: its buckets") List<Bucket> groupBuckets,
        @JsonProperty("meter_id") @ApiDescription("meter: its id on the switch") Long meterId,
        @JsonProperty("meter_flags") @ApiDescription("meter: kbps or pktps, burst, stats") List<String> meterFlags,
        @JsonProperty("meter_bands") @ApiDescription("meter: its bands") List<Band> meterBands) {

    /** A group's bucket. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Bucket(
            @JsonProperty("bucket_weight") Integer weight,
            @JsonProperty("bucket_watch_port") String watchPort,
            @JsonProperty("bucket_watch_group") Long watchGroup,
            @JsonProperty("bucket_actions") @ApiDescription("e.g. output=3") String actions) {
    }

    /** A meter's band. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Band(
            @ApiSchema(values = {"drop", "dscp_remark"}) @ApiDescription("drop when left out") String type,
            Long rate,
            @JsonProperty("burst_size") Long burstSize,
            @JsonProperty("prec_level") Integer precLevel) {
    }
}
