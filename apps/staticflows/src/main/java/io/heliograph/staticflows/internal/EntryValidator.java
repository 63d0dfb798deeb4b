package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.FlowFlag;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.Ports;
import io.heliograph.staticflows.StaticEntry;

/**
 * Checks an entry before anything reaches a switch: names, value ranges, match prerequisites,
 * ports, what the switch's OpenFlow version can express, and references to groups and meters.
 * Pure and bounded: it never waits for a switch. Every problem is reported, each naming its field.
 */
final class EntryValidator {

    static final long MAX_GROUP = 0xffffff00L;
    static final long MAX_METER = 0xffff0000L;
    static final long MAX_QUEUE = 0xfffffffeL;
    static final long MAX_USER_COOKIE = (1L << 48) - 1;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}");

    /** Fields a set_field action cannot change (OpenFlow marks them not settable, or they are pipeline fields). */
    private static final Set<Field> NOT_SETTABLE = EnumSet.of(Field.IN_PORT, Field.IN_PHYS_PORT, Field.METADATA,
            Field.ETH_TYPE, Field.IP_PROTO, Field.ICMPV6_TYPE);

    /** The fields OpenFlow 1.0 can rewrite, each with its own action. */
    private static final Set<Field> SETTABLE_OF10 = EnumSet.of(Field.ETH_SRC, Field.ETH_DST, Field.VLAN_VID,
            Field.VLAN_PCP, Field.IPV4_SRC, Field.IPV4_DST, Field.IP_DSCP, Field.TCP_SRC, Field.TCP_DST, Field.UDP_SRC,
            Field.UDP_DST);

    /** The group and meter ids defined for the entry's switch, the entry itself included. */
    record Definitions(Set<Long> groups, Set<Long> meters) {
    }

    private EntryValidator() {
    }

    static List<String> validate(StaticEntry entry, SwitchView sw, Definitions defs) {
        List<String> problems = new ArrayList<>();
        if (!NAME.matcher(entry.name()).matches()) {
            problems.add("name '" + entry.name() + "' must be 1 to 64 letters, digits or ._:@- and start with a letter or digit");
        }
        if (entry instanceof FlowEntry f) {
            flow(f, sw, defs, problems);
        } else if (entry instanceof GroupEntry g) {
            group(g, sw, defs, problems);
        } else if (entry instanceof MeterEntry m) {
            meter(m, sw, problems);
        }
        return problems;
    }

    /** Parses the match fields; unknown names and bad values go to {@code problems}. */
    static Map<Field, FieldValue> parseMatch(Map<String, String> match, List<String> problems) {
        Map<Field, FieldValue> fields = new EnumMap<>(Field.class);
        for (Map.Entry<String, String> e : match.entrySet()) {
            Field field = Field.byName(e.getKey());
            if (field == null) {
                problems.add("unknown match field '" + e.getKey() + "'");
                continue;
            }
            if (fields.containsKey(field)) {
                problems.add("match field " + field.text + " is given twice (as '" + e.getKey() + "')");
                continue;
            }
            try {
                FieldValue v = field.parse(e.getValue());
                if (v.wildcard()) {
                    problems.add("match field " + field.text + "=" + e.getValue() + " has a mask that selects no bit; "
                            + "leave the field out to match anything");
                    continue;
                }
                fields.put(field, v);
            } catch (IllegalArgumentException ex) {
                problems.add(ex.getMessage());
            }
        }
        return fields;
    }

    private static void flow(FlowEntry f, SwitchView sw, Definitions defs, List<String> problems) {
        range(problems, "table", f.table(), 0, 254);
        range(problems, "priority", f.priority(), 0, 0xffff);
        range(problems, "idle_timeout", f.idleTimeout(), 0, 0xffff);
        range(problems, "hard_timeout", f.hardTimeout(), 0, 0xffff);
        if (f.cookie() < 0 || f.cookie() > MAX_USER_COOKIE) {
            problems.add("cookie 0x" + Long.toHexString(f.cookie()) + " is wider than 48 bits (the top 16 bits mark static entries)");
        }
        Map<Field, FieldValue> match = parseMatch(f.match(), problems);
        Prerequisites.Context context = new Prerequisites.Context(match, false, null);
        for (Field field : match.keySet()) {
            addIfPresent(problems, Prerequisites.check(field, context, "match field " + field.text));
        }
        FieldValue inPort = match.get(Field.IN_PORT);
        if (inPort != null) {
            OFPort p = (OFPort) inPort.value();
            if (!p.equals(OFPort.LOCAL) && !p.equals(OFPort.CONTROLLER)) {
                physicalPort(problems, "in_port", p, sw);
            }
        }
        OFVersion v = sw.version();
        if (v != null) {
            versionOfMatch(match, v, problems);
        }
        if (sw.version() == OFVersion.OF_10 && f.table() != 0) {
            problems.add("table " + f.table() + ": OpenFlow 1.0 has one table (0)");
        } else if (sw.tables() > 0 && f.table() >= sw.tables()) {
            problems.add("table " + f.table() + " does not exist: the switch has " + sw.tables() + " tables (0.." + (sw.tables() - 1) + ")");
        }
        if (!f.writeActions().isEmpty()) {
            needs(problems, sw, OFVersion.OF_11, "instruction_write_actions");
        }
        if (f.clearActions()) {
            needs(problems, sw, OFVersion.OF_11, "instruction_clear_actions");
        }
        if (f.writeMetadata() != null) {
            needs(problems, sw, OFVersion.OF_11, "instruction_write_metadata");
        }
        if (f.gotoTable() != null) {
            int g = f.gotoTable();
            if (!needs(problems, sw, OFVersion.OF_11, "instruction_goto_table")) {
                // nothing more to say about a table the version cannot go to
            } else if (g <= f.table() || g > 254) {
                problems.add("instruction_goto_table " + g + " must be a later table than " + f.table() + " (at most 254)");
            } else if (sw.tables() > 0 && g >= sw.tables()) {
                problems.add("instruction_goto_table " + g + " does not exist: the switch has " + sw.tables() + " tables");
            }
        }
        if (f.meter() != null && needs(problems, sw, OFVersion.OF_13, "instruction_goto_meter")) {
            meterReference(problems, "instruction_goto_meter", f.meter(), defs);
        }
        for (FlowFlag flag : f.flags()) {
            if (flag == FlowFlag.RESET_COUNTS || flag == FlowFlag.NO_PKT_COUNTS || flag == FlowFlag.NO_BYT_COUNTS) {
                needs(problems, sw, OFVersion.OF_13, "flag " + flag.name().toLowerCase());
            }
        }
        actions(problems, "instruction_apply_actions", f.applyActions(), context, sw, defs, null);
        actions(problems, "instruction_write_actions", f.writeActions(), context, sw, defs, null);
    }

    private static void versionOfMatch(Map<Field, FieldValue> match, OFVersion v, List<String> problems) {
        Match.Builder builder = OFFactories.getFactory(v).buildMatch();
        boolean expressible = true;
        for (FieldValue value : match.values()) {
            if (!builder.supports(value.field().loxi)) {
                problems.add("match field " + value.field().text + " cannot be expressed in " + SwitchView.name(v));
                expressible = false;
            } else if (!value.exact() && !builder.supportsMasked(value.field().loxi)) {
                problems.add("match field " + value.field().text + " cannot be masked in " + SwitchView.name(v));
                expressible = false;
            }
        }
        if (expressible) {
            // Last word to the encoder: e.g. OpenFlow 1.0 takes only prefix masks on IPv4 addresses.
            try {
                match.values().forEach(value -> value.applyTo(builder));
                builder.build();
            } catch (RuntimeException e) {
                problems.add("the match cannot be expressed in " + SwitchView.name(v) + ": " + e.getMessage());
            }
        }
    }

    private static void actions(List<String> problems, String where, List<Action> actions,
            Prerequisites.Context match, SwitchView sw, Definitions defs, Long ownGroup) {
        boolean vlanPushed = false;
        Integer ethType = null;
        for (Action a : actions) {
            Prerequisites.Context c = match == null ? null : new Prerequisites.Context(match.match(), vlanPushed, ethType);
            String use = where + " " + a;
            if (a instanceof Action.Output o) {
                output(problems, use, o, sw);
            } else if (a instanceof Action.Group g) {
                if (!needs(problems, sw, OFVersion.OF_11, use)) {
                    continue;
                }
                if (g.groupId() < 0 || g.groupId() > MAX_GROUP) {
                    problems.add(use + ": group id must be within 0..0xffffff00");
                } else if (ownGroup != null && g.groupId() == ownGroup) {
                    problems.add(use + ": a group cannot forward to itself");
                } else if (!defs.groups().contains(g.groupId())) {
                    problems.add(use + ": group " + g.groupId() + " is not defined on this switch (add the group first)");
                }
            } else if (a instanceof Action.SetField s) {
                setField(problems, use, s, c, sw);
            } else if (a instanceof Action.PushVlan p) {
                needs(problems, sw, OFVersion.OF_11, use);
                if (p.ethertype() != 0x8100 && p.ethertype() != 0x88a8) {
                    problems.add(use + ": the ethertype must be 0x8100 or 0x88a8");
                }
                vlanPushed = true;
            } else if (a instanceof Action.PopVlan) {
                if (c != null && !c.hasVlan()) {
                    problems.add(use + " needs a VLAN: match eth_vlan_vid with a VLAN id (or push_vlan first)");
                }
                vlanPushed = false;
            } else if (a instanceof Action.PushMpls p) {
                needs(problems, sw, OFVersion.OF_11, use);
                if (p.ethertype() != Prerequisites.MPLS && p.ethertype() != Prerequisites.MPLS_MC) {
                    problems.add(use + ": the ethertype must be 0x8847 or 0x8848");
                }
                ethType = p.ethertype();
            } else if (a instanceof Action.PopMpls p) {
                needs(problems, sw, OFVersion.OF_11, use);
                if (c != null) {
                    Integer eth = c.ethType();
                    if (eth == null || (eth != Prerequisites.MPLS && eth != Prerequisites.MPLS_MC)) {
                        problems.add(use + " needs an MPLS packet: eth_type=0x8847 or 0x8848 in the match (or push_mpls first)");
                    }
                }
                if (p.ethertype() < 0 || p.ethertype() > 0xffff) {
                    problems.add(use + ": the ethertype must be within 0..0xffff");
                }
                ethType = p.ethertype();
            } else if (a instanceof Action.SetQueue q) {
                if (sw.version() == OFVersion.OF_10) {
                    problems.add(use + " cannot be expressed in OpenFlow 1.0 (it has enqueue, bound to an output port)");
                }
                if (q.queueId() < 0 || q.queueId() > MAX_QUEUE) {
                    problems.add(use + ": queue id must be within 0..0xfffffffe");
                }
            } else if (a instanceof Action.DecNwTtl) {
                needs(problems, sw, OFVersion.OF_11, use);
                if (c != null) {
                    addIfPresent(problems, Prerequisites.check(Field.IP_DSCP, c, use));
                }
            }
        }
    }

    private static void output(List<String> problems, String use, Action.Output o, SwitchView sw) {
        OFPort p = o.port();
        if (o.maxLen() < 0 || o.maxLen() > 0xffff) {
            problems.add(use + ": max_len must be within 0..65535");
        }
        if (p.equals(OFPort.ANY) || p.getPortNumber() == 0) {
            problems.add(use + ": port " + Ports.format(p) + " is not an output port");
        } else if (p.equals(OFPort.TABLE)) {
            problems.add(use + ": port table is only valid in packet-out messages, not in flow entries");
        } else if (!Ports.isReserved(p)) {
            physicalPort(problems, use, p, sw);
        }
    }

    private static void physicalPort(List<String> problems, String use, OFPort p, SwitchView sw) {
        long n = Integer.toUnsignedLong(p.getPortNumber());
        long max = sw.version() == OFVersion.OF_10 ? 0xff00L : MAX_GROUP;
        if (n == 0 || n >= max && !Ports.isReserved(p)) {
            problems.add(use + ": port " + n + " is not a valid port number" + (sw.connected() ? " in " + SwitchView.name(sw.version()) : ""));
        } else if (Ports.isReserved(p)) {
            problems.add(use + ": reserved port " + Ports.format(p) + " is not allowed here");
        } else if (sw.ports() != null && sw.ports().apply(p) == null) {
            problems.add(use + ": port " + n + " does not exist on the switch (ports: " + sw.portList() + ")");
        }
    }

    private static void setField(List<String> problems, String use, Action.SetField s, Prerequisites.Context c,
            SwitchView sw) {
        Field field = Field.byName(s.field());
        if (field == null) {
            problems.add(use + ": unknown field '" + s.field() + "'");
            return;
        }
        if (NOT_SETTABLE.contains(field)) {
            problems.add(use + ": " + field.text + " cannot be set");
            return;
        }
        try {
            FieldValue v = field.parse(s.value());
            if (!v.exact()) {
                problems.add(use + ": set_field takes a value without a mask");
            }
        } catch (IllegalArgumentException e) {
            problems.add(use + ": " + e.getMessage());
        }
        if (sw.version() == OFVersion.OF_10 && !SETTABLE_OF10.contains(field)) {
            problems.add(use + ": OpenFlow 1.0 cannot set " + field.text);
        } else if (sw.version() != null && sw.version() != OFVersion.OF_10
                && !OFFactories.getFactory(sw.version()).buildMatch().supports(field.loxi)) {
            problems.add(use + ": " + field.text + " cannot be expressed in " + SwitchView.name(sw.version()));
        }
        if (c != null) {
            addIfPresent(problems, Prerequisites.check(field, c, use));
            if (field == Field.VLAN_VID && !c.hasVlan()) {
                problems.add(use + " needs a VLAN: match eth_vlan_vid with a VLAN id, or push_vlan first");
            }
        }
    }

    private static void group(GroupEntry g, SwitchView sw, Definitions defs, List<String> problems) {
        needs(problems, sw, OFVersion.OF_11, "groups");
        if (g.groupId() < 0 || g.groupId() > MAX_GROUP) {
            problems.add("group_id " + g.groupId() + " must be within 0..4294967040 (0xffffff00)");
        }
        if (g.type() == GroupEntry.Type.INDIRECT && g.buckets().size() != 1) {
            problems.add("an indirect group has exactly one bucket; this one has " + g.buckets().size());
        }
        if (sw.version() == OFVersion.OF_15 && g.buckets().size() > 1) {
            // openflowj 3.6.605 can encode only the reserved OpenFlow 1.5 bucket ids, so two buckets would share one.
            problems.add("OpenFlow 1.5 groups with more than one bucket cannot be encoded yet (openflowj 3.6.605 bucket ids)");
        }
        int i = 0;
        for (GroupEntry.Bucket b : g.buckets()) {
            String where = "bucket " + i++;
            range(problems, where + " weight", b.weight(), 0, 0xffff);
            if (g.type() == GroupEntry.Type.SELECT && b.weight() == 0 && g.buckets().size() > 1) {
                problems.add(where + ": buckets of a select group need a weight above 0");
            }
            if (g.type() != GroupEntry.Type.SELECT && b.weight() != 0) {
                problems.add(where + ": only select groups have weights");
            }
            if (g.type() == GroupEntry.Type.FAST_FAILOVER) {
                if (b.watchPort() == null && b.watchGroup() == null) {
                    problems.add(where + ": a fast_failover bucket needs bucket_watch_port or bucket_watch_group");
                }
                if (b.watchPort() != null && !b.watchPort().equals(OFPort.ANY)) {
                    if (Ports.isReserved(b.watchPort()) && !b.watchPort().equals(OFPort.LOCAL)) {
                        problems.add(where + ": bucket_watch_port " + Ports.format(b.watchPort()) + " cannot be watched");
                    } else if (!Ports.isReserved(b.watchPort())) {
                        physicalPort(problems, where + " bucket_watch_port", b.watchPort(), sw);
                    }
                }
                if (b.watchGroup() != null && !defs.groups().contains(b.watchGroup())) {
                    problems.add(where + ": bucket_watch_group " + b.watchGroup() + " is not defined on this switch");
                }
            } else if (b.watchPort() != null || b.watchGroup() != null) {
                problems.add(where + ": only fast_failover buckets watch a port or group");
            }
            actions(problems, where + " bucket_actions", b.actions(), null, sw, defs, g.groupId());
        }
    }

    private static void meter(MeterEntry m, SwitchView sw, List<String> problems) {
        needs(problems, sw, OFVersion.OF_13, "meters");
        if (m.meterId() < 1 || m.meterId() > MAX_METER) {
            problems.add("meter_id " + m.meterId() + " must be within 1..4294901760 (0xffff0000)");
        }
        boolean kbps = m.flags().contains(MeterEntry.Flag.KBPS);
        boolean pktps = m.flags().contains(MeterEntry.Flag.PKTPS);
        if (kbps == pktps) {
            problems.add("meter_flags must hold exactly one of kbps and pktps");
        }
        if (m.bands().isEmpty()) {
            problems.add("a meter needs at least one band");
        }
        int i = 0;
        for (MeterEntry.Band b : m.bands()) {
            String where = "band " + i++;
            if (b.rate() < 1 || b.rate() > 0xffffffffL) {
                problems.add(where + ": rate must be within 1..4294967295");
            }
            if (b.burstSize() < 0 || b.burstSize() > 0xffffffffL) {
                problems.add(where + ": burst_size must be within 0..4294967295");
            }
            if (b.burstSize() > 0 && !m.flags().contains(MeterEntry.Flag.BURST)) {
                problems.add(where + ": burst_size is used only with the burst flag");
            }
            if (b.type() == MeterEntry.Band.Type.DSCP_REMARK && (b.precLevel() < 1 || b.precLevel() > 63)) {
                problems.add(where + ": prec_level must be within 1..63");
            }
        }
    }

    static void meterReference(List<String> problems, String use, long meterId, Definitions defs) {
        if (meterId < 1 || meterId > MAX_METER) {
            problems.add(use + " " + meterId + ": meter id must be within 1..0xffff0000");
        } else if (!defs.meters().contains(meterId)) {
            problems.add(use + " " + meterId + ": meter " + meterId + " is not defined on this switch (add the meter first)");
        }
    }

    /** Reports and returns false when the switch's version is below {@code min}. */
    private static boolean needs(List<String> problems, SwitchView sw, OFVersion min, String what) {
        if (!sw.atLeast(min)) {
            problems.add(what + ": requires " + SwitchView.name(min) + " or later; the switch speaks "
                    + SwitchView.name(sw.version()));
            return false;
        }
        return true;
    }

    private static void range(List<String> problems, String name, long value, long min, long max) {
        if (value < min || value > max) {
            problems.add(name + " " + value + " is outside " + min + ".." + max);
        }
    }

    private static void addIfPresent(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }
}
