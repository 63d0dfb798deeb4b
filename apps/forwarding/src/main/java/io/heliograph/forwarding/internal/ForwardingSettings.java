package io.heliograph.forwarding.internal;

import java.util.Locale;
import java.util.Objects;

/**
 * How forwarding programs switches.
 *
 * @param idleTimeout seconds without traffic before a path's flow expires (0 = never)
 * @param hardTimeout seconds before a path's flow expires whatever the traffic (0 = never)
 * @param priority    priority of forwarding flows: above the learning switch's, below operators' static flows
 * @param ecmp        spread flows over equal-cost routes; off = always the first route
 * @param granularity what a flow matches, and so the unit ECMP spreads
 */
record ForwardingSettings(int idleTimeout, int hardTimeout, int priority, boolean ecmp, MatchGranularity granularity) {

    static final ForwardingSettings DEFAULTS = new ForwardingSettings(5, 0, 10, true, MatchGranularity.TRANSPORT);

    ForwardingSettings {
        check("idleTimeout", idleTimeout, 0, 0xffff);
        check("hardTimeout", hardTimeout, 0, 0xffff);
        check("priority", priority, 1, 0xffff);
        Objects.requireNonNull(granularity, "granularity");
    }

    /** The granularity named in configuration, case-insensitively, or an error that lists the choices. */
    static MatchGranularity granularity(String name) {
        try {
            return MatchGranularity.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("matchGranularity must be one of MAC, IP, TRANSPORT, was '" + name + "'");
        }
    }

    private static void check(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }
}
