package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FatTree;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.NetworkView;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.StoreEntries;
import io.heliograph.testbed.Testbed;
import io.heliograph.testbed.ZooKeeperServerProcess;

/**
 * Links and hosts in a cluster (issue 6): two controller instances, "c1" and "c2", on one real
 * ZooKeeper server, and a k=4 fat tree (20 switches, 64 directed links, 16 hosts) whose switches
 * connect to both. Mastership splits the switches between them, each switch with one MASTER.
 * <ul>
 * <li>Each instance finds the links into the switches it masters (only the master gets their
 *     probes), and each lists all 64 through the shared store, each link discovered by the master of
 *     its destination switch.</li>
 * <li>Each instance learns the hosts of the edge switches it masters, and each lists all 16 at
 *     their edge ports.</li>
 * <li>The store writes this costs are printed: for discovery, and for ten LLDP rounds that only
 *     confirm what is known. In those rounds no link entry that stays in the store is written (its
 *     version, read from ZooKeeper itself, does not move); and unless something unsettled the cluster
 *     meanwhile (a lost ZooKeeper session, a mastership move, a link timing out: the instances' logs
 *     say so), no link entry is written at all.</li>
 * <li>c1 is killed (SIGKILL): c2 drops c1's links, masters every switch, finds the links into c1's
 *     former switches at once (probing each as it becomes its master) and lists all 64 again, all
 *     its own. The time from the kill is printed.</li>
 * </ul>
 */
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Isolated: three controller JVMs, a ZooKeeper server and a k=4 fat tree; a session lost to load fails it
@Isolated
class ClusterTopologyIT {

    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration CONVERGENCE = Duration.ofSeconds(90);
    private static final Duration STORE_READ = Duration.ofSeconds(30);
    private static final String NOBODY = "10.0.0.200";
    /** OwnedEntries' debug line for each batch it writes. */
    private static final Pattern LLDP_ACCEPTED = Pattern.compile("LLDP accepted (\\d+)");
    private static final Pattern WRITES = Pattern.compile("(topology/links|devices/hosts): writing (\\d+) entries");
    /** Log lines of events after which links are legitimately found again (see disturbancesSince). */
    private static final Pattern DISTURBANCE = Pattern.compile("[^\\n]*(ZooKeeper SUSPENDED|handing mastership over"
            + "|LinkDiscovery - Link \\S+ -> \\S+ removed)[^\\n]*");

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ZooKeeperServerProcess zookeeper;
    private static final Map<String, ControllerProcess> controllers = new TreeMap<>();
    private static Testbed testbed;
    private static FatTree tree;
    /** Target (as OVS lists it) -> instance id. */
    private static final Map<String, String> instanceOf = new HashMap<>();

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("ClusterTopologyIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        distribution.setLogLevel("io.heliograph.core.cluster.OwnedEntries", "debug");
        // a link that times out unconfirmed is logged: the writes of finding it again are then expected
        distribution.setLogLevel("io.heliograph.topology.internal.LinkDiscovery", "debug");
        zookeeper = ZooKeeperServerProcess.standalone(distribution, artifacts.resolve("zookeeper.log"));
        zookeeper.awaitServing(STARTUP);
        testbed = Testbed.start("ClusterTopologyIT");
        for (String id : List.of("c1", "c2")) {
            ControllerProcess controller = ControllerProcess.start(distribution, artifacts.resolve(id + ".log"),
                    "--zookeeper", zookeeper.connectString(), "--instance-id", id);
            controllers.put(id, controller);
            instanceOf.put(testbed.controllerTarget("tcp", controller.openflowPort()), id);
        }
        controllers.values().forEach(c -> c.awaitHealthy(STARTUP));
        tree = testbed.fatTree(4, List.of("OpenFlow13"));
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("ClusterTopologyIT");
        cleanup.close("testbed", testbed);
        controllers.forEach((id, controller) -> cleanup.close(id, controller));
        cleanup.close("zookeeper", zookeeper);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    @Order(1)
    void eachInstanceListsEveryLinkEachFoundByTheMasterOfItsDestination() {
        long start = System.nanoTime();
        testbed.ovs().setController(tree.switches(), instanceOf.keySet().toArray(String[]::new));
        // The switches may reach one instance first, which masters them all until the balancer hands
        // some over to the other: the split is awaited, not sampled.
        Map<String, String> masters = Poll.until("every switch to have one MASTER, some c1 and some c2", CONVERGENCE,
                ClusterTopologyIT::masters, m -> m.size() == tree.switches().size()
                        && Set.copyOf(m.values()).equals(Set.of("c1", "c2")));
        assertEquals(Set.of("c1", "c2"), Set.copyOf(masters.values()), "mastership is split: " + masters);
        for (ControllerProcess controller : controllers.values()) {
            Poll.until("all " + tree.directedLinks().size() + " links in " + controller.logFile().getFileName(),
                    CONVERGENCE, () -> NetworkView.links(controller), tree.directedLinks()::equals);
        }
        long convergedMs = (System.nanoTime() - start) / 1_000_000;

        // When mastership moves (the balancer spreads the switches as the instances join), the old master
        // keeps its links until they time out unconfirmed, beside the new master's: so, eventually.
        for (Map.Entry<String, ControllerProcess> e : controllers.entrySet()) {
            Map<String, String> discoveredBy = Poll.until(e.getKey() + " to list each link as found by the master "
                    + "of its destination", CONVERGENCE, () -> discoveredBy(e.getValue()),
                    links -> links.keySet().equals(tree.directedLinks()) && foundByMasters(links, masters()));
            assertEquals(tree.directedLinks(), discoveredBy.keySet(), e.getKey() + "'s REST");
        }
        System.out.printf("cluster of 2 on a k=4 fat tree: every switch mastered and all %d links in both "
                + "instances after %d ms; masters: %s%n", tree.directedLinks().size(), convergedMs, count(masters()));
    }

    private static boolean foundByMasters(Map<String, String> discoveredBy, Map<String, String> masters) {
        return discoveredBy.entrySet().stream()
                .allMatch(e -> e.getValue().equals(masters.get(destination(e.getKey()))));
    }

    @Test
    @Order(2)
    void eachInstanceListsEveryHostAtItsEdgePort() throws Exception {
        // An ARP request for nobody: each host's edge switch sends it to its master, which learns the host.
        for (Host host : tree.hosts()) {
            host.exec(Duration.ofSeconds(10), "ping", "-n", "-c", "1", "-w", "1", NOBODY);
        }
        Map<String, String> truth = new TreeMap<>();
        for (Host host : tree.hosts()) {
            truth.put(host.mac(), NetworkView.attachment(host, tree.edgeOf(host), tree.portOf(host)));
        }
        for (Map.Entry<String, ControllerProcess> e : controllers.entrySet()) {
            Map<String, String> hosts = Poll.until(e.getKey() + " to list all 16 hosts at their edge ports",
                    Duration.ofSeconds(30), () -> NetworkView.hosts(e.getValue()), truth::equals);
            assertEquals(truth, hosts);
        }
    }

    @Test
    @Order(3)
    void theStoreWritesForDiscoveryAndForTenQuietLldpRounds() {
        ZooKeeper store = StoreEntries.connect(zookeeper.connectString(), STARTUP);
        try {
            Map<String, StoreEntries.Entry> entriesBefore = StoreEntries.owned(store, "topology/links", STORE_READ);
            Map<String, Long> discovery = writesSoFar();
            Map<String, Integer> logMarks = new TreeMap<>();
            controllers.forEach((id, controller) -> logMarks.put(id, controller.logMark()));
            long acceptedBefore = lldpAccepted();
            long start = System.nanoTime();
            long rounds = 10;
            Poll.until(rounds + " LLDP rounds, every link confirmed each time", Duration.ofSeconds(120),
                    ClusterTopologyIT::lldpAccepted, accepted -> accepted - acceptedBefore >= rounds * tree.directedLinks().size());
            double seconds = (System.nanoTime() - start) / 1e9;
            Map<String, Long> after = writesSoFar();
            Map<String, StoreEntries.Entry> entriesAfter = StoreEntries.owned(store, "topology/links", STORE_READ);
            List<String> disturbances = disturbancesSince(logMarks);

            long linkWrites = after.get("topology/links") - discovery.get("topology/links");
            long hostWrites = after.get("devices/hosts") - discovery.get("devices/hosts");
            System.out.printf("store writes, both instances: discovery of %d links %d, of %d hosts %d; then in %.0f s "
                    + "(%d LLDP rounds) %d for links (%.2f/s) and %d for hosts (%.2f/s)%n", tree.directedLinks().size(),
                    discovery.get("topology/links"), tree.hosts().size(), discovery.get("devices/hosts"), seconds, rounds,
                    linkWrites, linkWrites / seconds, hostWrites, hostWrites / seconds);

            // A link entry that was never deleted keeps its ZooKeeper creation id; its version counts its writes.
            Map<String, Integer> rewritten = new TreeMap<>();
            Set<String> created = new TreeSet<>();
            entriesAfter.forEach((entry, now) -> {
                StoreEntries.Entry was = entriesBefore.get(entry);
                if (was == null || was.createdZxid() != now.createdZxid()) {
                    created.add(entry);
                } else if (now.version() != was.version()) {
                    rewritten.put(entry, now.version() - was.version());
                }
            });
            Set<String> deleted = new TreeSet<>();
            entriesBefore.forEach((entry, was) -> {
                StoreEntries.Entry now = entriesAfter.get(entry);
                if (now == null || now.createdZxid() != was.createdZxid()) {
                    deleted.add(entry);
                }
            });
            System.out.printf("link entries in the store over those rounds: %d before, %d after; %d (re)created, %d "
                    + "deleted, %d rewritten in place; %d log lines say what unsettled the cluster meanwhile%s%n",
                    entriesBefore.size(), entriesAfter.size(), created.size(), deleted.size(), rewritten.size(),
                    disturbances.size(), disturbances.isEmpty() ? "" : ", the first: "
                            + disturbances.subList(0, Math.min(5, disturbances.size())));
            assertEquals(Map.of(), rewritten, "probes that confirm known links write nothing: writes of link entries "
                    + "that stayed in the store all along (entry -> writes)");
            if (disturbances.isEmpty()) {
                // Nobody lost a session, no switch changed master, no link timed out: nothing to find again.
                assertEquals(0, linkWrites, "a quiet cluster writes nothing for its links; (re)created " + created
                        + ", deleted " + deleted);
            }
        } finally {
            StoreEntries.close(store);
        }
    }

    /**
     * What happened in either instance since its mark that makes links be found again and written: a
     * ZooKeeper session suspended (its switches go to the others), a switch handed to another master,
     * a link removed (it timed out unconfirmed).
     */
    private static List<String> disturbancesSince(Map<String, Integer> marks) {
        List<String> seen = new ArrayList<>();
        marks.forEach((id, mark) -> {
            String log = controllers.get(id).log();
            Matcher m = DISTURBANCE.matcher(log.substring(Math.min(mark, log.length())));
            while (m.find()) {
                seen.add(id + ": " + m.group().strip());
            }
        });
        return seen;
    }

    @Test
    @Order(4)
    void whenAnInstanceDiesTheOtherFindsItsLinksAgain() {
        ControllerProcess survivor = controllers.get("c2");
        long start = System.nanoTime();
        controllers.remove("c1").kill();
        Poll.until("c2 to master every switch", CONVERGENCE, ClusterTopologyIT::masters,
                m -> m.size() == tree.switches().size() && Set.copyOf(m.values()).equals(Set.of("c2")));
        long masteredMs = (System.nanoTime() - start) / 1_000_000;
        Map<String, String> discoveredBy = Poll.until("c2 to have found every link itself", CONVERGENCE,
                () -> discoveredBy(survivor), links -> links.keySet().equals(tree.directedLinks())
                        && Set.copyOf(links.values()).equals(Set.of("c2")));
        long foundMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(tree.directedLinks(), discoveredBy.keySet());
        System.out.printf("after SIGKILL of c1: c2 masters all %d switches after %d ms and has found all %d links "
                + "itself after %d ms%n", tree.switches().size(), masteredMs, tree.directedLinks().size(), foundMs);
    }

    /** Each switch's MASTER instance, by dpid, for the switches that have exactly one. */
    private static Map<String, String> masters() {
        Map<String, String> masters = new TreeMap<>();
        for (Bridge bridge : tree.switches()) {
            List<String> mastersOfBridge = bridge.controllerRoles().entrySet().stream()
                    .filter(e -> e.getValue().equals("master")).map(e -> instanceOf.get(e.getKey())).toList();
            if (mastersOfBridge.size() == 1) {
                masters.put(bridge.dpid(), mastersOfBridge.get(0));
            }
        }
        return masters;
    }

    /** The links a controller's REST API lists, as "src -> dst", with who discovered each. */
    private static Map<String, String> discoveredBy(ControllerProcess controller) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode link : controller.rest().get("/api/v1/topology/links").json()) {
            out.put(end(link.get("src")) + " -> " + end(link.get("dst")), link.get("discoveredBy").asText());
        }
        return out;
    }

    private static String end(JsonNode end) {
        return end.get("dpid").asText() + "/" + end.get("port").asInt();
    }

    private static String destination(String link) {
        String dst = link.substring(link.indexOf("-> ") + 3);
        return dst.substring(0, dst.indexOf('/'));
    }

    private static Map<String, Long> count(Map<String, String> masters) {
        Map<String, Long> counts = new TreeMap<>();
        masters.values().forEach(id -> counts.merge(id, 1L, Long::sum));
        return counts;
    }

    /** The probes both instances accepted so far (each is one link confirmed). */
    private static long lldpAccepted() {
        long accepted = 0;
        for (ControllerProcess controller : controllers.values()) {
            Matcher m = LLDP_ACCEPTED.matcher(controller.console("links", LLDP_ACCEPTED, Duration.ofSeconds(20)));
            if (m.find()) {
                accepted += Long.parseLong(m.group(1));
            }
        }
        return accepted;
    }

    /** The entries written so far by every instance, by store prefix, from their logs. */
    private static Map<String, Long> writesSoFar() {
        Map<String, Long> writes = new TreeMap<>(Map.of("topology/links", 0L, "devices/hosts", 0L));
        for (String id : new TreeSet<>(List.of("c1", "c2"))) {
            ControllerProcess controller = controllers.get(id);
            if (controller == null) {
                continue;
            }
            Matcher m = WRITES.matcher(controller.log());
            while (m.find()) {
                writes.merge(m.group(1), Long.parseLong(m.group(2)), Long::sum);
            }
        }
        return writes;
    }
}
