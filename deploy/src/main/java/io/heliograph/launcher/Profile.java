package io.heliograph.launcher;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which of the applications in hot/ a controller runs. The platform in bundles/ always runs; a
 * profile only narrows what FileInstall installs from hot/ (through the {@code ${heliograph.hot.filter}}
 * of etc/org.apache.felix.fileinstall-hot.cfg), so the distribution stays one folder.
 */
public enum Profile {

    /** Every application in hot/. */
    FULL("full", "every app in hot/", List.of(), null),

    /**
     * The learning switch alone, as the Beacon thesis benchmarked: what answers a load generator's
     * packet-ins, with no topology, devices, statistics, routing, static flows or forwarding. With
     * no per-switch packet-in rate: a generator's switches flood at once, faster than the default
     * rate (the bound would be measured, not the controller).
     */
    BENCH("bench", "the learning switch only", List.of("heliograph-learningswitch"), "0");

    private final String label;
    private final String description;
    /** Artifact ids of the hot/ jars the profile runs; empty: all of them. */
    private final List<String> apps;
    /** packetInRate of io.heliograph.openflow; null: the one etc/io.heliograph.openflow.cfg gives. */
    private final String packetInRate;

    Profile(String label, String description, List<String> apps, String packetInRate) {
        this.label = label;
        this.description = description;
        this.apps = apps;
        this.packetInRate = packetInRate;
    }

    /** The packet-in rate per switch the profile sets, or null to leave it to etc/io.heliograph.openflow.cfg. */
    public String packetInRate() {
        return packetInRate;
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    /**
     * The regular expression FileInstall matches hot/'s file names against. Dots are written
     * {@code [.]}: the value passes through FileInstall's own escaping, which keeps no backslash
     * the same way twice.
     */
    public String hotFilter() {
        if (apps.isEmpty()) {
            return ".*[.]jar";
        }
        return apps.stream().map(a -> a.replace(".", "[.]")).collect(Collectors.joining("|", "(", ")[.]jar"));
    }

    /** The profile a command-line label names, or null. */
    public static Profile ofLabel(String label) {
        String wanted = label.trim().toLowerCase(Locale.ROOT);
        for (Profile p : values()) {
            if (p.label.equals(wanted)) {
                return p;
            }
        }
        return null;
    }

    /** "full, bench": the labels, for messages. */
    public static String labels() {
        return java.util.Arrays.stream(values()).map(Profile::label).collect(Collectors.joining(", "));
    }
}
