package io.heliograph.vdn.engine;

import static io.heliograph.core.json.JsonPath.problem;

import io.heliograph.core.json.JsonPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The operator's knobs of the central optimiser (§4.5, §4.7 "operator knobs"): the weights of service
 * and cost, the priority of each object (a scheme for all, overridden per video or per video and
 * bitrate) and link costs that replace the configured ones. As plain JSON:
 *
 * <pre>
 * {"serviceWeight": 10000000, "costWeight": 1, "priorityScheme": "balanced",
 *  "priorities": {"final": 100, "news/4500": 20}, "linkCosts": {"S1->R1": 50}}
 * </pre>
 *
 * Weights, priorities and costs are whole numbers (weights are relative: 10,000,000 against 1 is a
 * cost weight of 10^-7). The cost term is a link's cost times the kbit/s it carries, so with costs of
 * tens a request's path costs up to about 10^6 at 4K bitrates; the default service weight is above it. Schemes (Fig 4.15b): {@code balanced} (priority 1), {@code quality} (the bitrate in
 * Mb/s: favours high bitrates), {@code quantity} (1 over the bitrate in Mb/s: favours more streams).
 */
public record Knobs(long serviceWeight, long costWeight, Scheme priorityScheme, Map<String, Long> priorities,
        Map<String, Long> linkCosts) {

    /**
     * Service far above cost: a request is served whenever capacity allows, even over three links of
     * cost 50 at 30 Mbit/s (4.5 x 10^6), on the cheapest trees.
     */
    public static final Knobs DEFAULT = new Knobs(10_000_000, 1, Scheme.BALANCED, Map.of(), Map.of());

    private static final Set<String> MEMBERS = Set.of("serviceWeight", "costWeight", "priorityScheme", "priorities",
            "linkCosts");
    private static final long MAX = 1_000_000_000L;

    /** How an object's priority follows from its bitrate when no override names it. */
    public enum Scheme {
        BALANCED, QUALITY, QUANTITY;

        double priority(int bitrateKbps) {
            return switch (this) {
                case BALANCED -> 1;
                case QUALITY -> bitrateKbps / 1000.0;
                case QUANTITY -> 1000.0 / bitrateKbps;
            };
        }

        public String jsonName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Knobs {
        Objects.requireNonNull(priorityScheme, "priorityScheme");
        priorities = Map.copyOf(new LinkedHashMap<>(priorities));
        linkCosts = Map.copyOf(new LinkedHashMap<>(linkCosts));
        new Weights(serviceWeight, costWeight); // refuses negative weights and both zero
    }

    public Weights weights() {
        return new Weights(serviceWeight, costWeight);
    }

    /** The priority of a video at a bitrate: an override of {@code video/bitrate}, else of {@code video}, else the scheme's. */
    public double priority(String video, int bitrateKbps) {
        Long exact = priorities.get(video + "/" + bitrateKbps);
        if (exact != null) {
            return exact;
        }
        Long whole = priorities.get(video);
        return whole != null ? whole : priorityScheme.priority(bitrateKbps);
    }

    /** The object of a video at a bitrate, with its priority. */
    public VideoObject object(String video, int bitrateKbps) {
        return new VideoObject(video, bitrateKbps, priority(video, bitrateKbps));
    }

    /**
     * The topology with these link costs in place of its own; IllegalArgumentException naming a link
     * the topology does not have.
     */
    public Topology costsOn(Topology topology) {
        List<Link> changed = new ArrayList<>();
        for (Map.Entry<String, Long> cost : linkCosts.entrySet()) {
            String[] ends = cost.getKey().split("->", -1);
            Link link = ends.length == 2 ? topology.link(ends[0], ends[1]).orElse(null) : null;
            if (link == null) {
                throw problem("$.linkCosts." + cost.getKey(), "no such link in the topology");
            }
            changed.add(new Link(link.index(), link.from(), link.to(), link.capacityKbps(), cost.getValue()));
        }
        return changed.isEmpty() ? topology : topology.withLinks(changed);
    }

    public static Knobs read(Object document) {
        Map<String, Object> root = JsonPath.object(document, "$", MEMBERS);
        long service = root.containsKey("serviceWeight")
                ? JsonPath.whole(root.get("serviceWeight"), "$.serviceWeight", 0, MAX) : DEFAULT.serviceWeight;
        long cost = root.containsKey("costWeight")
                ? JsonPath.whole(root.get("costWeight"), "$.costWeight", 0, MAX) : DEFAULT.costWeight;
        if (service == 0 && cost == 0) {
            throw problem("$", "serviceWeight and costWeight are both 0, so nothing is worth doing");
        }
        Scheme scheme = DEFAULT.priorityScheme;
        if (root.containsKey("priorityScheme")) {
            String name = JsonPath.text(root.get("priorityScheme"), "$.priorityScheme");
            scheme = null;
            for (Scheme candidate : Scheme.values()) {
                if (candidate.jsonName().equals(name)) {
                    scheme = candidate;
                }
            }
            if (scheme == null) {
                throw problem("$.priorityScheme", "must be balanced, quality or quantity, not \"" + name + "\"");
            }
        }
        Map<String, Long> priorities = new LinkedHashMap<>();
        if (root.containsKey("priorities")) {
            Map<String, Object> given = JsonPath.object(root.get("priorities"), "$.priorities");
            for (Map.Entry<String, Object> entry : given.entrySet()) {
                String path = "$.priorities." + entry.getKey();
                String[] parts = entry.getKey().split("/", -1);
                if (parts.length > 2 || parts[0].isBlank() || parts.length == 2 && !parts[1].matches("[1-9][0-9]{0,8}")) {
                    throw problem(path, "a priority names a video or video/bitrate (kbit/s), not \"" + entry.getKey() + "\"");
                }
                priorities.put(entry.getKey(), JsonPath.whole(entry.getValue(), path, 1, MAX));
            }
        }
        Map<String, Long> costs = new LinkedHashMap<>();
        if (root.containsKey("linkCosts")) {
            Map<String, Object> given = JsonPath.object(root.get("linkCosts"), "$.linkCosts");
            for (Map.Entry<String, Object> entry : given.entrySet()) {
                String path = "$.linkCosts." + entry.getKey();
                if (!entry.getKey().matches("[^ ]+->[^ ]+")) {
                    throw problem(path, "a link is named from->to, not \"" + entry.getKey() + "\"");
                }
                costs.put(entry.getKey(), JsonPath.whole(entry.getValue(), path, 0, MAX));
            }
        }
        return new Knobs(service, cost, scheme, priorities, costs);
    }

    public Map<String, Object> write() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("serviceWeight", serviceWeight);
        document.put("costWeight", costWeight);
        document.put("priorityScheme", priorityScheme.jsonName());
        document.put("priorities", new TreeMap<>(priorities));
        document.put("linkCosts", new TreeMap<>(linkCosts));
        return document;
    }
}
