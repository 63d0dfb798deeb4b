package io.heliograph.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The testbed itself against real Open vSwitch, without a controller: standalone bridges forward on
 * their own, so hosts reach each other; closing leaves no namespace, device or OVS process behind.
 */
@Timeout(120)
class TestbedIT {

    @Test
    void standaloneLineForwardsAndCloseRemovesEverything() {
        Testbed testbed = Testbed.start("TestbedIT");
        String prefix = testbed.names().prefix();
        List<Long> ovsPids;
        try (testbed) {
            Bridge s1 = testbed.addSwitch(1, List.of("OpenFlow13"), OvsInstance.FailMode.STANDALONE);
            Bridge s2 = testbed.addSwitch(2, List.of("OpenFlow13"), OvsInstance.FailMode.STANDALONE);
            Host h1 = testbed.addHost(1, s1);
            Host h2 = testbed.addHost(2, s2);
            testbed.link(s1, s2);

            h1.awaitReachable(h2, Duration.ofSeconds(15));
            assertTrue(h1.ping(h2, 3).allAnswered());
            assertTrue(h2.ping(h1, 3).allAnswered());
            // the bridges are what we asked for
            assertEquals("netdev", testbed.ovs().vsctl("get", "bridge", s1.name(), "datapath_type").stdout().strip());
            assertTrue(s2.ofctl("show").contains("dpid:0000000000000002"));
            ovsPids = ovsProcesses(testbed);
            assertEquals(2, ovsPids.size(), "ovsdb-server and ovs-vswitchd running");
        }
        Set<String> left = Links.namesInUse();
        assertFalse(left.stream().anyMatch(n -> n.startsWith(prefix)), "left behind: " + left);
        for (long pid : ovsPids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "OVS pid " + pid + " still alive");
        }
    }

    private static List<Long> ovsProcesses(Testbed testbed) {
        return List.of("ovsdb-server.pid", "ovs-vswitchd.pid").stream()
                .map(f -> {
                    try {
                        return Long.parseLong(java.nio.file.Files.readString(testbed.workDir().resolve(f)).strip());
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }).toList();
    }
}
