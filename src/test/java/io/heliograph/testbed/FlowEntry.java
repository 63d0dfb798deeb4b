package io.heliograph.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One line of {@code ovs-ofctl dump-flows}: its counters, timeouts, priority, match and actions. */
public record FlowEntry(long packets, long bytes, int priority, OptionalInt idleTimeout, OptionalInt hardTimeout,
                        String match, String actions, String line) {

    private static final Pattern PACKETS = Pattern.compile("\\bn_packets=(\\d+)");
    private static final Pattern BYTES = Pattern.compile("\\bn_bytes=(\\d+)");
    private static final Pattern IDLE = Pattern.compile("\\bidle_timeout=(\\d+)");
    private static final Pattern HARD = Pattern.compile("\\bhard_timeout=(\\d+)");
    private static final Pattern PRIORITY = Pattern.compile("\\bpriority=(\\d+)");
    /** OpenFlow's default priority, which ovs-ofctl leaves out of its output. */
    private static final int DEFAULT_PRIORITY = 0x8000;

    public static List<FlowEntry> parseDump(String dump) {
        List<FlowEntry> flows = new ArrayList<>();
        for (String line : dump.split("\n")) {
            if (line.contains("actions=")) {
                flows.add(parse(line.strip()));
            }
        }
        return flows;
    }

    static FlowEntry parse(String line) {
        int actionsAt = line.lastIndexOf(" actions=");
        String head = actionsAt < 0 ? line : line.substring(0, actionsAt);
        String actions = actionsAt < 0 ? "" : line.substring(actionsAt + " actions=".length());
        // the match is what follows the statistics: "..., idle_timeout=5, priority=1,in_port=1,dl_dst=..."
        String[] fields = head.split(", ");
        String last = fields[fields.length - 1];
        String match = last.replaceFirst("^priority=\\d+,?", "");
        return new FlowEntry(counter(PACKETS, line), counter(BYTES, line),
                number(PRIORITY, head).orElse(DEFAULT_PRIORITY), number(IDLE, head), number(HARD, head),
                match, actions, line);
    }

    /** A flow with an idle timeout: what the learning switch and forwarding install (the table-miss flow has none). */
    public boolean isReactive() {
        return idleTimeout.isPresent() && idleTimeout.getAsInt() > 0;
    }

    /** The table-miss flow: lowest priority, matches everything. */
    public boolean isTableMiss() {
        return priority == 0 && match.isEmpty();
    }

    private static long counter(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static OptionalInt number(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }
}
