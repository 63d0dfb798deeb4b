package io.heliograph.testbed;

import java.util.HashSet;
import java.util.Set;

/** Network devices and namespaces of the root namespace, through iproute2. */
public final class Links {

    private Links() {
    }

    public static boolean exists(String device) {
        return Command.of("ip", "link", "show", "dev", device).run().succeeded();
    }

    public static void deleteIfPresent(String device) {
        if (exists(device)) {
            CommandResult result = Command.of("ip", "link", "del", "dev", device).run();
            // deleting a veth end or a namespace removes the peer asynchronously: gone is gone
            if (!result.succeeded() && exists(device)) {
                result.requireSuccess();
            }
        }
    }

    /**
     * Readies a veth end in {@code namespace} to be a switch port: checksum offload off (TCP through a
     * userspace bridge hangs otherwise), IPv6 off (the kernel would send router solicitations and MLD
     * reports from it, stray packets the controller would see), and up.
     */
    public static void preparePort(String namespace, String device) {
        Command.inNamespace(namespace, "ethtool", "-K", device, "tx", "off").check();
        disableIpv6(namespace, device);
        Command.of("ip", "-n", namespace, "link", "set", device, "up").check();
    }

    /**
     * Sets net.ipv6.conf.{@code conf}.disable_ipv6 in {@code namespace} ({@code conf} is a device,
     * "all" or "default"). Through /proc, which shows the writer's namespace, so procps is not needed.
     */
    public static void disableIpv6(String namespace, String conf) {
        Command.inNamespace(namespace, "sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/" + conf + "/disable_ipv6").check();
    }

    public static void deleteNamespaceIfPresent(String namespace) {
        if (Command.of("ip", "netns", "list").check().stdout().lines()
                .anyMatch(l -> l.split("\\s+")[0].equals(namespace))) {
            Command.of("ip", "netns", "del", namespace).check();
        }
    }

    /** Names of all devices and namespaces now present, to pick names nobody uses. */
    public static Set<String> namesInUse() {
        Set<String> names = new HashSet<>();
        for (String line : Command.of("ip", "-o", "link", "show").check().stdout().split("\n")) {
            // "12: hgab12s1@hgab12s2: <BROADCAST,..." -> hgab12s1
            String[] parts = line.split(":\\s+", 3);
            if (parts.length >= 2) {
                names.add(parts[1].split("@")[0]);
            }
        }
        for (String line : Command.of("ip", "netns", "list").check().stdout().split("\n")) {
            if (!line.isBlank()) {
                names.add(line.split("\\s+")[0]);
            }
        }
        return names;
    }
}
