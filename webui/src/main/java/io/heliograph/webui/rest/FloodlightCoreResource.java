package io.heliograph.webui.rest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.webui.api.ApiException;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * Floodlight's {@code /wm/core} paths, for scripts written against Floodlight:
 * {@code /wm/core/controller/switches/json}, {@code /wm/core/switch/{switchId}/{statType}/json}
 * ({@code switchId} a datapath id or {@code all}), {@code /wm/core/health/json} and
 * {@code /wm/core/memory/json}, answered in Floodlight's JSON shapes
 * ({@link FloodlightShapes}) from the same reads as {@code /api/v1/switches}. Errors are ours (JSON
 * with status, field and message), not Floodlight's 200 with an error text.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("Floodlight 1.x compatible switch paths, in Floodlight's JSON shapes")
public class FloodlightCoreResource implements RestResource {

    private static final Logger LOG = LoggerFactory.getLogger(FloodlightCoreResource.class);

    /** The statistics types served, as Floodlight names them in the path. */
    static final List<String> STAT_TYPES = List.of("port", "port-desc", "flow", "aggregate", "desc", "features",
            "table", "group", "group-desc", "meter", "meter-config");

    /** At most this many switches are asked at once by {@code switch/all}. */
    private static final int ALL_PARALLELISM = 16;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile SwitchService switches;

    volatile Duration timeout = SwitchQueries.DEFAULT_TIMEOUT;

    @ApiDescription("The connected switches, as Floodlight lists them")
    @GetMapping(path = "/wm/core/controller/switches/json", produces = "application/json")
    @OperationId("floodlightListSwitches")
    public List<Map<String, Object>> switches() {
        return queries().service().getSwitches().values().stream()
                .sorted(Comparator.comparing(sw -> sw.getId().getLong(), Long::compareUnsigned))
                .map(FloodlightShapes::switchLine).toList();
    }

    /** Floodlight's health check: healthy once the OpenFlow layer runs (as {@code /api/v1/health} says UP). */
    @ApiDescription("Whether the controller is healthy, as Floodlight answers it: {\"healthy\": true|false}")
    @GetMapping(path = "/wm/core/health/json", produces = "application/json")
    @OperationId("floodlightGetHealth")
    public Map<String, Object> health() {
        return Map.of("healthy", switches != null);
    }

    /** The JVM's heap as Floodlight reports it: bytes the heap holds now, and how many of them are free. */
    @ApiDescription("The controller JVM's heap in bytes, as Floodlight answers it: total and free")
    @GetMapping(path = "/wm/core/memory/json", produces = "application/json")
    @OperationId("floodlightGetMemory")
    public Map<String, Object> memory() {
        Runtime runtime = Runtime.getRuntime();
        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("total", runtime.totalMemory());
        memory.put("free", runtime.freeMemory());
        return memory;
    }

    @ApiDescription("A switch's statistics as Floodlight answers them; switchId all for every switch")
    @GetMapping(path = "/wm/core/switch/{switchId}/{statType}/json", produces = "application/json")
    @OperationId("floodlightGetSwitchStatistics")
    public Map<String, Object> statistics(
            @ApiDescription("datapath id (00:00:00:00:00:00:00:01, 0x1 or 1) or all") @PathVariable String switchId,
            @ApiDescription("port, port-desc, flow, aggregate, desc, features, table, group, group-desc, meter or "
                    + "meter-config") @PathVariable String statType) {
        SwitchQueries queries = queries();
        if (!STAT_TYPES.contains(statType)) {
            throw ApiException.badRequest("statType", "'" + DatapathIds.abbreviate(statType)
                    + "' is not a statistics type served here; use one of " + String.join(", ", STAT_TYPES));
        }
        if ("all".equals(switchId)) {
            return all(queries, statType);
        }
        return reply(queries, queries.find(switchId), statType);
    }

    /** Every switch's reply by datapath id; a switch that does not answer in time is left out (and logged). */
    private Map<String, Object> all(SwitchQueries queries, String statType) {
        List<OFSwitch> all = new ArrayList<>(queries.service().getSwitches().values());
        all.sort(Comparator.comparing(sw -> sw.getId().getLong(), Long::compareUnsigned));
        Map<String, Object> replies = new LinkedHashMap<>();
        if (all.isEmpty()) {
            return replies;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(all.size(), ALL_PARALLELISM),
                WorkerThreads.named("heliograph-rest-switch-all"));
        try {
            List<Future<Map<String, Object>>> answers = new ArrayList<>();
            for (OFSwitch sw : all) {
                answers.add(pool.submit(() -> reply(queries, sw, statType)));
            }
            for (int i = 0; i < all.size(); i++) {
                try {
                    replies.put(all.get(i).getId().toString(), answers.get(i).get());
                } catch (ExecutionException e) {
                    LOG.info("/wm/core/switch/all/{}/json leaves out {}: {}", statType, all.get(i).getId(),
                            e.getCause().getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw ApiException.unavailable("interrupted asking the switches");
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return replies;
    }

    private static Map<String, Object> reply(SwitchQueries queries, OFSwitch sw, String statType) {
        SwitchReads reads = new SwitchReads(queries);
        OFVersion v = sw.getVersion();
        return switch (statType) {
            case "port" -> FloodlightShapes.portReply(v, reads.portStatistics(sw));
            case "port-desc" -> FloodlightShapes.portDesc(v, SwitchViews.ports(sw.getPorts()));
            case "flow" -> FloodlightShapes.flows(v, reads.flows(sw));
            case "aggregate" -> FloodlightShapes.aggregate(v, reads.aggregate(sw));
            case "desc" -> FloodlightShapes.desc(v, queries.description(sw));
            case "features" -> FloodlightShapes.features(sw, SwitchViews.features(sw.getFeatures()),
                    SwitchViews.ports(sw.getPorts()));
            case "table" -> FloodlightShapes.tables(v, reads.tables(sw));
            case "group" -> FloodlightShapes.groupCounters(v, reads.groups(sw));
            case "group-desc" -> FloodlightShapes.groupDescs(v, reads.groups(sw));
            case "meter" -> FloodlightShapes.meterCounters(v, reads.meters(sw));
            case "meter-config" -> FloodlightShapes.meterConfigs(v, reads.meters(sw));
            default -> throw new IllegalStateException("unreachable: " + statType);
        };
    }

    private SwitchQueries queries() {
        return new SwitchQueries(switches, timeout);
    }
}
