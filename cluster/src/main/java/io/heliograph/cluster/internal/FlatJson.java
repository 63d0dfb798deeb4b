package io.heliograph.cluster.internal;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The data of the cluster's znodes: one flat JSON object whose members are strings or whole
 * numbers ({@code {"id":"c1","started":"..."}}, {@code {"instance":"c1","generation":42}}), readable
 * with zkCli. Parsing errors name the offset, so a damaged node is reported precisely.
 */
public final class FlatJson {

    private final String text;
    private int pos;

    private FlatJson(String text) {
        this.text = text;
    }

    /** Members in order; values are String or Long (or Integer). */
    public static byte[] write(Map<String, ?> members) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, ?> member : members.entrySet()) {
            if (out.length() > 1) {
                out.append(',');
            }
            quote(member.getKey(), out);
            out.append(':');
            Object value = member.getValue();
            if (value instanceof Long || value instanceof Integer) {
                out.append(value);
            } else if (value instanceof String s) {
                quote(s, out);
            } else {
                throw new IllegalArgumentException(member.getKey() + ": not a string or whole number: " + value);
            }
        }
        return out.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The members of one flat object: String or Long values. */
    public static Map<String, Object> read(byte[] data) {
        FlatJson p = new FlatJson(new String(data, StandardCharsets.UTF_8));
        Map<String, Object> members = p.object();
        p.space();
        if (p.pos != p.text.length()) {
            throw p.error("text after the object");
        }
        return members;
    }

    private Map<String, Object> object() {
        Map<String, Object> members = new LinkedHashMap<>();
        space();
        expect('{');
        space();
        if (peek() == '}') {
            pos++;
            return members;
        }
        while (true) {
            space();
            String name = string();
            space();
            expect(':');
            space();
            members.put(name, peek() == '"' ? string() : number());
            space();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                return members;
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) {
                throw error("unterminated escape");
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
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
            pos = start;
            throw error("expected a string or a whole number");
        }
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException error(String problem) {
        return new IllegalArgumentException("bad JSON at offset " + pos + ": " + problem);
    }
}
