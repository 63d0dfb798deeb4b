package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
import io.heliograph.testbed.ControllerCluster;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.ControllerRoles;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.Testbed;
import io.heliograph.testbed.ZooKeeperEnsemble;
import io.heliograph.testbed.ZooKeeperServerProcess;

/**
 * Issue 6, item 5: nothing lost. Three controller JVMs on a three-server ZooKeeper ensemble and a line
 * of three Open vSwitch bridges connected to all three instances.
 *
 * <ul>
 *   <li>Static flows and a group, and a setting of the forwarding app, written through c1's REST API
 *       are read on c2 and c3 right after each write returns (no waiting), are on the switches (their
 *       masters installed them), and the setting is in force on every instance (forwarding's flows
 *       carry the idle timeout it sets).</li>
 *   <li>Every instance and every ZooKeeper server stopped, and the switches' flow and group tables
 *       emptied meanwhile; everything started again: every instance lists the entries and the setting,
 *       and the new masters have put the entries back on the switches.</li>
 * </ul>
 */
@Isolated // three controller JVMs, a ZooKeeper ensemble and their restarts
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterPersistenceIT {

    private static final int INSTANCES = 3;
    private static final int LINE = 3;
    private static final Duration SETTLE = Duration.ofSeconds(90);
    private static final String FORWARDING = "io.heliograph.forwarding";
    /** Not the forwarding app's default (5 s), nor what its cfg file sets. */
    private static final int IDLE_TIMEOUT = 17;
    /** The priority of the static flows, different from every app's. */
    private static final int STATIC_PRIORITY = 4321;
    private static final int GROUP_ID = 7;

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ZooKeeperEnsemble zookeeper;
    private static ControllerCluster cluster;
    private static Testbed testbed;
    private static Testbed.LinearTopology line;

    @BeforeAll
    static void start() {
        Testbed.requireRoot();
        artifacts = ArtifactDirectory.forTest("ClusterPersistenceIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        zookeeper = ZooKeeperEnsemble.start(distribution, artifacts, 3);
        zookeeper.awaitQuorum(SETTLE);
        cluster = ControllerCluster.start(distribution, artifacts, zookeeper.connectString(), INSTANCES);
        testbed = Testbed.start("ClusterPersistenceIT");
        line = testbed.linear(LINE, List.of("OpenFlow13"), cluster.targets(testbed));
        ControllerCluster.reconnectQuickly(testbed.ovs(), line.switches());
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("ClusterPersistenceIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controllers", cluster);
        cleanup.close("ZooKeeper ensemble", zookeeper);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    @Order(1)
    void whatOneInstanceWritesTheOthersReadAtOnceAndTheSwitchesGet() {
        awaitOneMasterEach("the line connected to all three instances");
        ControllerProcess c1 = cluster.get(0);

        for (Bridge b : line.switches()) {
            Map<String, Object> flow = staticFlow(b);
            Response added = c1.rest().post("/api/v1/staticflows/flows", flow);
            assertEquals(201, added.status(), added.toString());
            for (int i = 1; i < INSTANCES; i++) {
                Response read = cluster.get(i).rest().get("/api/v1/staticflows/flows/" + b.dpid() + "/" + flow.get("name"));
                assertEquals(200, read.status(), ControllerCluster.id(i) + " right after c1's add returned: " + read);
                assertEquals(STATIC_PRIORITY, read.json().at("/entry/priority").asInt(), read.toString());
            }
        }
        Bridge first = line.switches().get(0);
        Response group = c1.rest().post("/api/v1/staticflows/groups", staticGroup(first));
        assertEquals(201, group.status(), group.toString());
        for (int i = 1; i < INSTANCES; i++) {
            Response read = cluster.get(i).rest().get("/api/v1/staticflows/groups/" + first.dpid() + "/persist-group");
            assertEquals(200, read.status(), ControllerCluster.id(i) + " right after c1's add returned: " + read);
        }

        Response set = c1.rest().put("/api/v1/config/" + FORWARDING, Map.of("idleTimeout", Integer.toString(IDLE_TIMEOUT)));
        assertEquals(200, set.status(), set.toString());
        for (int i = 1; i < INSTANCES; i++) {
            assertEquals(Integer.toString(IDLE_TIMEOUT), sharedIdleTimeout(cluster.get(i)),
                    ControllerCluster.id(i) + " right after c1's write returned");
        }

        awaitOnTheSwitches("written through c1");
        awaitForwardingWithTheSharedIdleTimeout("after the write");
    }

    @Test
    @Order(2)
    void afterEveryInstanceAndZooKeeperServerStoppedAndStartedEverythingIsBack() {
        for (int i = 0; i < INSTANCES; i++) {
            assertEquals(143, cluster.get(i).terminate(Duration.ofSeconds(60)), ControllerCluster.id(i) + " exits on SIGTERM (128 + 15)");
        }
        for (ZooKeeperServerProcess server : zookeeper.servers()) {
            assertEquals(143, server.stop(Duration.ofSeconds(30)), "ZooKeeper server " + server.clientPort() + " stops on SIGTERM");
        }
        // What comes back on the switches must come from the cluster's store: nothing is left on them.
        for (Bridge b : line.switches()) {
            b.ofctl("del-flows");
            b.ofctl("del-groups");
            assertEquals(List.of(), b.dumpFlows(), b.name() + " emptied");
        }

        zookeeper.servers().forEach(ZooKeeperServerProcess::restart);
        zookeeper.awaitQuorum(SETTLE);
        for (int i = 0; i < INSTANCES; i++) {
            cluster.restart(i);
        }
        awaitOneMasterEach("the line after the restart");

        for (int i = 0; i < INSTANCES; i++) {
            ControllerProcess c = cluster.get(i);
            JsonNode flows = ok(c.rest().get("/api/v1/staticflows/flows"));
            List<String> names = new ArrayList<>();
            flows.forEach(e -> names.add(e.get("name").asText()));
            assertEquals(line.switches().stream().map(ClusterPersistenceIT::flowName).sorted().toList(),
                    names.stream().sorted().toList(), ControllerCluster.id(i) + " after the restart: " + flows);
            assertEquals(200, c.rest().get("/api/v1/staticflows/groups/" + line.switches().get(0).dpid() + "/persist-group")
                    .status(), ControllerCluster.id(i) + " lists the group after the restart");
            assertEquals(Integer.toString(IDLE_TIMEOUT), sharedIdleTimeout(c), ControllerCluster.id(i) + " after the restart");
        }
        awaitOnTheSwitches("after the restart");
        awaitForwardingWithTheSharedIdleTimeout("after the restart");
    }

    private static Map<String, Object> staticFlow(Bridge b) {
        Map<String, Object> flow = new LinkedHashMap<>();
        flow.put("switch", b.dpid());
        flow.put("name", flowName(b));
        flow.put("priority", STATIC_PRIORITY);
        flow.put("eth_type", "0x0800");
        flow.put("ip_proto", "6");
        flow.put("tcp_dst", "8080");
        flow.put("actions", "output=1");
        return flow;
    }

    private static String flowName(Bridge b) {
        return "persist-" + b.name();
    }

    private static Map<String, Object> staticGroup(Bridge b) {
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("switch", b.dpid());
        group.put("name", "persist-group");
        group.put("group_id", GROUP_ID);
        group.put("group_type", "all");
        group.put("group_buckets", List.of(Map.of("bucket_actions", "output=1")));
        return group;
    }

    /** The forwarding idle timeout the cluster shares, as an instance reads it (null when none is shared). */
    private static String sharedIdleTimeout(ControllerProcess c) {
        JsonNode config = ok(c.rest().get("/api/v1/config/" + FORWARDING));
        JsonNode value = config.at("/settings/idleTimeout");
        return value.isMissingNode() || value.isNull() ? null : value.asText();
    }

    private static void awaitOnTheSwitches(String when) {
        for (Bridge b : line.switches()) {
            Poll.until("the static flow on " + b.name() + " " + when, SETTLE, b::dumpFlows,
                    flows -> flows.stream().anyMatch(f -> f.priority() == STATIC_PRIORITY && f.match().contains("tp_dst=8080")));
        }
        Bridge first = line.switches().get(0);
        Poll.until("group " + GROUP_ID + " on " + first.name() + " " + when, SETTLE, () -> first.ofctl("dump-groups"),
                groups -> groups.contains("group_id=" + GROUP_ID + ",type=all"));
    }

    /**
     * Pings along the line until forwarding has installed flows for it on every switch, and checks
     * that each carries the idle timeout the cluster shares: whichever instance masters a switch
     * applies the shared setting.
     */
    private static void awaitForwardingWithTheSharedIdleTimeout(String when) {
        line.first().awaitReachable(line.last(), SETTLE);
        for (Bridge b : line.switches()) {
            List<FlowEntry> reactive = Poll.until("forwarding flows on " + b.name() + " " + when, SETTLE, () -> {
                line.first().ping(line.last(), 1);
                return b.dumpFlows().stream().filter(FlowEntry::isReactive).toList();
            }, flows -> !flows.isEmpty());
            for (FlowEntry f : reactive) {
                assertEquals(IDLE_TIMEOUT, f.idleTimeout().orElse(-1), b.name() + " " + when + ": " + f.line());
            }
        }
    }

    private static void awaitOneMasterEach(String what) {
        Poll.until(what + ": one master and two slaves per switch", SETTLE, () -> ControllerRoles.read(testbed.ovs()),
                r -> r.roles().size() == LINE && r.oneMasterEach(INSTANCES));
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }
}
