package io.heliograph.vdn.internal;

import static io.heliograph.core.json.JsonPath.problem;

import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.hybrid.HybridTable;
import io.heliograph.core.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The FIB a local agent publishes for the operator: its hybrid table's snapshot (the central entries in
 * use and its local ones, as {@code DecisionTableJson}), its mode, the shadow versions it keeps, and its
 * serving figures:
 *
 * <pre>
 * {"mode": "CENTRAL", "shadows": [11, 10],
 *  "table": {"partition": "E1", "version": 12, "issuedAt": ..., "decisions": [...]},
 *  "serving": {"joins": 40, "joinMillisMedian": 180, "clients": 12, "bitrateKbpsMean": 1200}}
 * </pre>
 *
 * Checked member by member (a refusal names the JSON path); kept as the plain JSON it came as.
 */
final class FibReport {

    private static final Set<String> MEMBERS = Set.of("mode", "shadows", "table", "serving");
    private static final Set<String> MODES = Set.of(HybridTable.Mode.CENTRAL.name(), HybridTable.Mode.DISTRIBUTED.name());

    private FibReport() {
    }

    /** The FIB of {@code cluster}'s agent; IllegalArgumentException naming the JSON path of a problem. */
    static Map<String, Object> read(Object document, String cluster) {
        Map<String, Object> root = JsonPath.object(document, "$", MEMBERS);
        String mode = JsonPath.text(JsonPath.required(root, "mode", "$"), "$.mode");
        if (!MODES.contains(mode)) {
            throw problem("$.mode", "must be CENTRAL or DISTRIBUTED, not \"" + mode + "\"");
        }
        if (root.containsKey("shadows")) {
            List<?> shadows = JsonPath.list(root.get("shadows"), "$.shadows");
            for (int i = 0; i < shadows.size(); i++) {
                JsonPath.whole(shadows.get(i), "$.shadows[" + i + "]", 0, Long.MAX_VALUE);
            }
        }
        DecisionTable<String> table;
        try {
            table = VdnRuntime.TABLES.fromJson(JsonPath.required(root, "table", "$"));
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            throw new IllegalArgumentException(message.startsWith("$") ? "$.table" + message.substring(1) : message, e);
        }
        if (!table.partition().equals(cluster)) {
            throw problem("$.table.partition", "the FIB of " + table.partition() + " is not " + cluster + "'s");
        }
        if (root.containsKey("serving")) {
            Map<String, Object> serving = JsonPath.object(root.get("serving"), "$.serving");
            serving.forEach((name, value) -> JsonPath.whole(value, "$.serving." + name, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        return root;
    }

    /** The number of entries of a FIB's table. */
    static int entries(Map<String, Object> fib) {
        return fib.get("table") instanceof Map<?, ?> table && table.get("decisions") instanceof List<?> list ? list.size() : 0;
    }
}
