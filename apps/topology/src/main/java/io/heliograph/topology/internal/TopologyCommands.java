package io.heliograph.topology.internal;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.topology.internal.LldpProbeCodec.Outcome;

/**
 * Gogo shell command {@code heliograph:links}: every discovered link, how long it has existed, when
 * a probe last confirmed it, and whether the other direction is known; then the islands and the
 * LLDP frames refused. The shell finds it by the service properties; no Gogo type is needed.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=links"})
public final class TopologyCommands {

    private final TopologyDiagnostics topology;

    @Activate
    public TopologyCommands(@Reference TopologyDiagnostics topology) {
        this.topology = topology;
    }

    public String links() {
        return render(topology.linkStatus(), topology.nowMs(), topology.topology(), topology.lldpCounts());
    }

    static String render(List<LinkStatus> links, long nowMs, TopologyGraph graph, Map<Outcome, Long> counts) {
        StringBuilder out = new StringBuilder();
        if (links.isEmpty()) {
            out.append("no links\n");
        }
        for (LinkStatus status : links) {
            out.append(String.format(Locale.ROOT, "%-28s -> %-28s age %8s  seen %6s ago  %s%n",
                    status.link().src(), status.link().dst(), seconds(nowMs - status.firstSeenMs()),
                    seconds(nowMs - status.lastSeenMs()),
                    status.bidirectional() ? "bidirectional" : "ONE-WAY (reverse not seen)"));
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
