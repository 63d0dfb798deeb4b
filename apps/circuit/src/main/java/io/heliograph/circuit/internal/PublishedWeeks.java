package io.heliograph.circuit.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.heliograph.circuit.ScheduleView;
import io.heliograph.circuit.engine.ScheduleJson;

/**
 * What the scheduling loop publishes (locally, and in a cluster to the shared store, so every instance
 * serves it): the week in force, the next one, and the loop's last error (a scheduler or estimator that
 * threw: the running schedule was kept).
 *
 * @param current       null before the first week
 * @param next          null until computed
 * @param error         the last error's message, null when none
 * @param errorAtMillis when it happened (epoch milliseconds)
 * @param errors        how many computations failed since the loop started
 * @param instance      the instance whose loop published it
 */
record PublishedWeeks(ScheduleView current, ScheduleView next, String error, long errorAtMillis, long errors,
        String instance) {

    static final PublishedWeeks NONE = new PublishedWeeks(null, null, null, 0, 0, null);

    /** As stored: whole numbers only (core's Json), so the matrices are whole bytes. */
    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("current", current == null ? null : view(current, true));
        json.put("next", next == null ? null : view(next, true));
        json.put("error", error);
        json.put("errorAtMillis", errorAtMillis);
        json.put("errors", errors);
        json.put("instance", instance);
        return json;
    }

    /** One week as JSON: {@code stored} keeps what {@link #fromJson} reads back; else the REST view with the leftover too. */
    static Map<String, Object> view(ScheduleView v, boolean stored) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("week", v.week());
        json.put("startEpochNanos", v.startEpochNanos());
        if (!stored) {
            json.put("start", java.time.Instant.ofEpochSecond(0, v.startEpochNanos()).toString());
        }
        json.put("scheduler", v.scheduler());
        json.put("estimator", v.estimator());
        json.put("plan", ScheduleJson.toJson(v.plan()));
        json.put("demand", whole(v.demand()));
        json.put("circuitBytes", whole(v.circuitBytes()));
        if (!stored) {
            json.put("leftoverBytes", whole(v.leftoverBytes()));
        }
        return json;
    }

    @SuppressWarnings("unchecked")
    static PublishedWeeks fromJson(Object json) {
        Map<String, Object> m = (Map<String, Object>) json;
        return new PublishedWeeks(week(m.get("current")), week(m.get("next")), (String) m.get("error"),
                number(m.get("errorAtMillis")), number(m.get("errors")), (String) m.get("instance"));
    }

    @SuppressWarnings("unchecked")
    private static ScheduleView week(Object json) {
        if (json == null) {
            return null;
        }
        Map<String, Object> m = (Map<String, Object>) json;
        return new ScheduleView(number(m.get("week")), number(m.get("startEpochNanos")),
                ScheduleJson.fromJson(m.get("plan")), (String) m.get("scheduler"), (String) m.get("estimator"),
                matrix(m.get("demand")), matrix(m.get("circuitBytes")));
    }

    static List<List<Long>> whole(double[][] m) {
        List<List<Long>> rows = new ArrayList<>();
        for (double[] row : m) {
            List<Long> r = new ArrayList<>();
            for (double v : row) {
                r.add(Math.round(v));
            }
            rows.add(r);
        }
        return rows;
    }

    static double[][] matrix(Object json) {
        List<?> rows = (List<?>) json;
        double[][] m = new double[rows.size()][];
        for (int i = 0; i < m.length; i++) {
            List<?> row = (List<?>) rows.get(i);
            m[i] = new double[row.size()];
            for (int j = 0; j < m[i].length; j++) {
                m[i][j] = ((Number) row.get(j)).doubleValue();
            }
        }
        return m;
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
