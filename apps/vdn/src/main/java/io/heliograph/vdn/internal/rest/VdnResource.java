package io.heliograph.vdn.internal.rest;

import io.heliograph.core.Refusal;
import io.heliograph.core.json.Json;
import io.heliograph.vdn.internal.Vdn;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.ApiSchema;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The VDN app under {@code /api/v1/vdn}: the operator's topology and knobs, the agents' keys, each
 * cluster's reports, RIB and FIB, the trees of each video and the latest decision. Registered while the
 * VDN app runs. A bad body is a 400 naming its JSON path; an agent speaking for another's cluster a 403;
 * neither changes anything.
 */
@RestController
@ApiDescription("Live video delivery with hybrid central/local control: topology, knobs, clusters' RIBs and FIBs, "
        + "distribution trees (VDN app)")
@Component(service = RestResource.class)
public final class VdnResource implements RestResource {

    static final String BASE = "/api/v1/vdn";

    private final Vdn vdn;

    @Activate
    public VdnResource(@Reference Vdn vdn) {
        this.vdn = vdn;
    }

    @ApiDescription("The CDN's overlay: sources, reflectors, edges and client groups, links with capacity and cost")
    @GetMapping(BASE + "/topology")
    @OperationId("getVdnTopology")
    public Map<String, Object> topology() {
        return vdn.topology();
    }

    @ApiDescription("Replaces the topology; the next decision uses it; clusters new to it get agent keys")
    @PutMapping(BASE + "/topology")
    @OperationId("putVdnTopology")
    public Map<String, Object> putTopology(@ApiSchema(type = Bodies.Topology.class) @RequestBody(required = false) String body) {
        return vdn.putTopology(parse(body));
    }

    @ApiDescription("The optimiser's knobs: service and cost weights, priority scheme and overrides, link costs")
    @GetMapping(BASE + "/knobs")
    @OperationId("getVdnKnobs")
    public Map<String, Object> knobs() {
        return vdn.knobs();
    }

    @ApiDescription("Replaces the knobs; the next decision uses them")
    @PutMapping(BASE + "/knobs")
    @OperationId("putVdnKnobs")
    public Map<String, Object> putKnobs(@ApiSchema(type = Bodies.Knobs.class) @RequestBody(required = false) String body) {
        return vdn.putKnobs(parse(body));
    }

    @ApiDescription("The key each cluster's local agent speaks with (header X-Vdn-Agent-Key)")
    @GetMapping(BASE + "/agents")
    @OperationId("getVdnAgentKeys")
    public Map<String, String> agents() {
        return vdn.agentKeys();
    }

    @ApiDescription("Every cluster: tier, its agent's last report and FIB, the RIB version it was given")
    @GetMapping(BASE + "/clusters")
    @OperationId("getVdnClusters")
    public List<Map<String, Object>> clusters() {
        return vdn.clusters();
    }

    @ApiDescription("A local agent's report for its cluster: measured link capacities, timed-out links, viewers")
    @PostMapping(BASE + "/clusters/{id}/report")
    @OperationId("reportVdnCluster")
    public Map<String, Object> report(@PathVariable("id") String id,
            @RequestHeader(name = Vdn.AGENT_KEY_HEADER, required = false) String key,
            @ApiSchema(type = Bodies.Report.class) @RequestBody(required = false) String body) {
        return vdn.report(id, key, parse(body));
    }

    @ApiDescription("The cluster's RIB of the latest decision: entries with next hop, origin, version and evidence")
    @GetMapping(BASE + "/clusters/{id}/rib")
    @OperationId("getVdnRib")
    public Map<String, Object> rib(@PathVariable("id") String id) {
        return vdn.rib(id);
    }

    @ApiDescription("The FIB the cluster's agent last published: central and local entries, mode, shadow versions")
    @GetMapping(BASE + "/clusters/{id}/fib")
    @OperationId("getVdnFib")
    public Map<String, Object> fib(@PathVariable("id") String id) {
        return vdn.fib(id);
    }

    @ApiDescription("A local agent publishes its cluster's FIB and serving figures")
    @PutMapping(BASE + "/clusters/{id}/fib")
    @OperationId("putVdnFib")
    public Map<String, Object> putFib(@PathVariable("id") String id,
            @RequestHeader(name = Vdn.AGENT_KEY_HEADER, required = false) String key,
            @ApiSchema(type = Bodies.Fib.class) @RequestBody(required = false) String body) {
        return vdn.putFib(id, key, parse(body));
    }

    @ApiDescription("The serving figures each agent published with its FIB (joins, join time, clients, bitrate), "
            + "over time: {clusters: {id: [{atMillis, figures...}]}}")
    @GetMapping(BASE + "/serving")
    @OperationId("getVdnServing")
    public Map<String, Object> serving() {
        return vdn.serving();
    }

    @ApiDescription("The latest decision's distribution trees of a video, one per bitrate: links and groups served")
    @GetMapping(BASE + "/trees/{video}")
    @OperationId("getVdnTrees")
    public Map<String, Object> trees(@PathVariable("video") String video) {
        return vdn.trees(video);
    }

    @ApiDescription("The latest decision: version, time, objective, gap, requests and clients served")
    @GetMapping(BASE + "/decision")
    @OperationId("getVdnDecision")
    public Map<String, Object> decision() {
        return vdn.decision();
    }

    private static Object parse(String body) {
        if (body == null || body.isBlank()) {
            throw Refusal.badRequest(null, "the request has no body: send a JSON document");
        }
        try {
            return Json.parse(body);
        } catch (IllegalArgumentException e) {
            throw Refusal.badRequest(null, "the body is not JSON: " + e.getMessage());
        }
    }
}
