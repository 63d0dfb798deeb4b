package io.heliograph.devices.internal.rest;

import java.util.LinkedHashMap;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.BoundService;
import io.heliograph.core.SwitchService;
import io.heliograph.devices.DeviceService;
import io.heliograph.topology.TopologyService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;

/**
 * Floodlight's {@code /wm/core/controller/summary/json}: the counts its core, link discovery and
 * device manager each added to the summary. Served by the devices app, the one app that sees all
 * three (switches, links through the topology app, hosts); without the topology app the links' count
 * is left out, as Floodlight left it out without its link discovery. Heliograph holds no port back
 * from forwarding after it comes up, so its count of quarantined ports is 0.
 */
@RestController
@ApiDescription("Floodlight's controller summary: switches, hosts, inter-switch links (devices app)")
@Component(service = RestResource.class)
public final class FloodlightSummaryResource implements RestResource {

    private final SwitchService switches;
    private final DeviceService devices;

    private final BoundService<TopologyService> topology = new BoundService<>();

    @Activate
    public FloodlightSummaryResource(@Reference SwitchService switches, @Reference DeviceService devices) {
        this.switches = switches;
        this.devices = devices;
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setTopologyService(TopologyService service) {
        topology.bind(service);
    }

    void unsetTopologyService(TopologyService service) {
        topology.unbind(service);
    }

    /** Floodlight's keys, with its spelling; links count each direction of a cable, as Floodlight's did. */
    @ApiDescription("The controller in numbers, as Floodlight answers it: # Switches, # hosts, # inter-switch links (directed), # quarantine ports")
    @GetMapping(path = "/wm/core/controller/summary/json", produces = "application/json")
    @OperationId("floodlightGetSummary")
    public Map<String, Object> summary() {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("# Switches", switches.getSwitches().size());
        summary.put("# hosts", devices.getHosts().size());
        TopologyService links = topology.get();
        if (links != null) {
            summary.put("# inter-switch links", links.getTopology().links().size());
        }
        summary.put("# quarantine ports", 0);
        return summary;
    }
}
