package io.heliograph.stats.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.DatapathIds;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;
import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.StatisticsService;

/**
 * Gogo shell commands: {@code heliograph:flows <dpid>} asks the switch for its flow entries now and
 * prints them; {@code heliograph:rates <dpid>} prints the latest port rates.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=flows",
    "osgi.command.function=rates",
    "heliograph.command.help=flows DPID|a switch's flow entries, asked for now",
    "heliograph.command.help=rates DPID|a switch's port rates (bits and packets per second, each direction)"})
public final class StatsCommands {

    /** The shell waits this long for a live reply; the shell thread is the only one that waits. */
    static final long REPLY_TIMEOUT_MS = 10_000;

    private final SwitchService switches;
    private final StatisticsService statistics;

    @Activate
    public StatsCommands(@Reference SwitchService switches, @Reference StatisticsService statistics) {
        this.switches = switches;
        this.statistics = statistics;
    }

    /** The switch's flow entries, asked for now. */
    public String flows(String dpid) {
        DatapathId id;
        try {
            id = DatapathIds.parse(dpid);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        OFSwitch sw = switches.getSwitch(id);
        if (sw == null) {
            return "no connected switch " + id;
        }
        List<OFFlowStatsReply> parts;
        try {
            parts = sw.requestStatistics(StatsRequests.allFlows(sw.getFactory()))
                    .get(REPLY_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (TimeoutException e) {
            return "switch " + id + " did not answer within " + REPLY_TIMEOUT_MS + " ms";
        } catch (ExecutionException e) {
            return "switch " + id + " could not list its flows: " + e.getCause();
        }
        List<OFFlowStatsEntry> entries = MultipartReplies.entries(parts, OFFlowStatsReply.class,
                OFFlowStatsReply::getEntries);
        Map<FlowKey, FlowRate> rates = statistics.getFlowRates(id).stream()
                .collect(Collectors.toMap(FlowRate::flow, Function.identity(), (a, b) -> b));
        return id + ": " + entries.size() + " flow entries\n" + ShellTables.flows(entries, rates);
    }

    /** The latest port rates of the switch. */
    public String rates(String dpid) {
        DatapathId id;
        try {
            id = DatapathIds.parse(dpid);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (switches.getSwitch(id) == null && statistics.getPortRates(id).isEmpty()) {
            return "no connected switch " + id;
        }
        return id + " port rates\n" + ShellTables.ports(statistics.getPortRates(id));
    }
}
