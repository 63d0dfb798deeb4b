package io.heliograph.devices.internal;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;
import io.heliograph.core.json.Json;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.Host;

/**
 * A host as the shared store keeps it, in the store's JSON ({@link Json}):
 * <pre>
 * {"mac":"02:00:00:00:00:01","vlan":0,"ipv4":["10.0.0.1"],"ipv6":[],
 *  "attachmentPoints":[{"dpid":"00:00:00:00:00:00:00:01","port":3,
 *                       "firstSeen":"2025-01-01T00:00:00Z","lastSeen":"2025-01-01T00:01:00Z"}],
 *  "firstSeen":"2025-01-01T00:00:00Z","lastSeen":"2025-01-01T00:01:00Z"}
 * </pre>
 * A value that is no host is an IllegalArgumentException that says what and where: the position of
 * bad JSON, the field of a bad value.
 */
final class HostJson {

    /**
     * The deepest nesting a host value may have: a host nests three levels, so a value nested deeper is
     * refused (where it goes too deep) before it is mapped.
     */
    private static final int MAX_DEPTH = 8;

    private HostJson() {
    }

    static byte[] write(Host host) {
        List<Map<String, Object>> points = new ArrayList<>();
        for (AttachmentPoint point : host.attachmentPoints()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("dpid", point.port().dpid().toString());
            p.put("port", Integer.toUnsignedLong(point.port().port().getPortNumber()));
            p.put("firstSeen", point.firstSeen().toString());
            p.put("lastSeen", point.lastSeen().toString());
            points.add(p);
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("mac", host.mac().toString());
        o.put("vlan", host.vlan().getVlan());
        o.put("ipv4", host.ipv4Addresses().stream().map(Object::toString).toList());
        o.put("ipv6", host.ipv6Addresses().stream().map(Object::toString).toList());
        o.put("attachmentPoints", points);
        o.put("firstSeen", host.firstSeen().toString());
        o.put("lastSeen", host.lastSeen().toString());
        return Json.compact(o);
    }

    /** The host a value describes; IllegalArgumentException naming the problem when it describes none. */
    static Host read(byte[] value) {
        Map<String, Object> o = object(Json.parse(value, MAX_DEPTH), "the host");
        Set<IPv4Address> ipv4 = new LinkedHashSet<>();
        for (Object address : list(o, "ipv4")) {
            ipv4.add(IPv4Address.of(string(address, "ipv4")));
        }
        Set<IPv6Address> ipv6 = new LinkedHashSet<>();
        for (Object address : list(o, "ipv6")) {
            ipv6.add(IPv6Address.of(string(address, "ipv6")));
        }
        List<AttachmentPoint> points = new ArrayList<>();
        for (Object p : list(o, "attachmentPoints")) {
            Map<String, Object> point = object(p, "an attachment point");
            SwitchPort at = SwitchPort.of(DatapathId.of(string(point.get("dpid"), "dpid")),
                    OFPort.of((int) number(point.get("port"), "port")));
            points.add(new AttachmentPoint(at, instant(point, "firstSeen"), instant(point, "lastSeen")));
        }
        return new Host(MacAddress.of(string(o.get("mac"), "mac")), VlanVid.ofVlan((int) number(o.get("vlan"), "vlan")),
                ipv4, ipv6, points, instant(o, "firstSeen"), instant(o, "lastSeen"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String what) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IllegalArgumentException(what + " is not a JSON object: " + value);
    }

    private static List<?> list(Map<String, Object> o, String field) {
        Object value = o.get(field);
        if (value instanceof List<?> list) {
            return list;
        }
        throw new IllegalArgumentException("\"" + field + "\" is not a JSON array: " + value);
    }

    private static String string(Object value, String field) {
        if (value instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException("\"" + field + "\" is not a string: " + value);
    }

    private static long number(Object value, String field) {
        if (value instanceof Long n) {
            return n;
        }
        throw new IllegalArgumentException("\"" + field + "\" is not an integer: " + value);
    }

    private static Instant instant(Map<String, Object> o, String field) {
        try {
            return Instant.parse(string(o.get(field), field));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"" + field + "\" is not an ISO-8601 instant: " + o.get(field), e);
        }
    }
}
