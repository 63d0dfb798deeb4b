package io.heliograph.staticflows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * A static flow entry, independent of the OpenFlow version. Match fields are keyed by Floodlight's
 * names ({@code in_port}, {@code eth_type}, {@code ipv4_dst}, {@code tcp_dst}, ...) with values as
 * text ({@code 0x0800}, {@code 10.0.0.0/8}, {@code 00:00:00:00:00:01/ff:ff:ff:00:00:00}); masks
 * follow a slash. They are checked when the entry is added, not here.
 *
 * @param table        flow table (OpenFlow 1.0 has only table 0)
 * @param cookie       the operator's cookie, at most 48 bits; the top 16 bits mark the entry as static
 * @param applyActions actions applied at once (the only instruction OpenFlow 1.0 has)
 * @param writeActions actions written to the action set (1.1+)
 * @param clearActions clear the action set (1.1+)
 * @param gotoTable    next table, or null (1.1+)
 * @param meter        meter id, or null (1.3+)
 * @param writeMetadata metadata to write, or null (1.1+)
 */
public record FlowEntry(DatapathId dpid, String name, int table, int priority, Map<String, String> match,
        List<Action> applyActions, List<Action> writeActions, boolean clearActions, Integer gotoTable, Long meter,
        Metadata writeMetadata, int idleTimeout, int hardTimeout, long cookie, Set<FlowFlag> flags)
        implements StaticEntry {

    public static final int DEFAULT_PRIORITY = 32768;

    public FlowEntry {
        Objects.requireNonNull(dpid, "dpid");
        Objects.requireNonNull(name, "name");
        match = Collections.unmodifiableMap(new LinkedHashMap<>(match == null ? Map.of() : match));
        applyActions = List.copyOf(applyActions == null ? List.of() : applyActions);
        writeActions = List.copyOf(writeActions == null ? List.of() : writeActions);
        flags = flags == null || flags.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(flags));
    }

    @Override
    public String kind() {
        return "flow";
    }

    public static Builder builder(DatapathId dpid, String name) {
        return new Builder(dpid, name);
    }

    public Builder toBuilder() {
        Builder b = new Builder(dpid, name).table(table).priority(priority).idleTimeout(idleTimeout)
                .hardTimeout(hardTimeout).cookie(cookie).clearActions(clearActions).gotoTable(gotoTable).meter(meter)
                .writeMetadata(writeMetadata);
        match.forEach(b::match);
        b.applyActions.addAll(applyActions);
        b.writeActions.addAll(writeActions);
        b.flags.addAll(flags);
        return b;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("flow ").append(name).append(" table=").append(table)
                .append(" priority=").append(priority);
        match.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
        if (!applyActions.isEmpty() || (writeActions.isEmpty() && gotoTable == null)) {
            s.append(" actions=").append(applyActions.isEmpty() ? "drop" : Action.format(applyActions));
        }
        if (!writeActions.isEmpty()) {
            s.append(" write_actions=").append(Action.format(writeActions));
        }
        if (clearActions) {
            s.append(" clear_actions");
        }
        if (meter != null) {
            s.append(" meter=").append(meter);
        }
        if (writeMetadata != null) {
            s.append(" write_metadata=").append(writeMetadata);
        }
        if (gotoTable != null) {
            s.append(" goto_table=").append(gotoTable);
        }
        if (idleTimeout != 0) {
            s.append(" idle_timeout=").append(idleTimeout);
        }
        if (hardTimeout != 0) {
            s.append(" hard_timeout=").append(hardTimeout);
        }
        if (cookie != 0) {
            s.append(" cookie=0x").append(Long.toHexString(cookie));
        }
        if (!flags.isEmpty()) {
            s.append(" flags=").append(flags);
        }
        return s.toString();
    }

    /** Builds a flow entry; defaults: table 0, priority 32768, no timeouts, no actions (drop). */
    public static final class Builder {
        private final DatapathId dpid;
        private final String name;
        private int table;
        private int priority = DEFAULT_PRIORITY;
        private final Map<String, String> match = new LinkedHashMap<>();
        private final List<Action> applyActions = new ArrayList<>();
        private final List<Action> writeActions = new ArrayList<>();
        private boolean clearActions;
        private Integer gotoTable;
        private Long meter;
        private Metadata writeMetadata;
        private int idleTimeout;
        private int hardTimeout;
        private long cookie;
        private final Set<FlowFlag> flags = EnumSet.noneOf(FlowFlag.class);

        private Builder(DatapathId dpid, String name) {
            this.dpid = dpid;
            this.name = name;
        }

        public Builder table(int table) {
            this.table = table;
            return this;
        }

        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        public Builder match(String field, String value) {
            match.put(field, value);
            return this;
        }

        public Builder apply(Action... actions) {
            applyActions.addAll(List.of(actions));
            return this;
        }

        public Builder write(Action... actions) {
            writeActions.addAll(List.of(actions));
            return this;
        }

        public Builder clearActions(boolean clear) {
            this.clearActions = clear;
            return this;
        }

        public Builder gotoTable(Integer table) {
            this.gotoTable = table;
            return this;
        }

        public Builder meter(Long meterId) {
            this.meter = meterId;
            return this;
        }

        public Builder writeMetadata(Metadata metadata) {
            this.writeMetadata = metadata;
            return this;
        }

        public Builder idleTimeout(int seconds) {
            this.idleTimeout = seconds;
            return this;
        }

        public Builder hardTimeout(int seconds) {
            this.hardTimeout = seconds;
            return this;
        }

        public Builder cookie(long cookie) {
            this.cookie = cookie;
            return this;
        }

        public Builder flag(FlowFlag flag) {
            flags.add(flag);
            return this;
        }

        public FlowEntry build() {
            return new FlowEntry(dpid, name, table, priority, match, applyActions, writeActions, clearActions,
                    gotoTable, meter, writeMetadata, idleTimeout, hardTimeout, cookie, flags);
        }
    }
}
