package io.heliograph.vdn.internal;

import io.heliograph.vdn.engine.ClusterReport;
import io.heliograph.vdn.engine.Knobs;
import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Global discovery (§4.2): the clusters' latest reports, merged into one decision's input. A link's
 * capacity is the one measured by the cluster it enters (else by the one it leaves; 0 when either says it
 * timed out), the configured one where neither reported it; a client group's request for an object
 * counts the viewers of every edge that reported it. Reports older than the timeout are left out (their
 * cluster is silent: its links keep their configured capacities and its viewers are gone). Each
 * cluster's evidence is what it reported itself: the capacities of its links and its viewers per object.
 */
final class GlobalDiscovery {

    /** The evidence's name of the viewers of an object at a cluster: {@code viewers:video/bitrate}. */
    static final String VIEWERS = "viewers:";

    /** A client group watching a video at a bitrate: one request, whichever edges report its viewers. */
    private record Watching(String group, String video, int bitrateKbps) {
    }

    /** A report and when it was received. */
    record Received(ClusterReport report, long atMillis) {
    }

    /** The problem, and each cluster's evidence: {@code link -> kbit/s} and {@code viewers:video/bitrate -> clients}. */
    record View(Problem problem, Map<String, Map<String, Double>> evidence) {
    }

    private GlobalDiscovery() {
    }

    static View view(Topology configured, Knobs knobs, Map<String, Received> reports, long nowMillis,
            long reportTimeoutMillis) {
        Topology costed = knobs.costsOn(configured);
        Map<String, ClusterReport> fresh = new TreeMap<>();
        reports.forEach((cluster, received) -> {
            if (nowMillis - received.atMillis() <= reportTimeoutMillis && configured.node(cluster).isPresent()) {
                fresh.put(cluster, received.report());
            }
        });
        List<Link> measured = new ArrayList<>();
        for (Link link : costed.links()) {
            Long capacity = capacity(link, fresh.get(link.to()));
            if (capacity == null) {
                capacity = capacity(link, fresh.get(link.from()));
            }
            if (capacity != null && capacity != link.capacityKbps()) {
                measured.add(new Link(link.index(), link.from(), link.to(), capacity, link.cost()));
            }
        }
        Topology topology = measured.isEmpty() ? costed : costed.withLinks(measured);

        Map<Watching, Integer> clients = new LinkedHashMap<>();
        Map<String, Map<String, Double>> evidence = new TreeMap<>();
        for (ClusterReport report : fresh.values()) {
            Map<String, Double> own = new TreeMap<>();
            report.links().forEach((link, kbps) -> own.put(link, kbps.doubleValue()));
            report.failed().forEach(link -> own.put(link, 0.0));
            for (ClusterReport.Viewers viewers : report.viewers()) {
                clients.merge(new Watching(viewers.group(), viewers.video(), viewers.bitrateKbps()), viewers.clients(),
                        Integer::sum);
                own.merge(VIEWERS + viewers.video() + "/" + viewers.bitrateKbps(), (double) viewers.clients(),
                        Double::sum);
            }
            evidence.put(report.cluster(), own);
        }
        List<Request> requests = new ArrayList<>();
        clients.forEach((watching, count) -> requests.add(new Request(watching.group(),
                knobs.object(watching.video(), watching.bitrateKbps()), count)));
        return new View(new Problem(topology, requests, knobs.weights()), evidence);
    }

    private static Long capacity(Link link, ClusterReport report) {
        if (report == null) {
            return null;
        }
        if (report.failed().contains(link.name())) {
            return 0L;
        }
        return report.links().get(link.name());
    }
}
