package io.heliograph.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where {@link SilentSwitchesIT} and {@link MacFloodIT} read the controller's own account of its
 * state: the REST paths and field names they assume, in one place. Issue 18's other parts add two
 * of them (the static flows' reconciliation state, and the bounds at {@code /api/v1/limits}); align
 * the constants here with what those resources serve.
 */
final class ControllerStateApi {

    /**
     * One switch's static-flow reconciliation: {@code GET <path><dpid>} answers an object whose
     * {@link #RECONCILIATION_STATE} field says where it stands, "not possible" for a switch that never
     * answered the flow statistics request (any case; spaces, dashes or underscores alike).
     */
    static final String RECONCILIATION = "/api/v1/staticflows/reconciliation/";
    static final String RECONCILIATION_STATE = "state";
    static final String NOT_POSSIBLE = "not possible";
    /**
     * Every bounded table ({@code io.heliograph.core.StateBounds.Bound}): an array of objects with
     * {@code table, setting, limit, size, evicted, refused, description}, or an object holding one.
     */
    static final String LIMITS = "/api/v1/limits";
    /** Prometheus text; the JVM's heap in use is this sample. */
    static final String METRICS = "/metrics";
    private static final Pattern HEAP_USED = Pattern.compile(
            "^jvm_memory_bytes_used\\{area=\"heap\"\\} ([0-9.eE+]+)$", Pattern.MULTILINE);

    private ControllerStateApi() {
    }

    /** The reconciliation state of switch {@code dpid}, or what answered instead ("HTTP 404: ..."). */
    static String reconciliationState(RestClient rest, String dpid) {
        Response r = rest.get(RECONCILIATION + dpid);
        if (r.status() != 200) {
            return "HTTP " + r.status() + ": " + r.body();
        }
        JsonNode state = r.json().get(RECONCILIATION_STATE);
        return state == null ? "no " + RECONCILIATION_STATE + " in " + r.body() : state.asText();
    }

    static boolean notPossible(String state) {
        return state.toLowerCase(Locale.ROOT).replaceAll("[\\s_-]+", " ").strip().equals(NOT_POSSIBLE);
    }

    /** One bounded table as {@link #LIMITS} lists it. */
    record Bound(String table, long limit, long size, long evicted, long refused) {
    }

    /** Every bounded table {@link #LIMITS} lists; fails the test when it does not answer 200. */
    static List<Bound> limits(RestClient rest) {
        Response r = rest.get(LIMITS);
        if (r.status() != 200) {
            throw new AssertionError(LIMITS + " answered " + r.status() + ": " + r.body());
        }
        List<Bound> bounds = new ArrayList<>();
        collect(r.json(), bounds);
        return bounds;
    }

    private static void collect(JsonNode node, List<Bound> into) {
        if (node.isObject() && node.has("table") && node.has("evicted")) {
            into.add(new Bound(node.get("table").asText(), node.path("limit").asLong(), node.path("size").asLong(),
                    node.get("evicted").asLong(), node.path("refused").asLong()));
            return;
        }
        node.forEach(child -> collect(child, into));
    }

    /** Bytes of heap the controller's JVM uses now, from {@link #METRICS}. */
    static long heapUsed(RestClient rest) {
        Response r = rest.get(METRICS);
        Matcher m = HEAP_USED.matcher(r.body());
        if (r.status() != 200 || !m.find()) {
            throw new AssertionError(METRICS + " has no heap sample: " + r.status() + " " + r.body());
        }
        return (long) Double.parseDouble(m.group(1));
    }
}
