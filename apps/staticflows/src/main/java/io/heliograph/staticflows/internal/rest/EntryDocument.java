package io.heliograph.staticflows.internal.rest;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.heliograph.core.json.Json;
import io.heliograph.staticflows.StaticEntry;
import io.heliograph.staticflows.internal.EntryCodec;
import io.heliograph.webui.api.Requests;

/**
 * A static entry as a request body gives it: a JSON object with Floodlight's static entry pusher
 * names ({@code switch}, {@code name}, {@code entry_type}, {@code priority}, match fields at the top
 * level, {@code actions} or {@code instruction_apply_actions}, {@code group_buckets}, {@code meter_bands}).
 * A flow's unknown members are match fields, which validation names when unknown; a group's or a
 * meter's unknown members are refused here, since the codec would pass over them in silence.
 */
final class EntryDocument {

    private static final Set<String> COMMON = Set.of("switch", "name", "entry_type", "active");
    private static final Set<String> GROUP = Set.of("group_id", "group_type", "group_buckets");
    private static final Set<String> BUCKET = Set.of("bucket_weight", "bucket_watch_port", "bucket_watch_group",
            "bucket_actions");
    private static final Set<String> METER = Set.of("meter_id", "meter_flags", "meter_bands");
    private static final Set<String> BAND = Set.of("type", "rate", "burst_size", "prec_level");

    final Map<String, Object> members;

    private EntryDocument(Map<String, Object> members) {
        this.members = members;
    }

    /**
     * Parses a body sent as {@code curl -d '{...}'} sends it, with the form content type: Spring
     * rebuilds such a POST's body from the servlet's form parameters, URL-encoded, so an encoded
     * JSON object is decoded first.
     */
    static EntryDocument parseForm(String body) {
        String text = body == null ? null : body.strip();
        if (text != null && text.regionMatches(true, 0, "%7B", 0, 3)) {
            try {
                text = URLDecoder.decode(text, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // not URL-encoded after all: parse reports it as it is
            }
        }
        return parse(text);
    }

    /** Parses a body; refuses what is not one JSON object. */
    @SuppressWarnings("unchecked")
    static EntryDocument parse(String body) {
        if (body == null || body.isBlank()) {
            throw Requests.badRequest(null, "the request has no body; send the entry as a JSON object");
        }
        Object value;
        try {
            value = Json.parse(body);
        } catch (IllegalArgumentException e) {
            throw Requests.badRequest(null, "the body is not valid JSON: " + e.getMessage());
        }
        if (!(value instanceof Map)) {
            throw Requests.badRequest(null, "the body must be a JSON object, not " + kindOf(value));
        }
        EntryDocument document = new EntryDocument(new LinkedHashMap<>((Map<String, Object>) value));
        Object dpid = document.members.get("switch");
        if (dpid instanceof String || dpid instanceof Long) {
            // Any form of datapath id the API takes; the codec reads the colon form.
            document.members.put("switch", Requests.dpid("switch", String.valueOf(dpid)).toString());
        }
        return document;
    }

    /** "flow", "group" or "meter": the entry_type given (in any case, as the codec reads it), flow when none is. */
    String kind() {
        Object type = members.get("entry_type");
        return type == null ? "flow" : String.valueOf(type).toLowerCase(Locale.ROOT);
    }

    /** Sets entry_type to {@code kind} when absent; refuses another kind. */
    void requireKind(String kind, String why) {
        if (members.get("entry_type") == null) {
            members.put("entry_type", kind);
        } else if (!kind().equals(kind)) {
            throw Requests.badRequest("entry_type", "'" + members.get("entry_type") + "' does not match " + why
                    + " '" + kind + "'");
        }
    }

    /**
     * Sets {@code member} to {@code value} when absent; refuses a different value, naming the member
     * (a body that disagrees with its path, or an entry_type the path does not take).
     */
    void require(String member, String value, String why) {
        Object given = members.get(member);
        if (given == null) {
            members.put(member, value);
        } else if (!String.valueOf(given).equals(value)) {
            throw Requests.badRequest(member, "'" + given + "' does not match " + why + " '" + value + "'");
        }
    }

    /** The entry these members describe; refuses members no entry of its kind has, or values the codec cannot read. */
    StaticEntry entry() {
        switch (kind()) {
            case "group" -> {
                members(members, GROUP, "");
                if (members.get("group_buckets") instanceof List<?> buckets) {
                    objects(buckets, BUCKET, "group_buckets");
                }
            }
            case "meter" -> {
                members(members, METER, "");
                if (members.get("meter_bands") instanceof List<?> bands) {
                    objects(bands, BAND, "meter_bands");
                }
            }
            default -> {
                // a flow: any other member is a match field, checked by validation
            }
        }
        try {
            return EntryCodec.fromJson(members);
        } catch (IllegalArgumentException e) {
            throw Problems.refusal(List.of(e.getMessage()), members);
        }
    }

    private static void members(Map<?, ?> object, Set<String> known, String where) {
        for (Object key : object.keySet()) {
            if (!COMMON.contains(key) && !known.contains(key)) {
                throw Requests.badRequest(where + key, "unknown member '" + key + "'" + (where.isEmpty() ? "" : " in " + where)
                        + "; known: " + known.stream().sorted().toList());
            }
        }
    }

    private static void objects(List<?> list, Set<String> known, String listName) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) instanceof Map<?, ?> object) {
                for (Object key : object.keySet()) {
                    if (!known.contains(key)) {
                        throw Requests.badRequest(listName + "[" + i + "]." + key, "unknown member '" + key + "' in "
                                + listName + "[" + i + "]; known: " + known.stream().sorted().toList());
                    }
                }
            }
        }
    }

    private static String kindOf(Object value) {
        if (value instanceof List) {
            return "an array";
        }
        if (value instanceof String) {
            return "a string";
        }
        return value == null ? "null" : value instanceof Boolean ? "a boolean" : "a number";
    }
}
