package io.heliograph.vdn.internal;

import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.json.JsonPath;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A decision of the central optimiser as every instance serves it: its version, its summary (when, how
 * long, the objective, the gap, the requests served), each cluster's RIB and each video's trees. Version
 * 0 is none yet. In the store the RIBs are the hybrid-control tables ({@code SharedDecisionTables}); the
 * summary and the trees are one value ({@link #toJson}).
 */
record VdnDecision(long version, Map<String, Object> summary, Map<String, DecisionTable<String>> ribs,
        Map<String, Map<String, Object>> trees) {

    static final VdnDecision NONE = new VdnDecision(0, Map.of("version", 0L, "state", "no decision yet"), Map.of(),
            Map.of());
    private static final Set<String> MEMBERS = Set.of("version", "summary", "trees");

    VdnDecision {
        summary = Map.copyOf(summary);
        ribs = Map.copyOf(ribs);
        trees = Map.copyOf(trees);
    }

    /** The summary and the trees (not the RIBs) as plain JSON. */
    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("version", version);
        json.put("summary", new TreeMap<>(summary));
        json.put("trees", new TreeMap<>(trees));
        return json;
    }

    /** A decision stored as {@link #toJson}, with the RIBs read beside it. */
    static VdnDecision fromJson(Object json, Map<String, DecisionTable<String>> ribs) {
        Map<String, Object> root = JsonPath.object(json, "$", MEMBERS);
        Map<String, Map<String, Object>> trees = new LinkedHashMap<>();
        JsonPath.object(root.get("trees"), "$.trees").forEach((video, tree) -> trees.put(video,
                JsonPath.object(tree, "$.trees." + video)));
        return new VdnDecision(JsonPath.whole(root.get("version"), "$.version", 0, Long.MAX_VALUE),
                JsonPath.object(root.get("summary"), "$.summary"), ribs, trees);
    }
}
