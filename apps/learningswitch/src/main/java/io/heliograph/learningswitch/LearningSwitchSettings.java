package io.heliograph.learningswitch;

/**
 * How the learning switch programs switches.
 *
 * @param idleTimeout seconds without traffic before a learned flow expires (0 = never)
 * @param hardTimeout seconds before a learned flow expires whatever the traffic (0 = never)
 * @param priority    priority of learned flows; above 0 so they win over the table-miss flow
 * @param maxHosts    the most MAC addresses remembered per switch
 */
record LearningSwitchSettings(int idleTimeout, int hardTimeout, int priority, int maxHosts) {

    static final LearningSwitchSettings DEFAULTS = new LearningSwitchSettings(5, 0, 1, 65_536);

    LearningSwitchSettings {
        check("idleTimeout", idleTimeout, 0, 0xffff);
        check("hardTimeout", hardTimeout, 0, 0xffff);
        check("priority", priority, 0, 0xffff);
        check("maxHosts", maxHosts, 1, 1 << 24);
    }

    private static void check(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }
}
