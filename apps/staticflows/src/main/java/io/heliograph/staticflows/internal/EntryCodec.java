package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.FlowFlag;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.Metadata;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.Ports;
import io.heliograph.staticflows.StaticEntry;

/**
 * Entries as JSON objects with Floodlight's static entry pusher names ({@code switch}, {@code name},
 * {@code entry_type}, {@code priority}, match fields at the top level, {@code instruction_apply_actions},
 * {@code group_buckets}, ...), so the REST layer can accept Floodlight's documents as they are.
 */
public final class EntryCodec {

    static final String SWITCH = "switch";
    static final String NAME = "name";
    static final String TYPE = "entry_type";
    private static final Set<String> FLOW_KEYS = Set.of(SWITCH, NAME, TYPE, "table", "priority", "idle_timeout",
            "hard_timeout", "cookie", "flags", "active", "actions", "instruction_apply_actions",
            "instruction_write_actions", "instruction_clear_actions", "instruction_goto_table",
            "instruction_goto_meter", "instruction_write_metadata");

    private EntryCodec() {
    }

    public static Map<String, Object> toJson(StaticEntry entry) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(SWITCH, entry.dpid().toString());
        m.put(NAME, entry.name());
        m.put(TYPE, entry.kind());
        if (entry instanceof FlowEntry f) {
            m.put("table", (long) f.table());
            m.put("priority", (long) f.priority());
            m.putAll(f.match());
            if (!f.applyActions().isEmpty()) {
                m.put("instruction_apply_actions", Action.format(f.applyActions()));
            }
            if (!f.writeActions().isEmpty()) {
                m.put("instruction_write_actions", Action.format(f.writeActions()));
            }
            if (f.clearActions()) {
                m.put("instruction_clear_actions", Boolean.TRUE);
            }
            if (f.gotoTable() != null) {
                m.put("instruction_goto_table", (long) f.gotoTable());
            }
            if (f.meter() != null) {
                m.put("instruction_goto_meter", f.meter());
            }
            if (f.writeMetadata() != null) {
                m.put("instruction_write_metadata", f.writeMetadata().toString());
            }
            m.put("idle_timeout", (long) f.idleTimeout());
            m.put("hard_timeout", (long) f.hardTimeout());
            m.put("cookie", f.cookie());
            if (!f.flags().isEmpty()) {
                List<Object> flags = new ArrayList<>();
                f.flags().forEach(flag -> flags.add(flag.name().toLowerCase(Locale.ROOT)));
                m.put("flags", flags);
            }
        } else if (entry instanceof GroupEntry g) {
            m.put("group_id", g.groupId());
            m.put("group_type", g.type().text());
            List<Object> buckets = new ArrayList<>();
            for (GroupEntry.Bucket b : g.buckets()) {
                Map<String, Object> bm = new LinkedHashMap<>();
                if (b.weight() != 0) {
                    bm.put("bucket_weight", (long) b.weight());
                }
                if (b.watchPort() != null) {
                    bm.put("bucket_watch_port", Ports.format(b.watchPort()));
                }
                if (b.watchGroup() != null) {
                    bm.put("bucket_watch_group", b.watchGroup());
                }
                bm.put("bucket_actions", Action.format(b.actions()));
                buckets.add(bm);
            }
            m.put("group_buckets", buckets);
        } else if (entry instanceof MeterEntry me) {
            m.put("meter_id", me.meterId());
            List<Object> flags = new ArrayList<>();
            me.flags().forEach(flag -> flags.add(flag.name().toLowerCase(Locale.ROOT)));
            m.put("meter_flags", flags);
            List<Object> bands = new ArrayList<>();
            for (MeterEntry.Band b : me.bands()) {
                Map<String, Object> bm = new LinkedHashMap<>();
                bm.put("type", b.type().name().toLowerCase(Locale.ROOT));
                bm.put("rate", b.rate());
                bm.put("burst_size", b.burstSize());
                if (b.type() == MeterEntry.Band.Type.DSCP_REMARK) {
                    bm.put("prec_level", (long) b.precLevel());
                }
                bands.add(bm);
            }
            m.put("meter_bands", bands);
        }
        return m;
    }

    /** Reads an entry; the exception's message names the member at fault. */
    public static StaticEntry fromJson(Map<String, Object> m) {
        DatapathId dpid;
        try {
            dpid = DatapathId.of(text(m, SWITCH));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + SWITCH + "' is not a datapath id: " + m.get(SWITCH));
        }
        String name = text(m, NAME);
        String type = m.containsKey(TYPE) ? text(m, TYPE).toLowerCase(Locale.ROOT) : "flow";
        return switch (type) {
            case "flow" -> flow(dpid, name, m);
            case "group" -> group(dpid, name, m);
            case "meter" -> meter(dpid, name, m);
            default -> throw new IllegalArgumentException("entry_type '" + type + "' is not flow, group or meter");
        };
    }

    private static FlowEntry flow(DatapathId dpid, String name, Map<String, Object> m) {
        FlowEntry.Builder b = FlowEntry.builder(dpid, name)
                .table(integer(m, "table", 0))
                .priority(integer(m, "priority", FlowEntry.DEFAULT_PRIORITY))
                .idleTimeout(integer(m, "idle_timeout", 0))
                .hardTimeout(integer(m, "hard_timeout", 0))
                .cookie(number(m, "cookie", 0));
        String apply = m.containsKey("instruction_apply_actions") ? text(m, "instruction_apply_actions")
                : m.containsKey("actions") ? text(m, "actions") : "";
        b.apply(Action.parseList(apply).toArray(Action[]::new));
        if (m.containsKey("instruction_write_actions")) {
            b.write(Action.parseList(text(m, "instruction_write_actions")).toArray(Action[]::new));
        }
        if (m.containsKey("instruction_clear_actions")) {
            Object v = m.get("instruction_clear_actions");
            b.clearActions(v instanceof Boolean bool ? bool : !"false".equalsIgnoreCase(String.valueOf(v)));
        }
        if (m.containsKey("instruction_goto_table")) {
            b.gotoTable(integer(m, "instruction_goto_table", 0));
        }
        if (m.containsKey("instruction_goto_meter")) {
            b.meter(number(m, "instruction_goto_meter", 0));
        }
        if (m.containsKey("instruction_write_metadata")) {
            b.writeMetadata(Metadata.parse(text(m, "instruction_write_metadata")));
        }
        if (m.get("flags") instanceof List<?> flags) {
            for (Object flag : flags) {
                try {
                    b.flag(FlowFlag.valueOf(String.valueOf(flag).toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("'" + flag + "' is not a flow flag " + List.of(FlowFlag.values()));
                }
            }
        }
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (!FLOW_KEYS.contains(e.getKey())) {
                b.match(e.getKey(), String.valueOf(e.getValue()));
            }
        }
        return b.build();
    }

    private static GroupEntry group(DatapathId dpid, String name, Map<String, Object> m) {
        List<GroupEntry.Bucket> buckets = new ArrayList<>();
        Object list = m.get("group_buckets");
        if (list != null && !(list instanceof List)) {
            throw new IllegalArgumentException("group_buckets must be a list");
        }
        if (list != null) {
            for (Object o : (List<?>) list) {
                if (!(o instanceof Map)) {
                    throw new IllegalArgumentException("each of group_buckets must be an object");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> bm = (Map<String, Object>) o;
                OFPort watchPort = bm.containsKey("bucket_watch_port") ? Ports.parse(text(bm, "bucket_watch_port")) : null;
                Long watchGroup = bm.containsKey("bucket_watch_group") ? number(bm, "bucket_watch_group", 0) : null;
                buckets.add(new GroupEntry.Bucket(integer(bm, "bucket_weight", 0), watchPort, watchGroup,
                        Action.parseList(bm.containsKey("bucket_actions") ? text(bm, "bucket_actions") : "")));
            }
        }
        return new GroupEntry(dpid, name, number(m, "group_id", -1),
                GroupEntry.Type.parse(m.containsKey("group_type") ? text(m, "group_type") : "all"), buckets);
    }

    private static MeterEntry meter(DatapathId dpid, String name, Map<String, Object> m) {
        Set<MeterEntry.Flag> flags = EnumSet.noneOf(MeterEntry.Flag.class);
        if (m.get("meter_flags") instanceof List<?> list) {
            list.forEach(f -> flags.add(MeterEntry.Flag.parse(String.valueOf(f))));
        } else if (m.containsKey("meter_flags")) {
            for (String f : text(m, "meter_flags").split(",")) {
                flags.add(MeterEntry.Flag.parse(f));
            }
        }
        List<MeterEntry.Band> bands = new ArrayList<>();
        if (m.get("meter_bands") instanceof List<?> list) {
            for (Object o : list) {
                if (!(o instanceof Map)) {
                    throw new IllegalArgumentException("each of meter_bands must be an object");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> bm = (Map<String, Object>) o;
                bands.add(new MeterEntry.Band(MeterEntry.Band.Type.parse(bm.containsKey("type") ? text(bm, "type") : "drop"),
                        number(bm, "rate", 0), number(bm, "burst_size", 0), integer(bm, "prec_level", 0)));
            }
        }
        return new MeterEntry(dpid, name, number(m, "meter_id", -1), flags, bands);
    }

    static String text(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            throw new IllegalArgumentException("'" + key + "' is missing");
        }
        if (v instanceof Map || v instanceof List) {
            throw new IllegalArgumentException("'" + key + "' must be a string");
        }
        return String.valueOf(v);
    }

    /** A number given as a JSON integer or as text (decimal or 0x hex), as Floodlight accepts both. */
    /**
     * A number that must fit an int (priorities, tables, timeouts, weights): a larger one is refused
     * here rather than cut to its low 32 bits, which could pass the range checks that follow.
     */
    static int integer(Map<String, Object> m, String key, int absent) {
        long v = number(m, key, absent);
        if (v != (int) v) {
            throw new IllegalArgumentException("'" + key + "' is out of range: " + v);
        }
        return (int) v;
    }

    static long number(Map<String, Object> m, String key, long absent) {
        Object v = m.get(key);
        if (v == null) {
            return absent;
        }
        if (v instanceof Long l) {
            return l;
        }
        String t = String.valueOf(v).trim();
        try {
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + key + "' is not a number: " + v);
        }
    }
}
