package io.heliograph.circuit.engine;

import static io.heliograph.core.json.JsonPath.problem;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.heliograph.core.json.Json;
import io.heliograph.core.json.JsonPath;

/**
 * The schedule's documented JSON type (apps/circuit/README.md, "The schedule as JSON"), through core's
 * one codec, which takes whole numbers only, so every time is a whole number of microseconds:
 * <pre>
 * {
 *   "weekMicros": 600,
 *   "nightMicros": 20,
 *   "days": [
 *     {"upMicros": 280, "sourceOf": [3, 0, 1, 2]},
 *     {"upMicros": 280, "sourceOf": [1, 2, 3, 0], "dummy": [false, true, false, false]}
 *   ]
 * }
 * </pre>
 * A day is {@code upMicros} of circuit followed by one night; output port j takes from rack
 * {@code sourceOf[j]}; {@code dummy} (optional, all false when absent) marks ports that only fill the
 * matching. {@code weekMicros} is the days plus their nights, exactly. Every problem is an
 * {@link IllegalArgumentException} whose message starts with its JSON path: an unknown member, a
 * source rack that feeds two output ports (naming both), a week no longer than one night, a week that is
 * not its days and nights, and, against a network, a day shorter than the minimum, another night, other
 * racks or a week longer than the network's.
 */
public final class ScheduleJson {

    /** Far beyond any week (about 11 days), so that sums of days never overflow. */
    static final long MAX_MICROS = 1_000_000_000_000L;

    /** Far beyond any circuit switch's ports. */
    static final int MAX_RACKS = 4096;

    /** Far beyond a week of shortest days. */
    static final int MAX_DAYS = 100_000;

    private static final Set<String> MEMBERS = Set.of("weekMicros", "nightMicros", "days");

    private static final Set<String> DAY_MEMBERS = Set.of("upMicros", "sourceOf", "dummy");

    private ScheduleJson() {
    }

    /** The week as plain values, for {@link Json}. */
    public static Map<String, Object> toJson(WeekPlan week) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("weekMicros", week.weekMicros());
        json.put("nightMicros", week.nightMicros());
        List<Object> days = new ArrayList<>();
        for (Day day : week.days()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("upMicros", day.micros() - week.nightMicros());
            List<Long> sourceOf = new ArrayList<>();
            List<Boolean> dummy = new ArrayList<>();
            boolean anyDummy = false;
            for (int j = 0; j < day.sourceOf().length; j++) {
                sourceOf.add((long) day.source(j));
                dummy.add(day.dummy(j));
                anyDummy |= day.dummy(j);
            }
            entry.put("sourceOf", sourceOf);
            if (anyDummy) {
                entry.put("dummy", dummy);
            }
            days.add(entry);
        }
        json.put("days", days);
        return json;
    }

    /** The week as indented JSON text. */
    public static String write(WeekPlan week) {
        return Json.pretty(toJson(week));
    }

    /** A week from JSON text; the first problem by JSON path. */
    public static WeekPlan read(String text) {
        return fromJson(Json.parse(text));
    }

    /** A week from JSON text, also checked against {@code network}; the first problem by JSON path. */
    public static WeekPlan read(String text, CircuitParameters network) {
        return fromJson(Json.parse(text), network);
    }

    /** A week from plain values ({@link Json#parse}'s); the first problem by JSON path. */
    public static WeekPlan fromJson(Object json) {
        return fromJson(json, null);
    }

    /** A week from plain values, checked against {@code network} when it is not null. */
    public static WeekPlan fromJson(Object json, CircuitParameters network) {
        Map<String, Object> object = JsonPath.object(json, "$", MEMBERS);
        long night = JsonPath.whole(JsonPath.required(object, "nightMicros", "$"), "$.nightMicros", 1, MAX_MICROS);
        if (network != null && night != network.nightMicros()) {
            throw problem("$.nightMicros", night + " is not the network's night of " + network.nightMicros() + " us");
        }
        long week = JsonPath.whole(JsonPath.required(object, "weekMicros", "$"), "$.weekMicros", 0, MAX_MICROS);
        if (week <= night) {
            throw problem("$.weekMicros", "a week of " + week + " us is shorter than one day and its night of " + night
                    + " us");
        }
        List<?> list = JsonPath.list(JsonPath.required(object, "days", "$"), "$.days");
        if (list.isEmpty() || list.size() > MAX_DAYS) {
            throw problem("$.days", "must hold from 1 to " + MAX_DAYS + " days, not " + list.size());
        }
        int racks = -1;
        long total = 0;
        List<Day> days = new ArrayList<>();
        for (int k = 0; k < list.size(); k++) {
            String path = "$.days[" + k + "]";
            Map<String, Object> entry = JsonPath.object(list.get(k), path, DAY_MEMBERS);
            long up = JsonPath.whole(JsonPath.required(entry, "upMicros", path), path + ".upMicros", 1, MAX_MICROS);
            if (network != null && up + night < network.minDayMicros()) {
                throw problem(path + ".upMicros", up + " us and its night of " + night + " us are shorter than the minimum"
                        + " day of " + network.minDayMicros() + " us");
            }
            List<?> sources = JsonPath.list(JsonPath.required(entry, "sourceOf", path), path + ".sourceOf");
            if (racks < 0) {
                racks = sources.size();
                if (racks < 2 || racks > MAX_RACKS) {
                    throw problem(path + ".sourceOf", "must match from 2 to " + MAX_RACKS + " ports, not " + racks);
                }
                if (network != null && racks != network.racks()) {
                    throw problem(path + ".sourceOf", "matches " + racks + " ports; the network has " + network.racks()
                            + " racks");
                }
            } else if (sources.size() != racks) {
                throw problem(path + ".sourceOf", "matches " + sources.size() + " ports, the first day " + racks);
            }
            int[] sourceOf = new int[racks];
            int[] feeds = new int[racks];
            java.util.Arrays.fill(feeds, -1);
            for (int j = 0; j < racks; j++) {
                int source = (int) JsonPath.whole(sources.get(j), path + ".sourceOf[" + j + "]", 0, racks - 1);
                if (feeds[source] >= 0) {
                    throw problem(path + ".sourceOf[" + j + "]", "not a perfect matching: rack " + source
                            + " already feeds output port " + feeds[source] + ", so it cannot feed output port " + j
                            + " too");
                }
                feeds[source] = j;
                sourceOf[j] = source;
            }
            boolean[] dummy = new boolean[racks];
            if (entry.containsKey("dummy")) {
                List<?> marks = JsonPath.list(entry.get("dummy"), path + ".dummy");
                if (marks.size() != racks) {
                    throw problem(path + ".dummy", "must mark " + racks + " ports, not " + marks.size());
                }
                for (int j = 0; j < racks; j++) {
                    dummy[j] = JsonPath.bool(marks.get(j), path + ".dummy[" + j + "]");
                }
            }
            total += up + night;
            days.add(new Day(up + night, sourceOf, dummy));
        }
        if (total != week) {
            throw problem("$.weekMicros", week + " us is not the days and their nights, " + total + " us");
        }
        if (network != null && week > network.weekMicros()) {
            throw problem("$.weekMicros", "the days and nights last " + week + " us, longer than the network's week of "
                    + network.weekMicros() + " us");
        }
        return new WeekPlan(night, days);
    }
}
