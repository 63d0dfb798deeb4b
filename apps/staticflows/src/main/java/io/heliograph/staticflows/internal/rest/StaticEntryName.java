package io.heliograph.staticflows.internal.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.heliograph.webui.api.ApiDescription;

/** The body of Floodlight's delete, as the OpenAPI document describes it (the handler reads it as text). */
@ApiDescription("The static entry to delete: by name, on one switch or on every switch")
@JsonInclude(JsonInclude.Include.NON_NULL)
record StaticEntryName(
        @JsonProperty(required = true) @ApiDescription("the entry's name") String name,
        @JsonProperty("switch") @ApiDescription("the switch's datapath id; every switch when left out") String dpid) {
}
