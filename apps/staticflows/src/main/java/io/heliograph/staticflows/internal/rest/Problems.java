package io.heliograph.staticflows.internal.rest;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.heliograph.webui.api.Requests;

/**
 * Turns the static flow service's problems (sentences, each naming what is at fault) into a refusal
 * that names one request field: the field a missing prerequisite asks for ({@code eth_type} for an
 * {@code ipv4_dst} match without it), the member whose value is wrong, or the part of the entry
 * (group_buckets, meter_bands) a problem is about. Problems with stored state (an id another entry
 * defines, an entry still in use) are conflicts.
 */
final class Problems {

    /** Members an entry may have besides its match fields, as the request names them. */
    private static final Set<String> MEMBERS = Set.of("switch", "name", "entry_type", "table", "priority",
            "idle_timeout", "hard_timeout", "cookie", "flags", "actions", "instruction_apply_actions",
            "instruction_write_actions", "instruction_clear_actions", "instruction_goto_table", "instruction_goto_meter",
            "instruction_write_metadata", "group_id", "group_type", "group_buckets", "meter_id", "meter_flags",
            "meter_bands");

    private static final Pattern UNKNOWN_MATCH = Pattern.compile("unknown match field '([^']+)'");
    /** "needs eth_type=0x0800", "needs in_port in the match", "needs a VLAN: match eth_vlan_vid with ..." */
    private static final Pattern NEEDS = Pattern.compile(
            "needs (?:an? [^:]+: )?(?:match )?([a-z][a-z0-9_]*)(?:=| in the match| with)");
    private static final Pattern MATCH_FIELD = Pattern.compile("^match field ([a-z][a-z0-9_]*)");
    private static final Pattern QUOTED_MEMBER = Pattern.compile("^'([a-z][a-z0-9_]*)' ");
    private static final Pattern LEADING_WORD = Pattern.compile("^([a-z][a-z0-9_]*)[ =:]");
    private static final Pattern QUOTED = Pattern.compile("'([^']+)'");

    private Problems() {
    }

    /** The refusal for these problems (at least one) with the entry {@code document} as the request gave it. */
    static RuntimeException refusal(List<String> problems, Map<String, Object> document) {
        String message = String.join("; ", problems);
        boolean conflict = problems.stream().allMatch(Problems::isConflict);
        String first = problems.stream().filter(p -> conflict || !isConflict(p)).findFirst().orElse(problems.get(0));
        String field = fieldOf(first, document);
        return conflict ? Requests.conflict(field, message) : Requests.badRequest(field, message);
    }

    static boolean isConflict(String problem) {
        return problem.contains(" is already defined by ") || problem.endsWith("change or delete it first");
    }

    /** The request field a problem is about, or null when it is about no single one. */
    static String fieldOf(String problem, Map<String, Object> document) {
        Matcher m = UNKNOWN_MATCH.matcher(problem);
        if (m.find()) {
            return m.group(1);
        }
        m = NEEDS.matcher(problem);
        if (m.find()) {
            return m.group(1);
        }
        m = MATCH_FIELD.matcher(problem);
        if (m.find()) {
            return m.group(1);
        }
        m = QUOTED_MEMBER.matcher(problem);
        if (m.find() && (MEMBERS.contains(m.group(1)) || document.containsKey(m.group(1)))) {
            return m.group(1);
        }
        if (problem.startsWith("name '")) {
            return "name";
        }
        if (problem.startsWith("bucket ") || problem.startsWith("an indirect group") || problem.contains(" groups with ")) {
            return "group_buckets";
        }
        if (problem.startsWith("band ") || problem.startsWith("a meter needs")) {
            return "meter_bands";
        }
        if (problem.startsWith("flag ")) {
            return "flags";
        }
        if (problem.startsWith("group_id ") || problem.contains(" uses group ")) {
            return "group_id";
        }
        if (problem.startsWith("meter_id ") || problem.contains(" uses meter ")) {
            return "meter_id";
        }
        m = LEADING_WORD.matcher(problem);
        if (m.find() && (MEMBERS.contains(m.group(1)) || document.containsKey(m.group(1)))) {
            String word = m.group(1);
            // The service names the apply-actions instruction; Floodlight's documents may call it "actions".
            return word.equals("instruction_apply_actions") && !document.containsKey(word)
                    && document.containsKey("actions") ? "actions" : word;
        }
        m = QUOTED.matcher(problem);
        while (m.find()) {
            String quoted = m.group(1);
            for (Map.Entry<String, Object> e : document.entrySet()) {
                if (e.getValue() != null && String.valueOf(e.getValue()).contains(quoted)) {
                    return e.getKey();
                }
            }
        }
        return null;
    }
}
