package io.heliograph.topology.internal;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.topology.internal.LldpProbeCodec.Outcome;

/**
 * Gogo shell command {@code heliograph:links}: every discovered link, how long it has existed, when
 * a probe last confirmed it, and whether the other direction is known; then the islands and the
 * LLDP frames refused. {@code heliograph:islands}: each island's switches and, per switch, the
 * inter-switch ports on its broadcast tree. The shell finds them by the service properties; no Gogo
 * type is needed.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=links",
    "osgi.command.function=islands",
    "heliograph.command.help=links|discovered links (src -> dst, age, last seen, one-way or not), LLDP counts",
    "heliograph.command.help=islands|each island's switches, root and broadcast-tree ports"})
public final class TopologyCommands {

    private final TopologyDiagnostics topology;

    @Activate
    public TopologyCommands(@Reference TopologyDiagnostics.Source topology) {
        this.topology = topology.diagnostics();
    }

    public String links() {
        String sharing = topology.sharing();
        return render(topology.linkStatus(), topology.nowMs(), topology.topology(), topology.lldpCounts())
                + (sharing == null ? "" : "\nlinks " + sharing);
    }

    public String islands() {
        return renderIslands(topology.topology());
    }

    static String renderIslands(TopologyGraph graph) {
        if (graph.switches().isEmpty()) {
            return "no switches";
        }
        StringBuilder out = new StringBuilder();
        List<List<DatapathId>> islands = graph.islands().stream().map(island -> island.stream().sorted().toList())
                .sorted(Comparator.comparing((List<DatapathId> island) -> island.get(0))).toList();
        int n = 1;
        for (List<DatapathId> island : islands) {
            out.append("island ").append(n++).append(": ").append(island.size()).append(" switches, root ")
                    .append(island.get(0)).append('\n');
            for (DatapathId dpid : island) {
                String ports = graph.broadcastTreePorts(dpid).stream().map(OFPort::getPortNumber).sorted()
                        .map(String::valueOf).collect(Collectors.joining(","));
                out.append("  ").append(dpid).append("  tree ports: ").append(ports.isEmpty() ? "none" : ports)
                        .append('\n');
            }
        }
        return out.toString().stripTrailing();
    }

    static String render(List<LinkStatus> links, long nowMs, TopologyGraph graph, Map<Outcome, Long> counts) {
        StringBuilder out = new StringBuilder();
        if (links.isEmpty()) {
            out.append("no links\n");
        }
        for (LinkStatus status : links) {
            out.append(String.format(Locale.ROOT, "%-28s -> %-28s age %8s  seen %6s ago  %s%s%n",
                    status.link().src(), status.link().dst(), seconds(nowMs - status.firstSeenMs()),
                    seconds(nowMs - status.lastSeenMs()),
                    status.bidirectional() ? "bidirectional" : "ONE-WAY (reverse not seen)",
                    status.discoveredBy() == null ? "" : "  by " + status.discoveredBy()));
        }
        long oneWay = links.stream().filter(s -> !s.bidirectional()).count();
        out.append(String.format(Locale.ROOT, "%d switches, %d links (%d one-way), %d islands, topology version %d%n",
                graph.switches().size(), links.size(), oneWay, graph.islands().size(), graph.version()));
        String refused = counts.entrySet().stream()
                .filter(e -> e.getKey() != Outcome.ACCEPTED && e.getKey() != Outcome.NOT_LLDP && e.getValue() > 0)
                .map(e -> e.getKey().name().toLowerCase(Locale.ROOT) + " " + e.getValue())
                .collect(Collectors.joining(", "));
        out.append("LLDP accepted ").append(counts.getOrDefault(Outcome.ACCEPTED, 0L)).append(", refused: ")
                .append(refused.isEmpty() ? "none" : refused);
        return out.toString();
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
}
