package io.heliograph.stats.internal.rest;

import java.util.Comparator;
import java.util.List;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;
import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.Requests;

/**
 * Port and flow rates per switch under {@code /api/v1/stats/switches/{dpid}}: the current rates and
 * the recent history the statistics app keeps. Registered while the app runs, so its paths go with it.
 * A switch the app has never polled is not found.
 */
@RestController
@ApiDescription("Port and flow rates and their recent history, per switch (statistics app)")
@Component(service = RestResource.class)
public final class StatisticsResource implements RestResource {

    private final StatisticsService statistics;

    @Activate
    public StatisticsResource(@Reference StatisticsService statistics) {
        this.statistics = statistics;
    }

    /** The latest rates of every port of the switch, by port number. */
    @ApiDescription("The latest rates of every port of a switch, in each direction")
    @GetMapping("/api/v1/stats/switches/{dpid}/ports")
    @OperationId("listPortRates")
    public List<PortRateView> portRates(@PathVariable("dpid") String dpidText) {
        DatapathId dpid = polled(dpidText);
        return statistics.getPortRates(dpid).stream()
                .sorted(Comparator.comparingInt((PortRate r) -> r.port().port().getPortNumber()))
                .map(PortRateView::of).toList();
    }

    /** One port's latest rates and its recent history, oldest first. */
    @ApiDescription("One port's latest rates and its recent history, oldest first")
    @GetMapping("/api/v1/stats/switches/{dpid}/ports/{port}")
    @OperationId("getPortHistory")
    public PortHistoryView portHistory(@PathVariable("dpid") String dpidText, @PathVariable("port") String portText) {
        DatapathId dpid = polled(dpidText);
        OFPort port = port(portText);
        SwitchPort switchPort = SwitchPort.of(dpid, port);
        List<PortRate> history = statistics.getPortRateHistory(switchPort);
        PortRate current = statistics.getPortRate(switchPort);
        if (current == null && history.isEmpty()
                && statistics.getSwitchStatistics(dpid).ports().entries().stream().noneMatch(e -> e.getPortNo().equals(port))) {
            throw Requests.notFound("port", "switch " + dpid + " reported no port " + port.getPortNumber());
        }
        return new PortHistoryView(dpid.toString(), port.getPortNumber(), current == null ? null : PortRateView.of(current),
                history.stream().map(PortRateView::of).toList());
    }

    /** The latest rates of every flow entry seen in two polls; with {@code history=true}, each one's history too. */
    @ApiDescription("The latest rates of every flow entry of a switch; with history=true, each one's recent history")
    @GetMapping("/api/v1/stats/switches/{dpid}/flows")
    @OperationId("listFlowRates")
    public List<FlowRateView> flowRates(@PathVariable("dpid") String dpidText,
            @RequestParam(name = "history", required = false, defaultValue = "false") String historyText) {
        DatapathId dpid = polled(dpidText);
        boolean withHistory = flag("history", historyText);
        return statistics.getFlowRates(dpid).stream()
                .sorted(Comparator.comparingInt((FlowRate r) -> r.flow().table().getValue())
                        .thenComparing(Comparator.comparingInt((FlowRate r) -> r.flow().priority()).reversed())
                        .thenComparing(r -> r.flow().match().toString()))
                .map(r -> FlowRateView.of(r, withHistory ? statistics.getFlowRateHistory(dpid, r.flow()) : null))
                .toList();
    }

    private DatapathId polled(String text) {
        DatapathId dpid = Requests.dpid("dpid", text);
        if (statistics.getSwitchStatistics(dpid) == null) {
            throw Requests.notFound("dpid", "switch " + dpid + " has not been polled for statistics");
        }
        return dpid;
    }

    private static OFPort port(String text) {
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= 1) {
                return OFPort.of(n);
            }
        } catch (NumberFormatException e) {
            // explained below
        }
        throw Requests.badRequest("port", "'" + text + "' is not a port number (1 or more)");
    }

    private static boolean flag(String field, String text) {
        if ("true".equalsIgnoreCase(text)) {
            return true;
        }
        if ("false".equalsIgnoreCase(text)) {
            return false;
        }
        throw Requests.badRequest(field, "'" + text + "' is not true or false");
    }
}
