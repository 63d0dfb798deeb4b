package io.heliograph.vdn.engine;

import static io.heliograph.core.json.JsonPath.problem;

import io.heliograph.core.json.JsonPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The CDN's overlay as an operator describes it, in plain JSON ({@link io.heliograph.core.json.Json}):
 *
 * <pre>
 * {"nodes": [{"id": "S1", "tier": "source", "x": 0, "y": 0}, ...],
 *  "links": [{"from": "S1", "to": "R1", "capacityKbps": 100000, "cost": 20}, ...]}
 * </pre>
 *
 * Tiers are {@code source}, {@code reflector}, {@code edge} and {@code client-group}; coordinates, capacities
 * and costs are whole numbers (a cost is the relative price of a kbit/s on the link: choose its unit so
 * that the differences that matter are whole). A refused document names each problem's JSON path.
 */
public final class TopologyJson {

    private static final Set<String> DOCUMENT = Set.of("nodes", "links");
    private static final Set<String> NODE = Set.of("id", "tier", "x", "y");
    private static final Set<String> LINK = Set.of("from", "to", "capacityKbps", "cost");
    private static final long COORDINATE = 1L << 40;
    private static final long MAX_COST = 1_000_000_000L;

    private TopologyJson() {
    }

    public static Topology read(Object document) {
        Map<String, Object> root = JsonPath.object(document, "$", DOCUMENT);
        Topology.Builder builder = Topology.builder();
        List<?> nodes = JsonPath.list(JsonPath.required(root, "nodes", "$"), "$.nodes");
        for (int i = 0; i < nodes.size(); i++) {
            String path = "$.nodes[" + i + "]";
            Map<String, Object> node = JsonPath.object(nodes.get(i), path, NODE);
            String id = JsonPath.text(JsonPath.required(node, "id", path), path + ".id");
            if (id.contains("->") || id.contains(" ")) {
                throw problem(path + ".id", "a node's id has no spaces and no '->', not \"" + id + "\"");
            }
            Tier tier = tier(JsonPath.text(JsonPath.required(node, "tier", path), path + ".tier"), path + ".tier");
            long x = node.containsKey("x") ? JsonPath.whole(node.get("x"), path + ".x", -COORDINATE, COORDINATE) : 0;
            long y = node.containsKey("y") ? JsonPath.whole(node.get("y"), path + ".y", -COORDINATE, COORDINATE) : 0;
            try {
                builder.node(id, tier, x, y);
            } catch (IllegalArgumentException e) {
                throw problem(path, e.getMessage());
            }
        }
        List<?> links = JsonPath.list(JsonPath.required(root, "links", "$"), "$.links");
        for (int i = 0; i < links.size(); i++) {
            String path = "$.links[" + i + "]";
            Map<String, Object> link = JsonPath.object(links.get(i), path, LINK);
            String from = JsonPath.text(JsonPath.required(link, "from", path), path + ".from");
            String to = JsonPath.text(JsonPath.required(link, "to", path), path + ".to");
            long capacity = JsonPath.whole(JsonPath.required(link, "capacityKbps", path), path + ".capacityKbps", 0,
                    Long.MAX_VALUE / 4);
            long cost = JsonPath.whole(JsonPath.required(link, "cost", path), path + ".cost", 0, MAX_COST);
            try {
                builder.link(from, to, capacity, cost);
            } catch (IllegalArgumentException e) {
                throw problem(path, e.getMessage());
            }
        }
        return builder.build();
    }

    /** The document {@link #read} takes back; fractional coordinates and costs are rounded. */
    public static Map<String, Object> write(Topology topology) {
        List<Object> nodes = new ArrayList<>();
        for (Node node : topology.nodes()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", node.id());
            json.put("tier", name(node.tier()));
            json.put("x", Math.round(node.x()));
            json.put("y", Math.round(node.y()));
            nodes.add(json);
        }
        List<Object> links = new ArrayList<>();
        for (Link link : topology.links()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("from", link.from());
            json.put("to", link.to());
            json.put("capacityKbps", link.capacityKbps());
            json.put("cost", Math.round(link.cost()));
            links.add(json);
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("nodes", nodes);
        document.put("links", links);
        return document;
    }

    /** {@code source}, {@code reflector}, {@code edge}, {@code client-group}. */
    public static String name(Tier tier) {
        return tier.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Tier tier(String name, String path) {
        for (Tier tier : Tier.values()) {
            if (name(tier).equals(name)) {
                return tier;
            }
        }
        throw problem(path, "must be source, reflector, edge or client-group, not \"" + name + "\"");
    }
}
