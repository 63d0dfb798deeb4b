package io.heliograph.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The testbed itself against real Open vSwitch, without a controller: standalone bridges forward on
 * their own, so hosts reach each other. Two testbeds run side by side (each OVS in its own
 * namespace), and closing leaves no namespace, device or OVS process behind.
 */
@Timeout(120)
class OvsTestbedIT {

    @Test
    void twoTestbedsSideBySideForwardAndCloseRemovesEverything() {
        List<String> prefixes = new ArrayList<>();
        List<Long> ovsPids = new ArrayList<>();
        try (Testbed first = Testbed.start("OvsTestbedIT-1"); Testbed second = Testbed.start("OvsTestbedIT-2")) {
            for (Testbed testbed : List.of(first, second)) {
                prefixes.add(testbed.names().prefix());
                Bridge s1 = testbed.addSwitch(1, List.of("OpenFlow13"), OvsInstance.FailMode.STANDALONE);
                Bridge s2 = testbed.addSwitch(2, List.of("OpenFlow13"), OvsInstance.FailMode.STANDALONE);
                testbed.addHost(1, s1);
                testbed.addHost(2, s2);
                testbed.link(s1, s2);
                assertEquals("netdev", testbed.ovs().vsctl("get", "bridge", s1.name(), "datapath_type").stdout().strip());
                assertTrue(s2.ofctl("show").contains("dpid:0000000000000002"));
                ovsPids.addAll(daemonPids(testbed));
            }
            // same addresses in both, yet each pair only talks through its own switches
            for (Testbed testbed : List.of(first, second)) {
                Host h1 = testbed.hosts().get(0);
                Host h2 = testbed.hosts().get(1);
                h1.awaitReachable(h2, Duration.ofSeconds(15));
                assertTrue(h1.ping(h2, 3).allAnswered());
                assertTrue(h2.ping(h1, 3).allAnswered());
            }
            assertEquals(4, ovsPids.size(), "ovsdb-server and ovs-vswitchd of both testbeds");
        }
        Set<String> left = Links.namesInUse();
        for (String prefix : prefixes) {
            assertFalse(left.stream().anyMatch(n -> n.startsWith(prefix)), "left behind: " + left);
        }
        for (long pid : ovsPids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "OVS pid " + pid + " still alive");
        }
    }

    private static List<Long> daemonPids(Testbed testbed) {
        return List.of("ovsdb-server.pid", "ovs-vswitchd.pid").stream().map(f -> {
            try {
                return Long.parseLong(Files.readString(testbed.workDir().resolve(f)).strip());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }
}
