package io.heliograph.learningswitch;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How the learning switch programs switches.
 *
 * @param idleTimeout     seconds without traffic before a learned flow expires (0 = never)
 * @param hardTimeout     seconds before a learned flow expires whatever the traffic (0 = never)
 * @param priority        priority of learned flows; above 0 so they win over the table-miss flow
 * @param maxHosts        the most MAC addresses remembered per switch
 * @param maxHostsPerPort the most MAC addresses remembered per port of a switch; more than maxHosts is
 *                        maxHosts
 * @param hostIdleMs      an address seen within this many milliseconds is never evicted for a new one
 */
record LearningSwitchSettings(int idleTimeout, int hardTimeout, int priority, int maxHosts, int maxHostsPerPort,
        long hostIdleMs) {

    static final LearningSwitchSettings DEFAULTS = new LearningSwitchSettings(5, 0, 1, 65_536, 65_536, 120_000);

    LearningSwitchSettings {
        check("idleTimeout", idleTimeout, 0, 0xffff);
        check("hardTimeout", hardTimeout, 0, 0xffff);
        check("priority", priority, 0, 0xffff);
        check("maxHosts", maxHosts, 1, 1 << 24);
        check("maxHostsPerPort", maxHostsPerPort, 1, 1 << 24);
        check("hostIdleMs", hostIdleMs, 1_000, TimeUnit.DAYS.toMillis(7));
        maxHostsPerPort = Math.min(maxHostsPerPort, maxHosts);
    }

    /** A new, empty table with these bounds. */
    MacTable newTable(LongSupplier nanoClock) {
        return new MacTable(maxHosts, maxHostsPerPort, TimeUnit.MILLISECONDS.toNanos(hostIdleMs), nanoClock);
    }

    /** Whether tables made with {@code other} would have other bounds. */
    boolean sameTables(LearningSwitchSettings other) {
        return maxHosts == other.maxHosts && maxHostsPerPort == other.maxHostsPerPort
                && hostIdleMs == other.hostIdleMs;
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }
}
