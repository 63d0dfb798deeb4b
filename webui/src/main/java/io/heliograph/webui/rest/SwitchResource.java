package io.heliograph.webui.rest;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.SwitchService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.rest.SwitchJson.Aggregate;
import io.heliograph.webui.rest.SwitchJson.Description;
import io.heliograph.webui.rest.SwitchJson.Detail;
import io.heliograph.webui.rest.SwitchJson.Flow;
import io.heliograph.webui.rest.SwitchJson.Group;
import io.heliograph.webui.rest.SwitchJson.Meter;
import io.heliograph.webui.rest.SwitchJson.Port;
import io.heliograph.webui.rest.SwitchJson.Role;
import io.heliograph.webui.rest.SwitchJson.Statistics;
import io.heliograph.webui.rest.SwitchJson.Summary;
import io.heliograph.webui.rest.SwitchJson.Table;

/**
 * {@code /api/v1/switches}: the connected switches, and for one switch (by datapath id in any of
 * the forms {@link DatapathIds} reads) its ports, flows, tables, groups, meters, description,
 * statistics and the controller's role. What the controller keeps (ports, features, description)
 * is answered at once; the rest is asked of the switch.
 */
@Component(service = RestResource.class)
@RestController
@ApiDescription("The connected OpenFlow switches: what the controller keeps of each, and what the switch answers "
        + "when asked")
@RequestMapping(path = "/api/v1/switches", produces = "application/json")
public class SwitchResource implements RestResource {

    static final String DPID = "datapath id: 00:00:00:00:00:00:00:01, 0x1 or 1";

    /** Optional and dynamic: without the OpenFlow layer the resource answers 503. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile SwitchService switches;

    /** How long a request to a switch may take before the client gets 504. */
    volatile Duration timeout = SwitchQueries.DEFAULT_TIMEOUT;

    @ApiDescription("The connected switches")
    @GetMapping
    @OperationId("listSwitches")
    public List<Summary> list() {
        return queries().service().getSwitches().values().stream().map(SwitchViews::summary)
                .sorted(Comparator.comparing(Summary::dpid)).toList();
    }

    @ApiDescription("One switch: OpenFlow version, address, connected since, features and description")
    @GetMapping("/{dpid}")
    @OperationId("getSwitch")
    public Detail one(@ApiDescription(DPID) @PathVariable String dpid) {
        return SwitchViews.detail(queries().find(dpid));
    }

    @ApiDescription("Its ports with state, configuration and speed")
    @GetMapping("/{dpid}/ports")
    @OperationId("listSwitchPorts")
    public List<Port> ports(@ApiDescription(DPID) @PathVariable String dpid) {
        return SwitchViews.ports(queries().find(dpid).getPorts());
    }

    @ApiDescription("Its flow entries, asked of the switch (504 when it does not answer in time)")
    @GetMapping("/{dpid}/flows")
    @OperationId("listSwitchFlows")
    public List<Flow> flows(@ApiDescription(DPID) @PathVariable String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).flows(q.find(dpid));
    }

    @ApiDescription("Its flow tables' counters, asked of the switch")
    @GetMapping("/{dpid}/tables")
    @OperationId("listSwitchTables")
    public List<Table> tables(@ApiDescription(DPID) @PathVariable String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).tables(q.find(dpid));
    }

    @ApiDescription("Its groups with their counters (OpenFlow 1.1+; 409 before)")
    @GetMapping("/{dpid}/groups")
    @OperationId("listSwitchGroups")
    public List<Group> groups(@ApiDescription(DPID) @PathVariable String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).groups(q.find(dpid));
    }

    @ApiDescription("Its meters with their counters (OpenFlow 1.3+; 409 before)")
    @GetMapping("/{dpid}/meters")
    @OperationId("listSwitchMeters")
    public List<Meter> meters(@ApiDescription(DPID) @PathVariable String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).meters(q.find(dpid));
    }

    @ApiDescription("What the switch says it is (manufacturer, hardware, software, serial, datapath); 504 while"
            + " it has not answered the description request")
    @GetMapping("/{dpid}/description")
    @OperationId("getSwitchDescription")
    public Description description(@ApiDescription(DPID) @PathVariable String dpid) {
        SwitchQueries q = queries();
        return q.description(q.find(dpid));
    }

    @ApiDescription("Its port counters and flow totals")
    @GetMapping("/{dpid}/statistics")
    @OperationId("getSwitchStatistics")
    public Statistics statistics(@ApiDescription(DPID) @PathVariable String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).statistics(q.find(dpid));
    }

    @ApiDescription("Its flow totals: flows, packets, bytes")
    @GetMapping("/{dpid}/statistics/aggregate")
    @OperationId("getSwitchAggregate")
    public Aggregate aggregate(@ApiDescription(DPID) @PathVariable String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).aggregate(q.find(dpid));
    }

    @ApiDescription("This controller's role on the switch, asked without changing it (OpenFlow 1.2+)")
    @GetMapping("/{dpid}/role")
    @OperationId("getSwitchRole")
    public Role role(@ApiDescription(DPID) @PathVariable String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).role(q.find(dpid));
    }

    private SwitchQueries queries() {
        return new SwitchQueries(switches, timeout);
    }
}
