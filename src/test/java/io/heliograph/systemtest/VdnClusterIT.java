package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerCluster;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.ZooKeeperServerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Issue 24, "what must be shown" 5 (faults): in a cluster of three, the central optimiser runs on one
 * instance (the singleton), whichever instance the operator and the agents spoke to, and every instance
 * serves its RIBs; killed with SIGKILL, that instance is replaced by another at once (the survivors see its
 * liveness connection close and end its ZooKeeper session on the spot, without waiting for the 5 s
 * timeout), which decides on from the next version while the survivors serve the last RIBs meanwhile.
 * The topology: 2 sources, 3 reflectors, 6 edges with 2 client groups each; 12 requests.
 */
@Timeout(180)
class VdnClusterIT {

    private static final int INSTANCES = 3;
    private static final Duration APP = Duration.ofSeconds(60);
    private static final Duration TAKE_OVER = Duration.ofSeconds(30);
    private static final String BASE = "/api/v1/vdn";

    private static ControllerDistribution distribution;
    private static ZooKeeperServerProcess zookeeper;
    private static ControllerCluster cluster;

    @BeforeAll
    static void start() {
        Path artifacts = ArtifactDirectory.forTest("VdnClusterIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        distribution.configure("io.heliograph.vdn", Map.of("periodSeconds", "1", "timeLimitSeconds", "1"));
        zookeeper = ZooKeeperServerProcess.standalone(distribution, artifacts.resolve("zookeeper.log"));
        zookeeper.awaitServing(Duration.ofSeconds(60));
        cluster = ControllerCluster.start(distribution, artifacts, zookeeper.connectString(), INSTANCES);
        for (ControllerProcess instance : cluster.all()) {
            instance.awaitApi(BASE + "/decision", APP);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("VdnClusterIT");
        cleanup.close("cluster", cluster);
        cleanup.close("ZooKeeper", zookeeper);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void theOptimiserRunsOnOneInstanceAndAnotherTakesOverWhenItIsKilled() {
        RestClient operator = cluster.get(0).rest();
        assertEquals(200, operator.put(BASE + "/topology", topology()).status());
        JsonNode keys = Poll.until("the agent keys on instance 2", APP, () -> cluster.get(2).rest().get(BASE + "/agents"),
                r -> r.status() == 200 && r.json().size() == 11).json();
        for (int e = 1; e <= 6; e++) {
            List<Object> viewers = List.of(
                    Map.of("group", "G" + e + "a", "video", "v" + e, "bitrateKbps", 1000, "clients", 10 * e),
                    Map.of("group", "G" + e + "b", "video", "v" + (e % 3), "bitrateKbps", 4500, "clients", e));
            Response reported = cluster.get(2).rest().withHeader("X-Vdn-Agent-Key", keys.get("E" + e).asText())
                    .post(BASE + "/clusters/E" + e + "/report", Map.of("cluster", "E" + e, "viewers", viewers));
            assertEquals(200, reported.status(), reported.toString());
        }

        JsonNode first = Poll.until("a decision serving all 12 requests", APP, () -> decision(1),
                d -> d != null && d.path("requestsServed").asLong() == 12);
        int decider = decider(cluster, APP);
        long version = first.get("version").asLong();
        // another instance serves the decision's RIBs once its store watch has them
        JsonNode rib = Poll.until("E1's RIB of version " + version + " on another instance", APP,
                () -> cluster.get((decider + 1) % INSTANCES).rest().get(BASE + "/clusters/E1/rib"),
                r -> r.status() == 200 && r.json().get("version").asLong() >= version).json();
        assertEquals(2, rib.get("decisions").size(), "E1 receives v1 at 1000 and at 4500: " + rib);
        JsonNode evidence = rib.at("/decisions/0/evidence");
        assertEquals("v1/1000", rib.at("/decisions/0/key").asText(), rib.toString());
        assertEquals(10, evidence.path("viewers:v1/1000").asInt(), rib.toString());
        assertFalse(evidence.has("viewers:v1/4500"), "only its own object's viewers: " + rib);
        System.out.printf("VdnClusterIT: %s decides (version %d, %s ms, gap per million %s)%n",
                ControllerCluster.id(decider), version, first.get("millis"), first.get("gapPerMillion"));

        cluster.get(decider).kill();
        long killed = System.nanoTime();
        List<Integer> survivors = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            if (i != decider) {
                survivors.add(i);
            }
        }
        // the survivors serve the last RIBs meanwhile
        long last = version;
        for (int i : survivors) {
            assertEquals(200, cluster.get(i).rest().get(BASE + "/clusters/E3/rib").status());
            last = Math.max(last, decision(i).get("version").asLong());
        }
        int successor = decider(cluster, TAKE_OVER);
        assertTrue(survivors.contains(successor), "a survivor decides: " + ControllerCluster.id(successor));
        long before = last;
        JsonNode next = Poll.until("the successor's first decision", TAKE_OVER, () -> decision(successor),
                d -> d != null && d.get("version").asLong() > before);
        System.out.printf("VdnClusterIT: %s decides after the SIGKILL; its first decision (version %d, after %d) "
                + "%.1f s after it%n", ControllerCluster.id(successor), next.get("version").asLong(), before,
                (System.nanoTime() - killed) / 1e9);
        assertEquals(12, next.get("requestsServed").asLong(), next.toString());
        // the other survivor serves the successor's RIB once its store watch has it
        JsonNode after = Poll.until("E1's RIB of the successor on the other survivor", TAKE_OVER,
                () -> ok(cluster.get(survivors.get(1)).rest().get(BASE + "/clusters/E1/rib")),
                r -> r.get("version").asLong() > version);
        assertEquals(rib.at("/decisions/0/value"), after.at("/decisions/0/value"), "the same network, the same tree");
    }

    /** The instance of {@code cluster} whose decision summary says it runs the optimiser (among those running). */
    static int decider(ControllerCluster cluster, Duration timeout) {
        return Poll.until("one instance to say it decides", timeout, () -> {
            for (int i = 0; i < cluster.size(); i++) {
                if (cluster.get(i).isAlive()) {
                    Response d = cluster.get(i).rest().get(BASE + "/decision");
                    if (d.status() == 200 && d.json().path("decidingHere").asBoolean()) {
                        return i;
                    }
                }
            }
            return -1;
        }, i -> i >= 0);
    }

    private static JsonNode decision(int instance) {
        Response response = cluster.get(instance).rest().get(BASE + "/decision");
        return response.status() == 200 ? response.json() : null;
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }

    /** 2 sources, 3 reflectors fed by both, 6 edges fed by 2 reflectors each, 2 client groups an edge. */
    private static Map<String, Object> topology() {
        List<Object> nodes = new ArrayList<>();
        List<Object> links = new ArrayList<>();
        for (int s = 1; s <= 2; s++) {
            nodes.add(Map.of("id", "S" + s, "tier", "source", "x", s * 10, "y", 0));
        }
        for (int r = 1; r <= 3; r++) {
            nodes.add(Map.of("id", "R" + r, "tier", "reflector", "x", r * 10, "y", 10));
            for (int s = 1; s <= 2; s++) {
                links.add(link("S" + s, "R" + r, 100_000, 10 + 10 * s + r));
            }
        }
        for (int e = 1; e <= 6; e++) {
            nodes.add(Map.of("id", "E" + e, "tier", "edge", "x", e * 5, "y", 20));
            links.add(link("R" + (1 + (e - 1) % 3), "E" + e, 50_000, 10));
            links.add(link("R" + (1 + e % 3), "E" + e, 50_000, 20));
            for (String g : List.of("a", "b")) {
                nodes.add(Map.of("id", "G" + e + g, "tier", "client-group", "x", e * 5, "y", 30));
                links.add(link("E" + e, "G" + e + g, 150_000, 0));
            }
        }
        return Map.of("nodes", nodes, "links", links);
    }

    private static Map<String, Object> link(String from, String to, long capacityKbps, long cost) {
        Map<String, Object> link = new LinkedHashMap<>();
        link.put("from", from);
        link.put("to", to);
        link.put("capacityKbps", capacityKbps);
        link.put("cost", cost);
        return link;
    }
}
