package io.heliograph.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Declarative Services components as the Gogo {@code scr:list} command shows them: a line per
 * component ("io.heliograph.topology.internal.TopologyComponent in bundle 28 (...) enabled, 1 instance.")
 * followed by a line per instance ("    Id: 9, State:ACTIVE, PID(s): [io.heliograph.topology]").
 * A component with no instance (not satisfied, or disabled) has a row with a null state.
 */
public record ComponentList(List<Row> rows) {

    private static final Pattern COMPONENT = Pattern.compile(
            "^(\\S+) in bundle (\\d+) \\(.*\\) (enabled|disabled), (\\d+) instances?\\.\\s*$");
    private static final Pattern INSTANCE = Pattern.compile("^\\s+Id: (\\d+), State:([A-Z ]+?)(?:,.*)?\\s*$");

    public static ComponentList parse(String output) {
        List<Row> rows = new ArrayList<>();
        String component = null;
        boolean sawInstance = false;
        for (String raw : output.split("\\R")) {
            String line = raw.startsWith("g! ") ? raw.substring(3) : raw;
            Matcher c = COMPONENT.matcher(line);
            Matcher i = INSTANCE.matcher(line);
            if (c.matches()) {
                if (component != null && !sawInstance) {
                    rows.add(new Row(component, null));
                }
                component = c.group(1);
                sawInstance = false;
            } else if (i.matches() && component != null) {
                rows.add(new Row(component, i.group(2).strip()));
                sawInstance = true;
            }
        }
        if (component != null && !sawInstance) {
            rows.add(new Row(component, null));
        }
        return new ComponentList(rows);
    }

    /** The instance of the component with this (class) name, if scr:list shows one. */
    public Optional<Row> find(String name) {
        return rows.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /**
     * Components that are neither ACTIVE nor SATISFIED (a delayed component that nobody has asked for
     * yet, such as a shell command): UNSATISFIED REFERENCE, FAILED ACTIVATION, no instance at all.
     */
    public List<Row> notRunning() {
        return rows.stream().filter(r -> !"ACTIVE".equals(r.state()) && !"SATISFIED".equals(r.state())).toList();
    }

    /** One component instance: its name and state as scr:list spells it (ACTIVE, SATISFIED, ...). */
    public record Row(String name, String state) {
    }
}
