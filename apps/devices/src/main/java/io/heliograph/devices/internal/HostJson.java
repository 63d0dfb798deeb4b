package io.heliograph.devices.internal;

import java.nio.charset.StandardCharsets;
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
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.Host;

/**
 * A host as the shared store keeps it, in JSON:
 * <pre>
 * {"mac":"02:00:00:00:00:01","vlan":0,"ipv4":["10.0.0.1"],"ipv6":[],
 *  "attachmentPoints":[{"dpid":"00:00:00:00:00:00:00:01","port":3,
 *                       "firstSeen":"2025-01-01T00:00:00Z","lastSeen":"2025-01-01T00:01:00Z"}],
 *  "firstSeen":"2025-01-01T00:00:00Z","lastSeen":"2025-01-01T00:01:00Z"}
 * </pre>
 * Reading takes the small JSON subset this writes (objects, arrays, strings, integers), and refuses
 * anything else with an IllegalArgumentException that says what and where.
 */
final class HostJson {

    private HostJson() {
    }

    static byte[] write(Host host) {
        StringBuilder out = new StringBuilder(256);
        out.append("{\"mac\":\"").append(host.mac()).append("\",\"vlan\":").append(host.vlan().getVlan());
        out.append(",\"ipv4\":[");
        appendStrings(out, host.ipv4Addresses());
        out.append("],\"ipv6\":[");
        appendStrings(out, host.ipv6Addresses());
        out.append("],\"attachmentPoints\":[");
        String comma = "";
        for (AttachmentPoint point : host.attachmentPoints()) {
            out.append(comma).append("{\"dpid\":\"").append(point.port().dpid()).append("\",\"port\":")
                    .append(Integer.toUnsignedString(point.port().port().getPortNumber()))
                    .append(",\"firstSeen\":\"").append(point.firstSeen()).append("\",\"lastSeen\":\"")
                    .append(point.lastSeen()).append("\"}");
            comma = ",";
        }
        out.append("],\"firstSeen\":\"").append(host.firstSeen()).append("\",\"lastSeen\":\"").append(host.lastSeen())
                .append("\"}");
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void appendStrings(StringBuilder out, Set<?> values) {
        String comma = "";
        for (Object value : values) {
            out.append(comma).append('"').append(value).append('"');
            comma = ",";
        }
    }

    /** The host a value describes; IllegalArgumentException naming the problem when it describes none. */
    static Host read(byte[] value) {
        Map<String, Object> o = object(new Reader(new String(value, StandardCharsets.UTF_8)).document(), "the host");
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

    /**
     * Objects, arrays, strings without escapes beyond \" and \\, and integers. It recurses once per
     * level of nesting, so a value nested deeper than a host ever is (three levels) is refused before it
     * could exhaust the stack of the thread that reads the store.
     */
    private static final class Reader {

        private static final int MAX_DEPTH = 8;

        private final String text;
        private int pos;
        private int depth;

        Reader(String text) {
            this.text = text;
        }

        Object document() {
            Object value = value();
            skipSpace();
            if (pos != text.length()) {
                throw error("text after the value");
            }
            return value;
        }

        private Object value() {
            skipSpace();
            if (pos >= text.length()) {
                throw error("the value ends early");
            }
            char c = text.charAt(pos);
            if (c == '{' || c == '[') {
                if (++depth > MAX_DEPTH) {
                    throw error("nested deeper than " + MAX_DEPTH + " levels");
                }
                Object nested = c == '{' ? object() : array();
                depth--;
                return nested;
            }
            if (c == '"') {
                return string();
            }
            if (c == '-' || Character.isDigit(c)) {
                return number();
            }
            throw error("unexpected '" + c + "'");
        }

        private Map<String, Object> object() {
            Map<String, Object> out = new LinkedHashMap<>();
            pos++;
            skipSpace();
            if (peek() == '}') {
                pos++;
                return out;
            }
            while (true) {
                skipSpace();
                if (peek() != '"') {
                    throw error("a field name was expected");
                }
                String name = string();
                skipSpace();
                expect(':');
                out.put(name, value());
                skipSpace();
                char c = next();
                if (c == '}') {
                    return out;
                }
                if (c != ',') {
                    throw error("',' or '}' was expected");
                }
            }
        }

        private List<Object> array() {
            List<Object> out = new ArrayList<>();
            pos++;
            skipSpace();
            if (peek() == ']') {
                pos++;
                return out;
            }
            while (true) {
                out.add(value());
                skipSpace();
                char c = next();
                if (c == ']') {
                    return out;
                }
                if (c != ',') {
                    throw error("',' or ']' was expected");
                }
            }
        }

        private String string() {
            StringBuilder out = new StringBuilder();
            pos++;
            while (true) {
                char c = next();
                if (c == '"') {
                    return out.toString();
                }
                if (c == '\\') {
                    char escaped = next();
                    if (escaped != '"' && escaped != '\\') {
                        throw error("unsupported escape \\" + escaped);
                    }
                    c = escaped;
                }
                out.append(c);
            }
        }

        private Long number() {
            int start = pos;
            if (peek() == '-') {
                pos++;
            }
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
            try {
                return Long.parseLong(text.substring(start, pos));
            } catch (NumberFormatException e) {
                throw error("not an integer");
            }
        }

        private void expect(char c) {
            if (next() != c) {
                throw error("'" + c + "' was expected");
            }
        }

        private char peek() {
            return pos < text.length() ? text.charAt(pos) : '\0';
        }

        private char next() {
            if (pos >= text.length()) {
                throw error("the value ends early");
            }
            return text.charAt(pos++);
        }

        private void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private IllegalArgumentException error(String problem) {
            return new IllegalArgumentException("host JSON, at offset " + pos + ": " + problem);
        }
    }
}
