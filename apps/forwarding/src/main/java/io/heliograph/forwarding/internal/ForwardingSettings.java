package io.heliograph.forwarding.internal;

import java.util.Locale;
import java.util.Objects;

/**
 * How forwarding programs switches.
 *
 * @param idleTimeout       seconds without traffic before a path's flow expires (0 = never)
 * @param hardTimeout       seconds before a path's flow expires whatever the traffic (0 = never)
 * @param priority          priority of forwarding flows: above the learning switch's, below operators' static flows
 * @param ecmp              spread flows over equal-cost routes; off = always the first route
 * @param granularity       what a flow matches, and so the unit ECMP spreads
 * @param maxInstalledPaths the most installed paths remembered; beyond it a new flow gets no path (its
 *                          packets are sent along their route by packet-outs, one switch at a time)
 * @param maxHeldPackets    the most packets held, over every switch, while their paths are confirmed;
 *                          beyond it a packet is sent along its path at once
 * @param heldTimeoutMs     how long packets wait for a path's confirmation (the switches' barrier
 *                          replies); then they are released as if it had come
 */
record ForwardingSettings(int idleTimeout, int hardTimeout, int priority, boolean ecmp, MatchGranularity granularity,
        int maxInstalledPaths, int maxHeldPackets, long heldTimeoutMs) {

    static final ForwardingSettings DEFAULTS = new ForwardingSettings(5, 0, 10, true, MatchGranularity.TRANSPORT,
            32_768, 1_024, 2_000);

    ForwardingSettings {
        check("idleTimeout", idleTimeout, 0, 0xffff);
        check("hardTimeout", hardTimeout, 0, 0xffff);
        check("priority", priority, 1, 0xffff);
        Objects.requireNonNull(granularity, "granularity");
        check("maxInstalledPaths", maxInstalledPaths, 1, 1 << 24);
        check("maxHeldPackets", maxHeldPackets, 0, 1 << 20);
        check("heldTimeoutMs", heldTimeoutMs, 10, 60_000);
    }

    /** The granularity named in configuration, case-insensitively, or an error that lists the choices. */
    static MatchGranularity granularity(String name) {
        try {
            return MatchGranularity.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("matchGranularity must be one of MAC, IP, TRANSPORT, was '" + name + "'");
        }
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }
}
