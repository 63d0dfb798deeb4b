package io.heliograph.webui.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.heliograph.webui.rest.SwitchJson.Port;
import io.heliograph.webui.rest.SwitchJson.Summary;

/**
 * A {@code switch} live event: {@code action} is {@code connected}, {@code disconnected} or {@code changed}
 * (a port was added, deleted or modified: {@code portChange} and the {@code port} as it is now, or was
 * when deleted); {@code switch} is the switch as the switch list shows it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SwitchChange(String action, String dpid, @JsonProperty("switch") Summary sw, String portChange, Port port) {
}
