package io.heliograph.vdn.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link Distribution} tells each cluster and the DNS (§4.3, §4.5's output): for each reflector and
 * edge cluster, the parent (next hop) it fetches each object it receives from, which becomes its
 * cluster-specific RIB; and for each served request, the edge its client group is sent to. A node that
 * two links feed takes the first in link order, as {@link Distribution#parent} does. Immutable.
 */
public final class ClusterRoutes {

    private final Map<String, Map<String, String>> nextHops;
    private final Map<String, Map<String, String>> edges;

    private ClusterRoutes(Map<String, Map<String, String>> nextHops, Map<String, Map<String, String>> edges) {
        this.nextHops = nextHops;
        this.edges = edges;
    }

    /** The routes of a distribution: clusters in the topology's order, groups and objects in the
     * order of the problem's requests. */
    public static ClusterRoutes of(Distribution distribution) {
        Objects.requireNonNull(distribution, "distribution");
        Problem problem = distribution.problem();
        Map<String, Map<String, String>> hops = new LinkedHashMap<>();
        for (Tier tier : new Tier[] {Tier.REFLECTOR, Tier.EDGE}) {
            for (Node cluster : problem.topology().tier(tier)) {
                Map<String, String> routes = new LinkedHashMap<>();
                for (String key : problem.objects().keySet()) {
                    distribution.parent(cluster.id(), key).ifPresent(parent -> routes.put(key, parent));
                }
                if (!routes.isEmpty()) {
                    hops.put(cluster.id(), Collections.unmodifiableMap(routes));
                }
            }
        }
        Map<String, Map<String, String>> dns = new LinkedHashMap<>();
        for (Request request : problem.requests()) {
            String key = request.object().key();
            distribution.parent(request.clientGroup(), key).ifPresent(edge -> dns
                    .computeIfAbsent(request.clientGroup(), g -> new LinkedHashMap<>()).put(key, edge));
        }
        dns.replaceAll((group, mapped) -> Collections.unmodifiableMap(mapped));
        return new ClusterRoutes(Collections.unmodifiableMap(hops), Collections.unmodifiableMap(dns));
    }

    /** Each cluster receiving something: object key to the parent it fetches it from. */
    public Map<String, Map<String, String>> nextHops() {
        return nextHops;
    }

    /** One cluster's routes (object key to parent); empty when it receives nothing. */
    public Map<String, String> routes(String cluster) {
        return nextHops.getOrDefault(cluster, Map.of());
    }

    /** The parent {@code cluster} fetches {@code objectKey} from, if it receives it. */
    public Optional<String> nextHop(String cluster, String objectKey) {
        return Optional.ofNullable(routes(cluster).get(objectKey));
    }

    /** The DNS mapping: each client group with a served request, object key to the edge that serves it. */
    public Map<String, Map<String, String>> dns() {
        return edges;
    }

    /** The edge DNS sends {@code clientGroup} to for {@code objectKey}, if its request is served. */
    public Optional<String> edge(String clientGroup, String objectKey) {
        return Optional.ofNullable(edges.getOrDefault(clientGroup, Map.of()).get(objectKey));
    }
}
