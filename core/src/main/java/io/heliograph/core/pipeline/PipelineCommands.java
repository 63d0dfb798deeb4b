package io.heliograph.core.pipeline;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.PipelineService;

/**
 * Gogo shell commands to see and change the pipelines of a running controller:
 * {@code heliograph:pipelines} and {@code heliograph:order PACKET_IN topology,learningswitch}.
 * The shell finds them by the service properties; no Gogo type is needed.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=pipelines",
    "osgi.command.function=order",
    ConsoleCommands.HELP + "=pipelines|the listener pipelines, e.g. PACKET_IN: learningswitch",
    ConsoleCommands.HELP + "=order TYPE [NAME,NAME...]|the configured order of one message type, or reorder it now "
        + "(until its configuration changes)"})
public final class PipelineCommands {

    private final PipelineService service;

    @Activate
    public PipelineCommands(@Reference PipelineService service) {
        this.service = service;
    }

    /** Every non-empty pipeline, one line per message type, listeners in order. */
    public String pipelines() {
        Map<OFType, List<String>> pipelines = service.getPipelines();
        if (pipelines.isEmpty()) {
            return "no listeners";
        }
        StringBuilder out = new StringBuilder();
        pipelines.forEach((type, names) -> out.append(type).append(": ").append(String.join(" -> ", names))
                .append('\n'));
        return out.toString().stripTrailing();
    }

    /** The configured order of one type. */
    public String order(String type) {
        OFType parsed = parse(type);
        return parsed == null ? unknown(type) : parsed + " order: " + String.join(",", service.getOrder(parsed));
    }

    /** Sets the order of one type (comma-separated names) until the configuration of that type changes. */
    public String order(String type, String names) {
        OFType parsed = parse(type);
        if (parsed == null) {
            return unknown(type);
        }
        service.setOrder(parsed, Arrays.asList(names.split(",")));
        return parsed + " order: " + String.join(",", service.getOrder(parsed)) + "\n" + pipelines();
    }

    private static OFType parse(String type) {
        try {
            return OFType.valueOf(type.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String unknown(String type) {
        return "'" + type + "' is not an OpenFlow message type (e.g. PACKET_IN, PORT_STATUS, FLOW_REMOVED)";
    }
}
