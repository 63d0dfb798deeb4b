package io.heliograph.stats.internal;

import org.projectfloodlight.openflow.types.DatapathId;

/** Datapath ids as a person types them in the shell. */
final class Dpids {

    private Dpids() {
    }

    /**
     * Accepts the colon form ({@code 00:00:00:00:00:00:00:01}), hex with {@code 0x}, or decimal.
     *
     * @throws IllegalArgumentException naming the text when it is none of those
     */
    static DatapathId parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        try {
            if (trimmed.contains(":")) {
                return DatapathId.of(trimmed);
            }
            if (trimmed.startsWith("0x") || trimmed.startsWith("0X")) {
                return DatapathId.of(Long.parseUnsignedLong(trimmed.substring(2), 16));
            }
            return DatapathId.of(Long.parseUnsignedLong(trimmed));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a datapath id (e.g. 00:00:00:00:00:00:00:01, "
                    + "0x1 or 1)");
        }
    }
}
