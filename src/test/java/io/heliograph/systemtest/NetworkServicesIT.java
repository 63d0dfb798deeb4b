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
import io.heliograph.testbed.NetworkView;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.Testbed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

    /** LLDP goes out at once when a switch connects; rounds follow every 5 s (etc/io.heliograph.topology.cfg). */
    private static final Duration DISCOVERY = Duration.ofSeconds(30);

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
            String s1 = line.switches().get(0).dpid();
            String s2 = line.switches().get(1).dpid();
            String s3 = line.switches().get(2).dpid();

            Set<String> cables = Set.of(s1 + "/2 -> " + s2 + "/2", s2 + "/2 -> " + s1 + "/2",
                    s2 + "/3 -> " + s3 + "/2", s3 + "/2 -> " + s2 + "/3");
            Set<String> links = Poll.until("links to list the line's two cables in both directions", DISCOVERY,
                    () -> NetworkView.links(controller), cables::equals);
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
                truth.put(host.mac(), NetworkView.attachment(host, line.switches().get(i), 1));
            }
            // A host first seen through a flood may sit at an inter-switch port until the links are
            // known; the device app moves it back to its edge port, so this waits for the final view.
            // Hosts talk on, as real ones do: one the tracker forgot (its switch reconnected, say) is
            // learned again from its next packet, so a missing host pings its neighbour between reads.
            Map<String, String> hosts;
            try {
                hosts = Poll.until("hosts to list h1, h2, h3 at port 1 of s1, s2, s3", DISCOVERY,
                        () -> talkingHosts(line.hosts(), truth), truth::equals);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\nswitch connections and masterships in the controller's "
                        + "log:\n" + connectionLines(), e);
            }
            assertEquals(truth, hosts);
            // and it stays so: the topology still sees the same two cables
            assertEquals(cables, NetworkView.links(controller));

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


    /** The hosts listed now; each host of {@code truth} missing from them pings the next host first. */
    private static Map<String, String> talkingHosts(List<Host> hosts, Map<String, String> truth) {
        Map<String, String> listed = NetworkView.hosts(controller);
        for (int i = 0; i < hosts.size(); i++) {
            Host host = hosts.get(i);
            if (!truth.get(host.mac()).equals(listed.get(host.mac()))) {
                host.ping(hosts.get((i + 1) % hosts.size()), 1);
            }
        }
        return listed;
    }

    private static String connectionLines() {
        return controller.log().lines()
                .filter(l -> l.contains("SwitchConnection") || l.contains("MastershipElection"))
                .collect(java.util.stream.Collectors.joining("\n"));
    }
}
