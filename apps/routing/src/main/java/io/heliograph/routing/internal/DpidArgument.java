package io.heliograph.routing.internal;

import java.util.Locale;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * Reads a datapath id as an operator types it: colon-separated hex bytes (00:00:00:00:00:00:00:01,
 * or fewer bytes, padded on the left), 0x-prefixed hex, or an unsigned decimal long.
 */
final class DpidArgument {

    private DpidArgument() {
    }

    static DatapathId parse(String text) {
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
            throw invalid(text);
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
        return new IllegalArgumentException("'" + text + "' is not a datapath id (e.g. 00:00:00:00:00:00:00:01, "
                + "0x1 or 1)");
    }
}
