package io.heliograph.webui.rest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.projectfloodlight.openflow.protocol.OFType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.PipelineService;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * {@code /api/v1/pipelines}: the listener order of each OpenFlow message type. GET shows the
 * listeners in the order they run and the configured name order; {@code PUT /{type}} with a JSON
 * array of listener names reorders that type's pipeline at once (running listeners it does not
 * mention run after, in registration order). A name must be a listener of that pipeline or one its
 * configured order already holds, so a typo is refused rather than kept; a configured name whose
 * app is stopped and that the request leaves out stays in the order, after the names given, so the
 * app finds its place when it starts again.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("The listener pipelines: which listeners see each OpenFlow message type, in which order")
@RequestMapping(path = "/api/v1/pipelines", produces = "application/json")
public class PipelineResource implements RestResource {

    static final int MAX_NAMES = 256;
    static final String TYPE = "OpenFlow message type, e.g. PACKET_IN";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    /** One type's pipeline: the listeners in the order they run, and the configured name order. */
    public record Pipeline(String type, List<String> listeners, List<String> order) {
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile PipelineService pipelines;

    /** Every type whose pipeline has listeners or whose order is configured. */
    @ApiDescription("Every pipeline with listeners or a configured order")
    @GetMapping
    @OperationId("listPipelines")
    public List<Pipeline> list() {
        PipelineService service = service();
        Map<OFType, List<String>> running = service.getPipelines();
        List<Pipeline> all = new ArrayList<>();
        for (OFType type : OFType.values()) {
            List<String> listeners = running.getOrDefault(type, List.of());
            List<String> order = service.getOrder(type);
            if (!listeners.isEmpty() || !order.isEmpty()) {
                all.add(new Pipeline(type.name(), listeners, order));
            }
        }
        return all;
    }

    @ApiDescription("One message type's pipeline")
    @GetMapping("/{type}")
    @OperationId("getPipeline")
    public Pipeline one(@ApiDescription(TYPE) @PathVariable String type) {
        PipelineService service = service();
        return view(service, parseType(type));
    }

    @ApiDescription("Reorders a pipeline: the body is a JSON array of listener names, first runs first")
    @PutMapping(path = "/{type}", consumes = "application/json")
    @OperationId("reorderPipeline")
    public Pipeline reorder(@ApiDescription(TYPE) @PathVariable String type,
            @ApiDescription("listener names, first runs first") @ApiSchema(type = String[].class)
            @RequestBody(required = false) Object body) {
        PipelineService service = service();
        OFType parsed = parseType(type);
        List<String> names = parseNames(body);
        List<String> running = service.getPipelines().getOrDefault(parsed, List.of());
        List<String> previous = service.getOrder(parsed);
        Set<String> known = new HashSet<>(running);
        known.addAll(previous);
        for (int i = 0; i < names.size(); i++) {
            if (!known.contains(names.get(i))) {
                throw ApiException.badRequest("names[" + i + "]", "'" + names.get(i) + "' is not a listener of the "
                        + parsed + " pipeline (listeners: " + String.join(", ", sorted(known)) + ")");
            }
        }
        // listeners that are not running now (their app stopped) and the request leaves out stay in the order
        List<String> order = new ArrayList<>(names);
        previous.stream().filter(n -> !names.contains(n) && !running.contains(n)).forEach(order::add);
        service.setOrder(parsed, order);
        return view(service, parsed);
    }

    private PipelineService service() {
        PipelineService service = pipelines;
        if (service == null) {
            throw ApiException.unavailable("the listener pipelines are not running");
        }
        return service;
    }

    private static Pipeline view(PipelineService service, OFType type) {
        return new Pipeline(type.name(), service.getPipelines().getOrDefault(type, List.of()), service.getOrder(type));
    }

    static OFType parseType(String type) {
        try {
            return OFType.valueOf(type.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("type", "'" + DatapathIds.abbreviate(type) + "' is not an OpenFlow message "
                    + "type (e.g. PACKET_IN, PORT_STATUS, FLOW_REMOVED)");
        }
    }

    /**
     * The body, as JSON reads into plain Java (lists, maps, strings, numbers): an array of distinct
     * listener names. Malformed JSON never gets here; the web bundle refuses it as a bad request.
     */
    static List<String> parseNames(Object body) {
        if (body == null) {
            throw ApiException.badRequest("names", "the body must be a JSON array of listener names, e.g. "
                    + "[\"topology\",\"forwarding\"]");
        }
        if (!(body instanceof List<?> list)) {
            throw ApiException.badRequest("names", "the body must be a JSON array of listener names, not "
                    + jsonType(body));
        }
        if (list.size() > MAX_NAMES) {
            throw ApiException.badRequest("names", list.size() + " names; at most " + MAX_NAMES);
        }
        List<String> names = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String field = "names[" + i + "]";
            if (!(list.get(i) instanceof String name)) {
                throw ApiException.badRequest(field, "a listener name must be a string, not " + jsonType(list.get(i)));
            }
            if (!NAME.matcher(name).matches()) {
                throw ApiException.badRequest(field, "'" + DatapathIds.abbreviate(name) + "' is not a listener name "
                        + "(letters, digits, '.', '_' and '-', at most 64)");
            }
            if (!seen.add(name)) {
                throw ApiException.badRequest(field, "'" + name + "' is named twice");
            }
            names.add(name);
        }
        return names;
    }

    private static String jsonType(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Map<?, ?>) {
            return "object";
        }
        if (value instanceof List<?>) {
            return "array";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Number) {
            return "number";
        }
        return value instanceof Boolean ? "boolean" : value.getClass().getSimpleName();
    }

    private static List<String> sorted(Set<String> names) {
        String[] array = names.toArray(String[]::new);
        Arrays.sort(array);
        return List.of(array);
    }
}
