package io.heliograph.webui.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.OFSwitch;
import io.heliograph.webui.rest.SwitchJson.Aggregate;
import io.heliograph.webui.rest.SwitchJson.Description;
import io.heliograph.webui.rest.SwitchJson.Features;
import io.heliograph.webui.rest.SwitchJson.Flow;
import io.heliograph.webui.rest.SwitchJson.Group;
import io.heliograph.webui.rest.SwitchJson.Instruction;
import io.heliograph.webui.rest.SwitchJson.Meter;
import io.heliograph.webui.rest.SwitchJson.Port;
import io.heliograph.webui.rest.SwitchJson.PortStatistics;
import io.heliograph.webui.rest.SwitchJson.Table;

/**
 * Our {@link SwitchJson} records in the JSON shapes Floodlight 1.x answers {@code /wm/core/...}
 * with, key for key: snake_case keys, OpenFlow versions as {@code OF_13}, and (as Floodlight's
 * statistics serializer writes them) every number of a statistics reply as a string. Scripts
 * written against Floodlight read these unchanged.
 */
final class FloodlightShapes {

    private FloodlightShapes() {
    }

    /** One line of {@code /wm/core/controller/switches/json}. */
    static Map<String, Object> switchLine(OFSwitch sw) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("inetAddress", "/" + SwitchViews.address(sw));
        m.put("connectedSince", sw.getConnectedSince() == null ? 0 : sw.getConnectedSince().toEpochMilli());
        m.put("switchDPID", sw.getId().toString());
        return m;
    }

    static Map<String, Object> portReply(OFVersion version, List<PortStatistics> ports) {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("version", version.name());
        reply.put("port", ports.stream().map(FloodlightShapes::port).toList());
        return Map.of("port_reply", List.of(reply));
    }

    private static Map<String, Object> port(PortStatistics p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("port_number", p.id());
        m.put("receive_packets", n(p.rxPackets()));
        m.put("transmit_packets", n(p.txPackets()));
        m.put("receive_bytes", n(p.rxBytes()));
        m.put("transmit_bytes", n(p.txBytes()));
        m.put("receive_dropped", n(p.rxDropped()));
        m.put("transmit_dropped", n(p.txDropped()));
        m.put("receive_errors", n(p.rxErrors()));
        m.put("transmit_errors", n(p.txErrors()));
        putIfPresent(m, "receive_frame_errors", p.rxFrameErrors());
        putIfPresent(m, "receive_overrun_errors", p.rxOverrunErrors());
        putIfPresent(m, "receive_CRC_errors", p.rxCrcErrors());
        putIfPresent(m, "collisions", p.collisions());
        putIfPresent(m, "duration_sec", p.durationSeconds());
        return m;
    }

    static Map<String, Object> flows(OFVersion version, List<Flow> flows) {
        return Map.of("flows", flows.stream().map(f -> flow(version, f)).toList());
    }

    private static Map<String, Object> flow(OFVersion version, Flow f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("cookie", n(Long.parseUnsignedLong(f.cookie().substring(2), 16)));
        m.put("table_id", n(f.tableId()));
        putIfPresent(m, "packet_count", f.packets());
        putIfPresent(m, "byte_count", f.bytes());
        putIfPresent(m, "duration_sec", f.durationSeconds());
        m.put("priority", n(f.priority()));
        m.put("idle_timeout_s", n(f.idleTimeout()));
        m.put("hard_timeout_s", n(f.hardTimeout()));
        if (version != OFVersion.OF_10) {
            m.put("flags", f.flags());
        }
        m.put("match", f.match());
        if (version == OFVersion.OF_10) {
            m.put("actions", Map.of("actions", actionList(f.instructions().get(0).actions())));
        } else {
            m.put("instructions", instructions(f.instructions()));
        }
        return m;
    }

    private static Map<String, Object> instructions(List<Instruction> instructions) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (instructions.isEmpty()) {
            m.put("none", "drop");
        }
        for (Instruction i : instructions) {
            String key = "instruction_" + (i.type().equals("meter") ? "goto_meter" : i.type());
            Map<String, Object> body = new LinkedHashMap<>();
            if (i.actions() != null) {
                body.put("actions", actionList(i.actions()));
            } else if (i.value() != null) {
                body.put(key, i.value());
            }
            m.put(key, body);
        }
        return m;
    }

    /** Floodlight lists actions in one string, comma-separated; an empty list is "drop". */
    private static String actionList(List<String> actions) {
        return actions.isEmpty() ? "drop" : String.join(",", actions);
    }

    static Map<String, Object> aggregate(OFVersion version, Aggregate a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("flow_count", n(a.flowCount()));
        m.put("packet_count", n(a.packets()));
        m.put("byte_count", n(a.bytes()));
        m.put("flags", List.of());
        return Map.of("aggregate", m);
    }

    static Map<String, Object> desc(OFVersion version, Description d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("manufacturer_description", d.manufacturer());
        m.put("hardware_description", d.hardware());
        m.put("software_description", d.software());
        m.put("serial_number", d.serialNumber());
        m.put("datapath_description", d.datapath());
        return Map.of("desc", m);
    }

    static Map<String, Object> features(OFSwitch sw, Features f, List<Port> ports) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("capabilities", f.capabilities().toString());
        m.put("dpid", sw.getId().toString());
        m.put("buffers", n(f.buffers()));
        m.put("tables", n(f.tables()));
        m.put("version", sw.getVersion().name());
        if (sw.getVersion().compareTo(OFVersion.OF_13) < 0) {
            m.put("port_desc", portDescs(ports));
        }
        return m;
    }

    static Map<String, Object> portDesc(OFVersion version, List<Port> ports) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("port_desc", portDescs(ports));
        return m;
    }

    private static List<Map<String, Object>> portDescs(List<Port> ports) {
        return ports.stream().map(p -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("port_number", p.id());
            m.put("hardware_address", p.hwAddress());
            m.put("name", p.name());
            m.put("config", p.config());
            m.put("state", p.state());
            m.put("current_features", p.currentFeatures());
            putIfPresent(m, "curr_speed", p.currentSpeedKbps());
            putIfPresent(m, "max_speed", p.maxSpeedKbps());
            return m;
        }).toList();
    }

    static Map<String, Object> tables(OFVersion version, List<Table> tables) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("table", tables.stream().map(t -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("table_id", n(t.tableId()));
            e.put("active_count", n(t.activeCount()));
            e.put("lookup_count", n(t.lookupCount()));
            e.put("match_count", n(t.matchedCount()));
            return e;
        }).toList());
        return m;
    }

    static Map<String, Object> groupDescs(OFVersion version, List<Group> groups) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("group_desc", groups.stream().map(g -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("group_type", g.type());
            e.put("group_number", n(g.groupId()));
            e.put("buckets", g.buckets().stream().map(b -> {
                Map<String, Object> bucket = new LinkedHashMap<>();
                bucket.put("weight", n(b.weight()));
                bucket.put("watch_port", b.watchPort());
                bucket.put("watch_group", b.watchGroup());
                bucket.put("actions", actionList(b.actions()));
                return bucket;
            }).toList());
            return e;
        }).toList());
        return m;
    }

    static Map<String, Object> groupCounters(OFVersion version, List<Group> groups) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("group", groups.stream().filter(g -> g.packets() != null).map(g -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("group_number", n(g.groupId()));
            putIfPresent(e, "reference_count", g.referenceCount());
            e.put("packet_count", n(g.packets()));
            e.put("byte_count", n(g.bytes()));
            e.put("bucket_counters", g.buckets().stream().filter(b -> b.packets() != null).map(b -> Map.of(
                    "packet_count", n(b.packets()), "byte_count", n(b.bytes()))).toList());
            putIfPresent(e, "duration_sec", g.durationSeconds());
            return e;
        }).toList());
        return m;
    }

    static Map<String, Object> meterConfigs(OFVersion version, List<Meter> meters) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("meter_config", meters.stream().map(meter -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("meter_id", n(meter.meterId()));
            e.put("flags", meter.flags());
            e.put("meter_bands", meter.bands().stream().map(b -> {
                Map<String, Object> band = new LinkedHashMap<>();
                band.put("band_type", b.type());
                band.put("rate", n(b.rate()));
                band.put("burst_size", n(b.burstSize()));
                putIfPresent(band, "prec_level", b.precedenceLevel() == null ? null : (long) b.precedenceLevel());
                return band;
            }).toList());
            return e;
        }).toList());
        return m;
    }

    static Map<String, Object> meterCounters(OFVersion version, List<Meter> meters) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", version.name());
        m.put("meter", meters.stream().filter(meter -> meter.packetsIn() != null).map(meter -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("meter_id", n(meter.meterId()));
            putIfPresent(e, "flow_count", meter.flowCount());
            e.put("packet_in_count", n(meter.packetsIn()));
            e.put("byte_in_count", n(meter.bytesIn()));
            e.put("meter_band_stats", meter.bands().stream().filter(b -> b.packets() != null).map(b -> Map.of(
                    "packet_band_count", n(b.packets()), "byte_band_count", n(b.bytes()))).toList());
            putIfPresent(e, "duration_sec", meter.durationSeconds());
            return e;
        }).toList());
        return m;
    }

    /** Numbers as Floodlight's statistics serializer writes them: unsigned, in a string. */
    private static String n(long value) {
        return Long.toUnsignedString(value);
    }

    private static void putIfPresent(Map<String, Object> m, String key, Long value) {
        if (value != null) {
            m.put(key, n(value));
        }
    }
}
