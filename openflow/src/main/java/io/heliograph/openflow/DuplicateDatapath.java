package io.heliograph.openflow;

import java.util.Locale;

/**
 * What happens when a connection claims the datapath id of a switch that is connected already:
 * setting {@code duplicateDatapath} of {@code io.heliograph.openflow}. Without TLS any TCP client
 * that knows a datapath id could otherwise take a switch's session over.
 */
public enum DuplicateDatapath {

    /**
     * Ask the connected one (an ECHO, within the echo timeout): while it answers, the newcomer is
     * refused; when it is silent or gone, the newcomer replaces it (a switch that crashed and
     * reconnects gets in within the echo timeout, at once when its old connection is closed).
     */
    PROBE,
    /** The newcomer replaces the connected one at once. */
    REPLACE,
    /** The newcomer is refused while the connected one is connected. */
    REFUSE;

    /** The setting's value, case-insensitive; a bad one fails with a message naming the setting. */
    public static DuplicateDatapath parse(String value) {
        String v = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        for (DuplicateDatapath d : values()) {
            if (d.name().equals(v)) {
                return d;
            }
        }
        throw new IllegalArgumentException("duplicateDatapath must be probe, replace or refuse, was '" + value + "'");
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
