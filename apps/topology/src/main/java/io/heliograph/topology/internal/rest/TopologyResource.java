package io.heliograph.topology.internal.rest;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;
import io.heliograph.topology.internal.LinkStatus;
import io.heliograph.topology.internal.TopologyDiagnostics;
import io.heliograph.topology.internal.TopologyGraph;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.Requests;

/**
 * The discovered links and the topology summary under {@code /api/v1/topology}, and Floodlight's
 * {@code /wm/topology/links/json}. Registered while the topology app runs, so its paths go with it.
 */
@RestController
@ApiDescription("Links between switches as LLDP discovered them, and the topology's islands (topology app)")
@Component(service = RestResource.class)
public final class TopologyResource implements RestResource {

    private static final Comparator<LinkView> BY_SRC_THEN_DST = Comparator
            .comparing((LinkView l) -> l.src().dpid()).thenComparingInt(l -> l.src().port())
            .thenComparing(l -> l.dst().dpid()).thenComparingInt(l -> l.dst().port());

    private final TopologyDiagnostics topology;
    private final Clock clock;

    @Activate
    public TopologyResource(@Reference TopologyDiagnostics.Source topology) {
        this(topology.diagnostics(), Clock.systemUTC());
    }

    TopologyResource(TopologyDiagnostics topology, Clock clock) {
        this.topology = topology;
        this.clock = clock;
    }

    /** Every directed link, or those that start or end at one switch. */
    @ApiDescription("Every directed link, or those of one switch (dpid): both ends, whether the reverse direction is seen, when first and last seen, and in a cluster the instance that discovered it (discoveredBy: the master of its destination switch); every instance lists the whole cluster's links")
    @GetMapping("/api/v1/topology/links")
    @OperationId("listLinks")
    public List<LinkView> links(@RequestParam(name = "dpid", required = false) String dpidText) {
        DatapathId dpid = dpidText == null ? null : Requests.dpid("dpid", dpidText);
        if (dpid != null && !topology.topology().switches().contains(dpid)) {
            throw Requests.notFound("dpid", "switch " + dpid + " is not in the topology");
        }
        long nowMs = topology.nowMs();
        Instant now = clock.instant();
        List<LinkView> views = new ArrayList<>();
        for (LinkStatus status : topology.linkStatus()) {
            Link link = status.link();
            if (dpid == null || link.src().dpid().equals(dpid) || link.dst().dpid().equals(dpid)) {
                views.add(LinkView.of(status, nowMs, now));
            }
        }
        views.sort(BY_SRC_THEN_DST);
        return views;
    }

    @ApiDescription("The topology in numbers: its version, switches, links, links seen one way only, and the islands")
    @GetMapping("/api/v1/topology")
    @OperationId("getTopology")
    public TopologySummary summary() {
        TopologyGraph graph = topology.topology();
        List<List<String>> islands = graph.islands().stream()
                .map(island -> island.stream().sorted().map(DatapathId::toString).toList())
                .sorted(Comparator.comparing((List<String> island) -> island.get(0))).toList();
        return new TopologySummary(graph.version(), graph.switches().size(), graph.links().size(),
                graph.unidirectionalLinks().size(), islands);
    }

    /**
     * Floodlight's shape: a cable seen both ways is listed once, from its lower end (by dpid, then
     * port), as "bidirectional"; a link seen one way only as "unidirectional".
     */
    @ApiDescription("Floodlight's links listing: each cable once, in Floodlight's shape")
    @GetMapping("/wm/topology/links/json")
    @OperationId("floodlightListLinks")
    public List<Map<String, Object>> floodlightLinks() {
        TopologyGraph graph = topology.topology();
        List<Map<String, Object>> out = new ArrayList<>();
        List<Link> links = graph.links().stream().sorted(Comparator.comparing((Link l) -> l.src().dpid())
                .thenComparingInt(l -> l.src().port().getPortNumber())).toList();
        for (Link link : links) {
            boolean bidirectional = graph.isBidirectional(link);
            if (bidirectional && !isLowerEnd(link.src(), link.dst())) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("src-switch", link.src().dpid().toString());
            m.put("src-port", link.src().port().getPortNumber());
            m.put("dst-switch", link.dst().dpid().toString());
            m.put("dst-port", link.dst().port().getPortNumber());
            m.put("type", "internal");
            m.put("direction", bidirectional ? "bidirectional" : "unidirectional");
            out.add(m);
        }
        return out;
    }

    /**
     * Floodlight's switch clusters: each island (switches joined by discovered links) under its lowest
     * datapath id, which is how Floodlight names a cluster, with its switches in order.
     */
    @ApiDescription("Floodlight's switch clusters: each island of linked switches under its lowest datapath id")
    @GetMapping("/wm/topology/switchclusters/json")
    @OperationId("floodlightListSwitchClusters")
    public Map<String, List<String>> floodlightSwitchClusters() {
        Map<String, List<String>> clusters = new TreeMap<>();
        for (Set<DatapathId> island : topology.topology().islands()) {
            List<String> members = island.stream().sorted().map(DatapathId::toString).toList();
            clusters.put(members.get(0), members);
        }
        return clusters;
    }

    /**
     * Floodlight's external links are those its broadcast probes (BDDP) found across a segment of
     * non-OpenFlow switches. Heliograph probes with LLDP alone, which such bridges do not forward, so it
     * knows direct links only and this list is always empty; it is served so Floodlight scripts run.
     */
    @ApiDescription("Floodlight's external links (across non-OpenFlow bridges): always empty, Heliograph discovers direct links only")
    @GetMapping("/wm/topology/external-links/json")
    @OperationId("floodlightListExternalLinks")
    public List<Map<String, Object>> floodlightExternalLinks() {
        return List.of();
    }

    private static boolean isLowerEnd(SwitchPort a, SwitchPort b) {
        int byDpid = a.dpid().compareTo(b.dpid());
        return byDpid < 0 || (byDpid == 0 && a.port().getPortNumber() < b.port().getPortNumber());
    }
}
