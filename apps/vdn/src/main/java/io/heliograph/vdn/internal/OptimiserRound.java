package io.heliograph.vdn.internal;

import io.heliograph.core.hybrid.Decision;
import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.hybrid.Evidence;
import io.heliograph.solver.SolverService;
import io.heliograph.vdn.engine.CentralOptimiser;
import io.heliograph.vdn.engine.ClusterRoutes;
import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Node;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.VideoObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One round of the central control loop (§4.2): global discovery's view of the network, the optimiser's
 * trees, and from them each reflector's and edge's RIB entries (one per object it receives: its next hop,
 * with the evidence the cluster had reported) and each video's trees (the links that carry each bitrate,
 * and the edge DNS sends each served client group to). A round is not yet a version: the instance
 * that decides stamps it ({@link #stamp}) with the version the store hands out, or its own alone.
 */
record OptimiserRound(Map<String, Object> summary, Map<String, Map<String, Object>> trees,
        Map<String, List<Decision<String>>> decisions) {

    /** A round on a network with a topology, by the central optimiser on {@code solver}. */
    static OptimiserRound decide(Network network, Map<String, GlobalDiscovery.Received> reports, VdnSettings settings,
            SolverService solver, long nowMillis) {
        GlobalDiscovery.View view = GlobalDiscovery.view(network.topology(), network.knobs(), reports, nowMillis,
                settings.reportTimeoutSeconds() * 1000);
        return of(new CentralOptimiser(solver, settings.optimiserOptions()).optimise(view.problem()), view, nowMillis);
    }

    static OptimiserRound of(Distribution distribution, GlobalDiscovery.View view, long nowMillis) {
        Problem problem = distribution.problem();
        Instant at = Instant.ofEpochMilli(nowMillis);
        ClusterRoutes routes = ClusterRoutes.of(distribution);
        Map<String, List<Decision<String>>> decisions = new TreeMap<>();
        for (Node node : problem.topology().nodes()) {
            if (node.tier() == Tier.REFLECTOR || node.tier() == Tier.EDGE) {
                Map<String, Double> reported = view.evidence().getOrDefault(node.id(), Map.of());
                List<Decision<String>> entries = new ArrayList<>();
                routes.routes(node.id()).forEach((key, parent) -> entries.add(
                        Decision.central(key, parent, evidence(reported, key), at)));
                decisions.put(node.id(), entries);
            }
        }
        return new OptimiserRound(summary(distribution, nowMillis), trees(distribution, routes), decisions);
    }

    /**
     * An entry's evidence (Table 4.1): the capacities of the links its cluster reported, and the viewers of
     * its own object there, not of the cluster's other objects, whose changes do not make it stale.
     */
    private static Evidence evidence(Map<String, Double> reported, String key) {
        Map<String, Double> evidence = new TreeMap<>();
        reported.forEach((name, value) -> {
            if (!name.startsWith(GlobalDiscovery.VIEWERS) || name.equals(GlobalDiscovery.VIEWERS + key)) {
                evidence.put(name, value);
            }
        });
        return Evidence.of(evidence);
    }

    /** This round as decision {@code version}, its RIBs issued at {@code issuedAt}. */
    VdnDecision stamp(long version, Instant issuedAt) {
        Map<String, DecisionTable<String>> ribs = new TreeMap<>();
        decisions.forEach((cluster, entries) -> ribs.put(cluster, new DecisionTable<>(cluster, version, issuedAt,
                entries.stream().map(d -> d.withVersion(version)).toList())));
        Map<String, Object> stamped = new LinkedHashMap<>(summary);
        stamped.put("version", version);
        Map<String, Map<String, Object>> versioned = new TreeMap<>();
        trees.forEach((video, tree) -> {
            Map<String, Object> json = new LinkedHashMap<>(tree);
            json.put("version", version);
            versioned.put(video, json);
        });
        return new VdnDecision(version, stamped, ribs, versioned);
    }

    private static Map<String, Map<String, Object>> trees(Distribution distribution, ClusterRoutes routes) {
        Problem problem = distribution.problem();
        Map<String, List<Request>> requests = problem.requestsByObject();
        Map<String, Map<String, Object>> trees = new TreeMap<>();
        for (VideoObject object : problem.objects().values()) {
            BitSet carried = distribution.links(object.key());
            List<String> links = new ArrayList<>();
            carried.stream().forEach(i -> links.add(problem.topology().links().get(i).name()));
            Map<String, Object> served = new TreeMap<>();
            List<String> unserved = new ArrayList<>();
            for (Request request : requests.get(object.key())) {
                routes.edge(request.clientGroup(), object.key()).ifPresentOrElse(
                        edge -> served.put(request.clientGroup(), edge), () -> unserved.add(request.clientGroup()));
            }
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("links", links);
            tree.put("served", served);
            tree.put("unserved", unserved);
            tree.put("priorityMilli", Math.round(object.priority() * 1000));
            Map<String, Object> video = trees.computeIfAbsent(object.video(), v -> {
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("video", v);
                json.put("bitrates", new TreeMap<String, Object>());
                return json;
            });
            @SuppressWarnings("unchecked")
            Map<String, Object> bitrates = (Map<String, Object>) video.get("bitrates");
            bitrates.put(String.valueOf(object.bitrateKbps()), tree);
        }
        return trees;
    }

    private static Map<String, Object> summary(Distribution distribution, long nowMillis) {
        Problem problem = distribution.problem();
        long served = problem.requests().stream().filter(distribution::served).count();
        long clients = problem.requests().stream().mapToLong(Request::clients).sum();
        long clientsServed = problem.requests().stream().filter(distribution::served).mapToLong(Request::clients).sum();
        long carried = 0;
        for (long kbps : distribution.loadKbps()) {
            carried += kbps;
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("state", "decided");
        summary.put("atMillis", nowMillis);
        summary.put("method", distribution.method());
        summary.put("millis", distribution.time().toMillis());
        summary.put("objective", Math.round(distribution.objective()));
        summary.put("gapPerMillion", Double.isNaN(distribution.gap()) ? null : Math.round(distribution.gap() * 1e6));
        summary.put("objects", (long) problem.objects().size());
        summary.put("requests", (long) problem.requests().size());
        summary.put("requestsServed", served);
        summary.put("clients", clients);
        summary.put("clientsServed", clientsServed);
        summary.put("carriedKbps", carried);
        summary.put("cost", Math.round(distribution.cost()));
        return summary;
    }
}
