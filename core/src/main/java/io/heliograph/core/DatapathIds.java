package io.heliograph.core;

import java.util.Locale;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * Datapath ids as people and scripts write them: colon-separated hex bytes
 * ({@code 00:00:00:00:00:00:00:01}, or fewer bytes, padded on the left), {@code 0x}-prefixed hex, or
 * an unsigned decimal. The one parser behind the console commands and the REST resources.
 */
public final class DatapathIds {

    private DatapathIds() {
    }

    /** @throws IllegalArgumentException naming the text (at most 64 characters of it) and the forms accepted */
    public static DatapathId parse(String text) {
        String s = text == null ? "" : text.trim();
        try {
            if (s.contains(":")) {
                return fromBytes(s);
            }
            if (s.toLowerCase(Locale.ROOT).startsWith("0x")) {
                return DatapathId.of(Long.parseUnsignedLong(s.substring(2), 16));
            }
            return DatapathId.of(Long.parseUnsignedLong(s));
        } catch (NumberFormatException e) {
            throw invalid(s);
        }
    }

    private static DatapathId fromBytes(String s) {
        String[] parts = s.split(":", -1);
        if (parts.length > 8) {
            throw invalid(s);
        }
        long value = 0;
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 2) {
                throw invalid(s);
            }
            value = value << 8 | Integer.parseInt(part, 16);
        }
        return DatapathId.of(value);
    }

    private static IllegalArgumentException invalid(String text) {
        String shown = text.length() <= 64 ? text : text.substring(0, 61) + "...";
        return new IllegalArgumentException("'" + shown + "' is not a datapath id (e.g. 00:00:00:00:00:00:00:01, "
                + "0x1 or 1)");
    }
}
