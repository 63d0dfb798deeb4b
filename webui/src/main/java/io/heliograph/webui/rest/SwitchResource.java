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
@RequestMapping(path = "/api/v1/switches", produces = "application/json")
public class SwitchResource implements RestResource {

    /** Optional and dynamic: without the OpenFlow layer the resource answers 503. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    volatile SwitchService switches;

    /** How long a request to a switch may take before the client gets 504. */
    volatile Duration timeout = SwitchQueries.DEFAULT_TIMEOUT;

    @GetMapping
    public List<Summary> list() {
        return queries().service().getSwitches().values().stream().map(SwitchViews::summary)
                .sorted(Comparator.comparing(Summary::dpid)).toList();
    }

    @GetMapping("/{dpid}")
    public Detail one(@PathVariable("dpid") String dpid) {
        return SwitchViews.detail(queries().find(dpid));
    }

    @GetMapping("/{dpid}/ports")
    public List<Port> ports(@PathVariable("dpid") String dpid) {
        return SwitchViews.ports(queries().find(dpid).getPorts());
    }

    @GetMapping("/{dpid}/flows")
    public List<Flow> flows(@PathVariable("dpid") String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).flows(q.find(dpid));
    }

    @GetMapping("/{dpid}/tables")
    public List<Table> tables(@PathVariable("dpid") String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).tables(q.find(dpid));
    }

    @GetMapping("/{dpid}/groups")
    public List<Group> groups(@PathVariable("dpid") String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).groups(q.find(dpid));
    }

    @GetMapping("/{dpid}/meters")
    public List<Meter> meters(@PathVariable("dpid") String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).meters(q.find(dpid));
    }

    @GetMapping("/{dpid}/description")
    public Description description(@PathVariable("dpid") String dpid) {
        return SwitchViews.description(queries().find(dpid).getDescription());
    }

    @GetMapping("/{dpid}/statistics")
    public Statistics statistics(@PathVariable("dpid") String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).statistics(q.find(dpid));
    }

    @GetMapping("/{dpid}/statistics/aggregate")
    public Aggregate aggregate(@PathVariable("dpid") String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).aggregate(q.find(dpid));
    }

    @GetMapping("/{dpid}/role")
    public Role role(@PathVariable("dpid") String dpid) {
        SwitchQueries q = queries();
        return new SwitchReads(q).role(q.find(dpid));
    }

    private SwitchQueries queries() {
        return new SwitchQueries(switches, timeout);
    }
}
