package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.Testbed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The network services of the distribution on real switches: on a line of three Open vSwitch
 * bridges the topology app finds exactly the two cables (four directed links, as the console's
 * {@code links} lists them), and after the hosts ping, the device app places each of the three hosts
 * at its true switch and port (an edge port, never the inter-switch ones), as {@code hosts} lists them.
 * The switches hold no flow but the table-miss and those forwarding installs.
 */
@Timeout(180)
class NetworkServicesIT {

    private static final Duration COMMAND = Duration.ofSeconds(10);
    /** LLDP goes out at once when a switch connects; rounds follow every 5 s (etc/io.heliograph.topology.cfg). */
    private static final Duration DISCOVERY = Duration.ofSeconds(30);
    /** "00:00:00:00:00:00:00:01/2         -> 00:00:00:00:00:00:00:02/2  age ..." */
    private static final Pattern LINK = Pattern.compile("^(?:g! )?(\\S+/\\d+)\\s+->\\s+(\\S+/\\d+)\\s+age", Pattern.MULTILINE);
    private static final Pattern LINK_SUMMARY = Pattern.compile("\\d+ switches, \\d+ links .*");
    /** "02:00:00:00:00:01  ip 10.0.0.1  at 00:00:00:00:00:00:00:01/1  seen 0s ago" */
    private static final Pattern HOST = Pattern.compile("^(\\S+)(?: vlan \\d+)?\\s+ip (\\S+)\\s+at (\\S+)\\s+seen", Pattern.MULTILINE);
    private static final Pattern HOSTS_DONE = Pattern.compile("(no hosts|\\d+ hosts?\\n(?:.*\\n)*?.*seen.*)\\ng! ");

    private static ControllerDistribution distribution;
    private static ControllerProcess controller;

    @BeforeAll
    static void startController() {
        Path artifacts = ArtifactDirectory.forTest("NetworkServicesIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopController() {
        Cleanup cleanup = new Cleanup("NetworkServicesIT controller");
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void topologyFindsTheCablesAndDevicesTheHostsAtTheirEdgePorts() {
        try (Testbed testbed = Testbed.start("NetworkServicesIT")) {
            // s1: h1 on port 1, s2 on port 2; s2: h2 on 1, s1 on 2, s3 on 3; s3: h3 on 1, s2 on 2.
            Testbed.LinearTopology line = testbed.linear(3, List.of("OpenFlow13"),
                    testbed.controllerTarget("tcp", controller.openflowPort()));
            controller.awaitSwitches(3, Duration.ofSeconds(30));
            String s1 = dpid(line.switches().get(0));
            String s2 = dpid(line.switches().get(1));
            String s3 = dpid(line.switches().get(2));

            Set<String> cables = Set.of(s1 + "/2 -> " + s2 + "/2", s2 + "/2 -> " + s1 + "/2",
                    s2 + "/3 -> " + s3 + "/2", s3 + "/2 -> " + s2 + "/3");
            Set<String> links = Poll.until("links to list the line's two cables in both directions", DISCOVERY,
                    NetworkServicesIT::links, cables::equals);
            assertEquals(cables, links);

            for (Host from : line.hosts()) {
                for (Host to : line.hosts()) {
                    if (from != to) {
                        from.awaitReachable(to, Duration.ofSeconds(15));
                    }
                }
            }
            Map<String, String> truth = new TreeMap<>();
            for (int i = 0; i < 3; i++) {
                Host host = line.hosts().get(i);
                truth.put(host.mac(), host.ip() + " at " + dpid(line.switches().get(i)) + "/1");
            }
            // A host first seen through a flood may sit at an inter-switch port until the links are
            // known; the device app moves it back to its edge port, so this waits for the final view.
            Map<String, String> hosts = Poll.until("hosts to list h1, h2, h3 at port 1 of s1, s2, s3", DISCOVERY,
                    NetworkServicesIT::hosts, truth::equals);
            assertEquals(truth, hosts);
            // and it stays so: the topology still sees the same two cables
            assertEquals(cables, links());

            // The network services install nothing of their own here (no static entries, topology and
            // devices only listen): every flow is the table-miss or one forwarding installed.
            for (Bridge bridge : line.switches()) {
                List<FlowEntry> flows = bridge.dumpFlows();
                List<FlowEntry> unexpected = flows.stream().filter(f -> !f.isTableMiss() && !f.isReactive()).toList();
                assertEquals(List.of(), unexpected, "flows on " + bridge + " that no app should have installed");
                assertTrue(flows.stream().anyMatch(FlowEntry::isTableMiss), "the table-miss flow on " + bridge + ": " + flows);
            }
        }
    }

    /** The directed links the console's {@code links} lists now, as "src -> dst". */
    private static Set<String> links() {
        String output = controller.console("links", LINK_SUMMARY, COMMAND);
        Set<String> links = new TreeSet<>();
        Matcher m = LINK.matcher(output);
        while (m.find()) {
            links.add(m.group(1) + " -> " + m.group(2));
        }
        return links;
    }

    /** The hosts the console's {@code hosts} lists now: MAC -> "ip at dpid/port". */
    private static Map<String, String> hosts() {
        String output = controller.console("hosts", HOSTS_DONE, COMMAND);
        Matcher done = HOSTS_DONE.matcher(output);
        assertTrue(done.find(), output);
        Map<String, String> hosts = new TreeMap<>();
        Matcher m = HOST.matcher(done.group(1));
        while (m.find()) {
            hosts.put(m.group(1), m.group(2) + " at " + m.group(3));
        }
        return hosts;
    }

    /** The datapath id as the controller writes it: 00:00:00:00:00:00:00:01. */
    private static String dpid(Bridge bridge) {
        String hex = String.format("%016x", bridge.datapathId());
        return String.join(":", hex.split("(?<=\\G..)"));
    }
}
