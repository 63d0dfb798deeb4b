package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerCluster;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.ZooKeeperServerProcess;

/**
 * Issue 22, "what must be shown" 6 (cluster): an optimisation runs on one instance of a 3-instance
 * cluster (the optimiser singleton) whichever instance it was asked of, and when that instance is
 * killed with SIGKILL mid-run another takes it over, runs it again from the start and completes it.
 * The optimisation is the Model (the solver bundle's CP-SAT) within a time limit, on an experiment of
 * 24 VMs on 32 PMs in a three-tier tree: long enough to be killed in, whose result every instance serves.
 * Its EDF (with a route for each of its 96 flows) and its input are split across store values.
 */
@Timeout(180)
class VirtueClusterIT {

    private static final int INSTANCES = 3;
    private static final int TIME_LIMIT_SECONDS = 12;
    private static final Duration APP = Duration.ofSeconds(60);

    private static ControllerDistribution distribution;
    private static ZooKeeperServerProcess zookeeper;
    private static ControllerCluster cluster;

    @BeforeAll
    static void start() {
        Path artifacts = ArtifactDirectory.forTest("VirtueClusterIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        zookeeper = ZooKeeperServerProcess.standalone(distribution, artifacts.resolve("zookeeper.log"));
        zookeeper.awaitServing(Duration.ofSeconds(60));
        cluster = ControllerCluster.start(distribution, artifacts, zookeeper.connectString(), INSTANCES);
        for (ControllerProcess instance : cluster.all()) {
            Poll.until("the Virtue API on " + instance.httpPort(), APP,
                    () -> instance.rest().get("/api/v1/virtue/experiments").status(), status -> status == 200);
        }
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("VirtueClusterIT");
        cleanup.close("cluster", cluster);
        cleanup.close("ZooKeeper", zookeeper);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void anOptimisationWhoseInstanceIsKilledIsRunAgainByAnotherAndCompletes() {
        RestClient first = cluster.get(0).rest();
        Tree tree = new Tree(4, 8, 24, 7);
        Response created = first.post("/api/v1/virtue/experiments?name=clustered", tree.edf());
        assertEquals(201, created.status(), created.toString());
        // every instance serves it at once: it is in the shared store
        for (ControllerProcess instance : cluster.all()) {
            assertEquals(200, instance.rest().get("/api/v1/virtue/experiments/clustered").status());
        }
        Response queued = cluster.get(1).rest().post("/api/v1/virtue/experiments/clustered/optimisations",
                Map.of("algorithm", "model", "seed", 3, "timeLimitSeconds", TIME_LIMIT_SECONDS,
                        "measurements", tree.measurements()));
        assertEquals(202, queued.status(), queued.toString());
        String id = queued.json().get("id").asText();
        String path = "/api/v1/virtue/experiments/clustered/optimisations/" + id;

        JsonNode running = Poll.until("the optimisation to run somewhere", APP, () -> ok(first.get(path)),
                o -> o.get("state").asText().equals("RUNNING"));
        String runner = running.get("instance").asText();
        int index = indexOf(runner);
        assertEquals(1, running.get("attempt").asInt());
        cluster.get(index).kill();
        System.out.printf("VirtueClusterIT: killed %s (SIGKILL) while it ran optimisation %s%n", runner, id);

        ControllerProcess survivor = cluster.get(index == 0 ? 1 : 0);
        JsonNode done = Poll.until("another instance to run it to its end", Duration.ofSeconds(90),
                () -> ok(survivor.rest().get(path)), o -> o.get("state").asText().equals("DONE")
                        || o.get("state").asText().equals("FAILED"));
        assertEquals("DONE", done.get("state").asText(), done.toString());
        assertNotEquals(runner, done.get("instance").asText(), "run again by another instance");
        assertTrue(done.get("attempt").asInt() >= 2, done.toString());
        JsonNode result = done.get("result");
        assertTrue(result.get("feasible").asBoolean(), result.toString());
        assertTrue(result.get("minimaxAfter").asDouble() <= result.get("minimaxBefore").asDouble(), result.toString());
        System.out.printf("VirtueClusterIT: %s completed it (attempt %d): maximum utilisation %.3f -> %.3f, bound %s%n",
                done.get("instance").asText(), done.get("attempt").asInt(), result.get("minimaxBefore").asDouble(),
                result.get("minimaxAfter").asDouble(), result.get("bound"));
        // its optimised EDF, from the store, on every instance still up
        for (int i = 0; i < INSTANCES; i++) {
            if (i != index) {
                JsonNode edf = ok(cluster.get(i).rest().get(path + "/edf"));
                assertEquals(tree.vms, countVms(edf), "every VM is placed in the optimised EDF");
            }
        }
    }

    private static int indexOf(String instance) {
        for (int i = 0; i < INSTANCES; i++) {
            if (ControllerCluster.id(i).equals(instance)) {
                return i;
            }
        }
        throw new AssertionError("no instance " + instance);
    }

    private static int countVms(JsonNode edf) {
        int vms = 0;
        for (JsonNode pm : edf.get("pms")) {
            vms += pm.get("vms").size();
        }
        return vms;
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }

    /**
     * A three-tier tree: a core switch, {@code racks} ToRs of {@code pmsPerRack} PMs (each PM its own
     * software switch), 100 Mb/s edges and 4:1 ToR uplinks; {@code vms} VMs placed at random, at most four
     * a PM, each talking to four others both ways at random rates; a route for every flow.
     */
    private static final class Tree {
        final int vms;
        private final Map<String, Object> edf = new LinkedHashMap<>();
        private final List<Object> traffic = new ArrayList<>();

        Tree(int racks, int pmsPerRack, int vms, long seed) {
            this.vms = vms;
            Random random = new Random(seed);
            int pms = racks * pmsPerRack;
            List<Object> switches = new ArrayList<>();
            List<Object> links = new ArrayList<>();
            String core = dpid(1);
            switches.add(Map.of("id", core, "parameters", Map.of(), "software", false));
            String[] pmSwitch = new String[pms];
            String[] tor = new String[racks];
            for (int r = 0; r < racks; r++) {
                tor[r] = dpid(100 + r);
                switches.add(Map.of("id", tor[r], "parameters", Map.of(), "software", false));
                both(links, tor[r], 100, core, r + 1, pmsPerRack * 100_000_000L / 4);
                for (int p = 0; p < pmsPerRack; p++) {
                    int pm = r * pmsPerRack + p;
                    pmSwitch[pm] = dpid(1000 + pm);
                    switches.add(Map.of("id", pmSwitch[pm], "parameters", Map.of(), "software", true));
                    both(links, pmSwitch[pm], 100, tor[r], p + 1, 100_000_000L);
                }
            }
            int[] pmOf = new int[vms];
            int[] used = new int[pms];
            List<Map<String, Object>> vmsOn = new ArrayList<>();
            for (int p = 0; p < pms; p++) {
                vmsOn.add(new LinkedHashMap<>());
            }
            for (int v = 0; v < vms; v++) {
                int pm;
                do {
                    pm = random.nextInt(pms);
                } while (used[pm] == 4);
                used[pm]++;
                pmOf[v] = pm;
                String vm = vm(v);
                vmsOn.get(pm).put(vm, Map.of("id", vm, "parameters", Map.of("MAC",
                        String.format("02:00:00:00:%02x:%02x", v / 256, v % 256))));
                links.add(link(vm, 0, pmSwitch[pm], v + 1, null));
                links.add(link(pmSwitch[pm], v + 1, vm, 0, null));
            }
            List<Object> pmList = new ArrayList<>();
            for (int p = 0; p < pms; p++) {
                pmList.add(Map.of("id", String.format("pm%02d", p), "parameters", Map.of(), "vms", vmsOn.get(p)));
            }
            List<Object> routes = new ArrayList<>();
            for (int v = 0; v < vms; v++) {
                for (int k = 1; k <= 2; k++) {
                    int w = (v + k * 5) % vms;
                    for (int[] pair : List.of(new int[] {v, w}, new int[] {w, v})) {
                        routes.add(Map.of("sourceId", vm(pair[0]), "destinationId", vm(pair[1]), "linkIds",
                                route(pair[0], pair[1], pmOf, pmSwitch, tor, pmsPerRack, core)));
                        traffic.add(Map.of("source", vm(pair[0]), "destination", vm(pair[1]), "bitsPerSecond",
                                1e6 + random.nextInt(30_000_000)));
                    }
                }
            }
            edf.put("parameters", Map.of("CPU_COUNT", "2", "CPU_SPEED", "2.8E9", "LINK_SPEED", "100000000",
                    "INTRA_PM_LINK_SPEED", "200000000"));
            edf.put("pms", pmList);
            edf.put("switches", switches);
            edf.put("links", links);
            edf.put("routes", routes);
        }

        Map<String, Object> edf() {
            return edf;
        }

        Map<String, Object> measurements() {
            return Map.of("traffic", traffic);
        }

        private static List<String> route(int a, int b, int[] pmOf, String[] pmSwitch, String[] tor, int pmsPerRack,
                                          String core) {
            List<String> ids = new ArrayList<>();
            int pa = pmOf[a];
            int pb = pmOf[b];
            ids.add(VirtueNetwork.id(vm(a), 0, pmSwitch[pa], a + 1));
            if (pa != pb) {
                int ra = pa / pmsPerRack;
                int rb = pb / pmsPerRack;
                ids.add(VirtueNetwork.id(pmSwitch[pa], 100, tor[ra], pa % pmsPerRack + 1));
                if (ra != rb) {
                    ids.add(VirtueNetwork.id(tor[ra], 100, core, ra + 1));
                    ids.add(VirtueNetwork.id(core, rb + 1, tor[rb], 100));
                }
                ids.add(VirtueNetwork.id(tor[rb], pb % pmsPerRack + 1, pmSwitch[pb], 100));
            }
            ids.add(VirtueNetwork.id(pmSwitch[pb], b + 1, vm(b), 0));
            return ids;
        }

        private static String vm(int v) {
            return String.format("vm%04d", v + 1);
        }

        private static String dpid(int n) {
            String hex = String.format("%016x", n);
            return String.join(":", hex.split("(?<=\\G..)"));
        }

        private static void both(List<Object> links, String a, int aPort, String b, int bPort, long speed) {
            links.add(link(a, aPort, b, bPort, speed));
            links.add(link(b, bPort, a, aPort, speed));
        }

        private static Map<String, Object> link(String source, int sourcePort, String destination, int destinationPort,
                                                Long speed) {
            Map<String, Object> link = new LinkedHashMap<>();
            link.put("destinationId", destination);
            link.put("destinationPort", destinationPort);
            link.put("id", VirtueNetwork.id(source, sourcePort, destination, destinationPort));
            link.put("parameters", speed == null ? Map.of() : Map.of("LINK_SPEED", Long.toString(speed)));
            link.put("sourceId", source);
            link.put("sourcePort", sourcePort);
            return link;
        }
    }
}
