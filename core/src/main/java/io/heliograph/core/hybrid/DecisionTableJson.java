package io.heliograph.core.hybrid;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.heliograph.core.json.Json;

/**
 * A {@link DecisionTable} as JSON, the form it is stored in and sent to agents outside the controller:
 *
 * <pre>
 * {"partition": "E1", "version": 7, "issuedAt": 1764450000000,
 *  "decisions": [{"key": "v0/800", "value": "R2", "origin": "CENTRAL", "version": 7,
 *                 "decidedAt": 1764449990000, "evidence": {"R2->E1": 100000, "viewers:v0/800": 3000}}]}
 * </pre>
 *
 * Times are milliseconds since the epoch. A measurement is a JSON number when it is whole and a
 * decimal string otherwise ({@code "2.5"}), since the controller's JSON takes only whole numbers.
 * Reading refuses a malformed table with an IllegalArgumentException that names the JSON path and the
 * problem ({@code $.decisions[3].version: not a whole number}), which a REST resource answers with 400.
 * {@link #fromJson} also takes a document read by another mapper (the REST layer's), whose numbers may be
 * Integers or Doubles.
 *
 * @param <V> what is decided
 */
public final class DecisionTableJson<V> {

    /** Whole measurements up to this size are written as numbers: a double holds every whole number below it exactly. */
    private static final double EXACT_WHOLE = 9_007_199_254_740_992.0; // 2^53

    private final ValueCodec<V> values;

    /** Tables whose decision values {@code values} writes and reads. */
    public DecisionTableJson(ValueCodec<V> values) {
        this.values = Objects.requireNonNull(values, "values");
    }

    /** Tables of string values (VDN's next-hop cluster ids). */
    public static DecisionTableJson<String> ofStrings() {
        return new DecisionTableJson<>(ValueCodec.strings());
    }

    /** The table as plain JSON values. */
    public Map<String, Object> toJson(DecisionTable<V> table) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("partition", table.partition());
        json.put("version", table.version());
        json.put("issuedAt", table.issuedAt().toEpochMilli());
        List<Object> decisions = new ArrayList<>();
        for (Decision<V> d : table.decisions()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("key", d.key());
            entry.put("value", values.toJson(d.value()));
            entry.put("origin", d.origin().name());
            entry.put("version", d.version());
            entry.put("decidedAt", d.decidedAt().toEpochMilli());
            Map<String, Object> evidence = new LinkedHashMap<>();
            d.evidence().measurements().forEach((name, value) -> evidence.put(name, measurement(value)));
            entry.put("evidence", evidence);
            decisions.add(entry);
        }
        json.put("decisions", decisions);
        return json;
    }

    /** The table as compact UTF-8 JSON. */
    public byte[] encode(DecisionTable<V> table) {
        return Json.compact(toJson(table));
    }

    /** The table in UTF-8 JSON; IllegalArgumentException naming where the text or the table is malformed. */
    public DecisionTable<V> decode(byte[] utf8) {
        Object document;
        try {
            document = Json.parse(utf8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("$: not JSON: " + e.getMessage(), e);
        }
        return fromJson(document);
    }

    /** The table of a parsed JSON document; IllegalArgumentException naming the JSON path and the problem. */
    public DecisionTable<V> fromJson(Object document) {
        Map<?, ?> json = object(document, "$");
        String partition = text(json, "$", "partition");
        long version = whole(json, "$", "version");
        Instant issuedAt = Instant.ofEpochMilli(whole(json, "$", "issuedAt"));
        Object listed = json.get("decisions");
        if (!(listed instanceof List<?> entries)) {
            throw new IllegalArgumentException("$.decisions: " + (listed == null ? "missing" : "not a list"));
        }
        List<Decision<V>> decisions = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            String path = "$.decisions[" + i + "]";
            Decision<V> d = decision(object(entries.get(i), path), path);
            if (d.version() > version) {
                throw new IllegalArgumentException(path + ".version: " + d.version() + " is newer than the table's " + version);
            }
            if (!keys.add(d.key())) {
                throw new IllegalArgumentException(path + ".key: " + d.key() + " appears twice");
            }
            decisions.add(d);
        }
        try {
            return new DecisionTable<>(partition, version, issuedAt, decisions);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("$: " + e.getMessage(), e);
        }
    }

    private Decision<V> decision(Map<?, ?> json, String path) {
        String key = text(json, path, "key");
        try {
            ChannelPattern.parse(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ".key: " + e.getMessage(), e);
        }
        if (!json.containsKey("value")) {
            throw new IllegalArgumentException(path + ".value: missing");
        }
        V value = values.fromJson(json.get("value"), path + ".value");
        String originName = text(json, path, "origin");
        Origin origin;
        try {
            origin = Origin.valueOf(originName);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(path + ".origin: not CENTRAL or LOCAL: " + originName, e);
        }
        long version = whole(json, path, "version");
        Instant decidedAt = Instant.ofEpochMilli(whole(json, path, "decidedAt"));
        Map<?, ?> evidenceJson = object(json.get("evidence"), path + ".evidence");
        Map<String, Double> measurements = new LinkedHashMap<>();
        for (Map.Entry<?, ?> m : evidenceJson.entrySet()) {
            String name = (String) m.getKey();
            String at = path + ".evidence[\"" + name + "\"]";
            if (name.isBlank()) {
                throw new IllegalArgumentException(at + ": a measurement without a name");
            }
            measurements.put(name, measurement(m.getValue(), at));
        }
        return new Decision<>(key, value, origin, version, Evidence.of(measurements), decidedAt);
    }

    private static Object measurement(double value) {
        return value == Math.rint(value) && Math.abs(value) < EXACT_WHOLE ? (Object) (long) value : Double.toString(value);
    }

    private static double measurement(Object json, String path) {
        if (json instanceof Number n && Double.isFinite(n.doubleValue())) {
            return n.doubleValue();
        }
        if (json instanceof String s) {
            try {
                double value = Double.parseDouble(s);
                if (Double.isFinite(value)) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // refused below, with the path
            }
        }
        throw new IllegalArgumentException(path + ": not a finite number: " + json);
    }

    private static Map<?, ?> object(Object json, String path) {
        if (!(json instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(path + ": " + (json == null ? "missing" : "not an object"));
        }
        return map;
    }

    private static String text(Map<?, ?> json, String path, String member) {
        Object value = json.get(member);
        if (!(value instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException(path + "." + member + ": " + (value == null ? "missing" : "not a non-empty string"));
        }
        return s;
    }

    private static long whole(Map<?, ?> json, String path, String member) {
        Object value = json.get(member);
        if (!(value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)) {
            throw new IllegalArgumentException(path + "." + member + ": " + (value == null ? "missing" : "not a whole number"));
        }
        long l = ((Number) value).longValue();
        if (l < 0) {
            throw new IllegalArgumentException(path + "." + member + ": negative: " + l);
        }
        return l;
    }
}
