package io.heliograph.webui.rest;

import java.util.regex.Pattern;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.webui.api.ApiException;

/**
 * Datapath ids as a REST path gives them: Floodlight's colon form {@code 00:00:00:00:00:00:00:01},
 * hexadecimal {@code 0x1}, or decimal {@code 1}. Anything else is the client's mistake, named after
 * the path variable {@code dpid}.
 */
final class DatapathIds {

    static final String FIELD = "dpid";

    private static final Pattern COLON = Pattern.compile("[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){7}");
    private static final Pattern HEX = Pattern.compile("0[xX][0-9a-fA-F]{1,16}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,20}");

    private DatapathIds() {
    }

    static DatapathId parse(String text) {
        String s = text == null ? "" : text.strip();
        try {
            if (COLON.matcher(s).matches()) {
                return DatapathId.of(Long.parseUnsignedLong(s.replace(":", ""), 16));
            }
            if (HEX.matcher(s).matches()) {
                return DatapathId.of(Long.parseUnsignedLong(s.substring(2), 16));
            }
            if (DECIMAL.matcher(s).matches()) {
                return DatapathId.of(Long.parseUnsignedLong(s));
            }
        } catch (NumberFormatException e) {
            // a decimal above 2^64-1: same answer as any other bad id
        }
        throw ApiException.badRequest(FIELD, "'" + abbreviate(s) + "' is not a datapath id: write it as "
                + "00:00:00:00:00:00:00:01, 0x1 or 1 (at most 64 bits)");
    }

    /** Bad input is echoed back, but never at any length. */
    static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 61) + "...";
    }
}
