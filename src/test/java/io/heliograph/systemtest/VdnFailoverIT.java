package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.ControllerCluster;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Signals;
import io.heliograph.testbed.ZooKeeperServerProcess;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 24, "what must be shown" 5, end to end: real agents ({@code tools/heliograph-vdn-agent.jar}) of
 * five clusters (a source, two reflectors, two edges, on loopback) follow a cluster of two controller
 * instances, each agent given both instances with the one that runs the optimiser first; clients play
 * four channels. The instance running the optimiser is killed with SIGKILL while they play. The other
 * takes the optimiser over; meanwhile the agents serve on their FIBs, the controller's entries, without
 * a single local decision, and move to the other instance at their next failed call; they install its
 * first decision; every client plays to the end with nothing denied.
 */
@Timeout(300)
class VdnFailoverIT {

    private static final String BASE = "/api/v1/vdn";
    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration TAKE_OVER = Duration.ofSeconds(30);
    private static final List<Integer> BITRATES = List.of(140, 60, 20);
    private static final int CHANNELS = 4;
    private static final int CHUNKS = 12;
    private static final int CHUNK_SECONDS = 2;
    private static final long LINK_KBPS = 7500;
    private static final List<String> CLUSTERS = List.of("S1", "R1", "R2", "E1", "E2");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theAgentsServeOnTheirFibsWhileTheOptimisersInstanceIsKilledAndFollowTheOneThatTakesOver() throws Exception {
        Path artifacts = ArtifactDirectory.forTest("VdnFailoverIT");
        Path work = Files.createTempDirectory("vdn-failover-");
        Cleanup cleanup = new Cleanup("VdnFailoverIT");
        ControllerDistribution distribution = null;
        ZooKeeperServerProcess zookeeper = null;
        ControllerCluster cluster = null;
        List<Process> processes = new CopyOnWriteArrayList<>();
        Thread hook = new Thread(() -> processes.forEach(Process::destroyForcibly), "vdn-failover-agents");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
            distribution.configure("io.heliograph.vdn", Map.of("periodSeconds", "2", "timeLimitSeconds", "1"));
            zookeeper = ZooKeeperServerProcess.standalone(distribution, artifacts.resolve("zookeeper.log"));
            zookeeper.awaitServing(START);
            cluster = ControllerCluster.start(distribution, artifacts, zookeeper.connectString(), 2);
            oneAdministrator(cluster);
            for (ControllerProcess instance : cluster.all()) {
                instance.awaitApi(BASE + "/decision", START);
            }
            RestClient operator = cluster.get(0).rest();
            assertEquals(200, operator.put(BASE + "/topology", topology()).status());
            JsonNode keys = Poll.until("a key per cluster", START, () -> operator.get(BASE + "/agents"),
                    r -> r.status() == 200 && r.json().size() == CLUSTERS.size()).json();
            ControllerCluster running = cluster;
            int decider = VdnClusterIT.decider(running, START);
            int other = 1 - decider;
            List<String> controllers = List.of(url(cluster.get(decider)), url(cluster.get(other)));
            ControllerProcess.Credentials admin = cluster.get(0).credentials(START);

            VdnAgentJar jar = new VdnAgentJar(distribution.home().resolve("tools/heliograph-vdn-agent.jar"));
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (String id : CLUSTERS) {
                ports.put(id, ControllerProcess.freePort());
            }
            for (String id : CLUSTERS) {
                Path config = work.resolve(id + ".json");
                Files.write(config, JSON.writeValueAsBytes(agentConfig(id, ports, controllers, admin, keys.get(id).asText())));
                processes.add(jar.start(List.of(), config, artifacts.resolve(id + ".log")));
            }
            for (String id : CLUSTERS) {
                Poll.until(id + "'s agent serving, its parents heard", START, () -> status(ports, id),
                        VdnAgentJar::allParentsHeard);
            }
            for (String edge : List.of("E1", "E2")) {
                long seen = status(ports, edge).at("/counters/advertisementsReceived").asLong();
                Poll.until(edge + " advertised to after the reflectors heard the source", START, () -> status(ports, edge),
                        s -> s.at("/counters/advertisementsReceived").asLong() >= seen + 2);
            }

            Path plan = work.resolve("plan.json");
            Files.write(plan, JSON.writeValueAsBytes(plan(ports)));
            Path clientLog = artifacts.resolve("client.log");
            Process client = jar.client(plan, CHUNKS, CHUNK_SECONDS, BITRATES, clientLog);
            processes.add(client);

            // every channel in a decision of the optimiser's instance, and in both edges' FIBs
            JsonNode decided = Poll.until("a decision serving all " + CHANNELS + " channels", START,
                    () -> running.get(decider).rest().get(BASE + "/decision"),
                    r -> r.status() == 200 && r.json().path("requestsServed").asLong() >= CHANNELS).json();
            long version = decided.get("version").asLong();
            for (String edge : List.of("E1", "E2")) {
                Poll.until(edge + " serving on RIB " + version + " or later", START, () -> status(ports, edge),
                        s -> s.path("ribVersion").asLong(-1) >= version && "CENTRAL".equals(s.path("fibMode").asText()));
            }
            Map<String, Long> localBefore = counters(ports, "localDecisions");
            Map<String, Long> requestsBefore = counters(ports, "liveRequests");

            cluster.get(decider).kill();
            long killed = System.nanoTime();
            int successor = VdnClusterIT.decider(running, TAKE_OVER);
            assertEquals(other, successor, "the survivor runs the optimiser");
            double tookOver = (System.nanoTime() - killed) / 1e9;
            long last = version;
            for (String id : List.of("R1", "R2", "E1", "E2")) {
                last = Math.max(last, status(ports, id).path("ribVersion").asLong(-1));
            }
            long before = last;
            for (String id : List.of("R1", "R2", "E1", "E2")) {
                Poll.until(id + " following " + controllers.get(1) + " and its decision after " + before, TAKE_OVER,
                        () -> status(ports, id), s -> controllers.get(1).equals(s.path("controller").asText())
                                && s.path("ribVersion").asLong(-1) > before);
            }
            double followed = (System.nanoTime() - killed) / 1e9;
            Map<String, Long> localAfter = counters(ports, "localDecisions");
            Map<String, Long> requestsAfter = counters(ports, "liveRequests");

            List<JsonNode> played = VdnAgentJar.played(client, clientLog,
                    Duration.ofSeconds(CHANNELS + 3L * CHUNKS * CHUNK_SECONDS + 60));
            JsonNode summary = played.get(played.size() - 1).get("summary");
            String figures = String.format(Locale.ROOT, "VdnFailoverIT: %s ran the optimiser (decision %d); SIGKILLed, "
                    + "%s took over after %.1f s; every agent followed it and installed its decision after %d within "
                    + "%.1f s of the kill; the edges served %d requests meanwhile with %d local decisions; clients: %s",
                    ControllerCluster.id(decider), version, ControllerCluster.id(other), tookOver, before, followed,
                    sum(requestsAfter) - sum(requestsBefore), sum(localAfter) - sum(localBefore), summary);
            System.out.println(figures);
            Files.writeString(artifacts.resolve("results.txt"), figures + "\n");

            assertTrue(sum(requestsAfter) > sum(requestsBefore), "the edges served while the optimiser moved: " + figures);
            assertEquals(localBefore, localAfter, "served on the controller's FIB entries meanwhile, none decided locally");
            assertEquals(CHANNELS, summary.get("sessions").asInt(), summary.toString());
            assertEquals(CHANNELS, summary.get("complete").asInt(), "every channel played to its end: " + summary);
            assertEquals(0, summary.get("denied").asLong(), summary.toString());
            for (String id : List.of("R1", "R2", "E1", "E2")) {
                JsonNode status = status(ports, id);
                assertEquals("CENTRAL", status.path("fibMode").asText(), id + " never fell back to distributed: " + status);
                assertTrue(status.path("controllerMoves").asLong() >= 1, id + " moved to the survivor: " + status);
            }
        } finally {
            for (Process process : processes) {
                cleanup.run("process " + process.pid(), () -> Signals.terminate(process, Duration.ofSeconds(5)));
            }
            cleanup.close("cluster", cluster);
            cleanup.close("ZooKeeper", zookeeper);
            cleanup.close("distribution copy", distribution);
            cleanup.run("delete " + work, () -> Command.of("rm", "-rf", work.toString()).check());
            cleanup.run("remove the shutdown hook", () -> Runtime.getRuntime().removeShutdownHook(hook));
            cleanup.finish();
        }
    }

    /**
     * Gives instance 1 instance 0's administrator, as an operator sets up a cluster that agents reach
     * with one set of credentials: its password hash and initial credentials copied over, then restarted.
     */
    private static void oneAdministrator(ControllerCluster cluster) throws Exception {
        cluster.get(0).credentials(START);
        ControllerProcess second = cluster.get(1);
        second.credentials(START);
        second.terminate(Duration.ofSeconds(30));
        for (String file : List.of("webui/admin-password", "initial-credentials")) {
            Files.copy(cluster.get(0).dataDir().resolve(file), second.dataDir().resolve(file),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        cluster.restart(1);
    }

    private static String url(ControllerProcess instance) {
        return "http://127.0.0.1:" + instance.httpPort();
    }

    private static JsonNode status(Map<String, Integer> ports, String id) {
        return VdnAgentJar.status(URI.create("http://127.0.0.1:" + ports.get(id)));
    }

    private static Map<String, Long> counters(Map<String, Integer> ports, String counter) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String edge : List.of("E1", "E2")) {
            values.put(edge, status(ports, edge).at("/counters/" + counter).asLong());
        }
        return values;
    }

    private static long sum(Map<String, Long> values) {
        return values.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String tier(String id) {
        return switch (id.charAt(0)) {
            case 'S' -> "source";
            case 'R' -> "reflector";
            default -> "edge";
        };
    }

    /** The source feeds both reflectors; each reflector both edges. */
    private static List<String[]> links() {
        return List.of(new String[] {"S1", "R1"}, new String[] {"S1", "R2"}, new String[] {"R1", "E1"},
                new String[] {"R1", "E2"}, new String[] {"R2", "E1"}, new String[] {"R2", "E2"});
    }

    private static Map<String, Object> topology() {
        List<Object> nodes = new ArrayList<>();
        List<Object> links = new ArrayList<>();
        for (String id : CLUSTERS) {
            nodes.add(Map.of("id", id, "tier", tier(id)));
        }
        for (String[] link : links()) {
            links.add(Map.of("from", link[0], "to", link[1], "capacityKbps", LINK_KBPS, "cost", 10));
        }
        for (String edge : List.of("E1", "E2")) {
            nodes.add(Map.of("id", "G" + edge.substring(1), "tier", "client-group"));
            links.add(Map.of("from", edge, "to", "G" + edge.substring(1), "capacityKbps", 1_000_000, "cost", 0));
        }
        return Map.of("nodes", nodes, "links", links);
    }

    private static Map<String, Object> agentConfig(String id, Map<String, Integer> ports, List<String> controllers,
            ControllerProcess.Credentials admin, String key) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("cluster", id);
        config.put("tier", tier(id));
        config.put("listen", "127.0.0.1:" + ports.get(id));
        config.put("chunkSeconds", CHUNK_SECONDS);
        config.put("seed", 24 + id.hashCode());
        List<Object> parents = new ArrayList<>();
        List<Object> children = new ArrayList<>();
        for (String[] link : links()) {
            if (link[1].equals(id)) {
                parents.add(Map.of("id", link[0], "url", "http://127.0.0.1:" + ports.get(link[0]), "capacityKbps", LINK_KBPS));
            } else if (link[0].equals(id)) {
                children.add(Map.of("id", link[1], "url", "http://127.0.0.1:" + ports.get(link[1])));
            }
        }
        config.put("parents", parents);
        config.put("children", children);
        if (id.startsWith("S")) {
            List<String> videos = new ArrayList<>();
            for (int v = 0; v < CHANNELS; v++) {
                videos.add("f" + v);
            }
            config.put("videos", videos);
            config.put("bitrates", BITRATES);
            return config;
        }
        config.put("mode", "hybrid");
        config.put("controller", controllers);
        config.put("user", admin.user());
        config.put("password", admin.password());
        config.put("key", key);
        return config;
    }

    /** A channel every half second, alternately at E1 and E2. */
    private static List<Object> plan(Map<String, Integer> ports) {
        List<Object> sessions = new ArrayList<>();
        for (int v = 0; v < CHANNELS; v++) {
            String edge = v % 2 == 0 ? "E1" : "E2";
            sessions.add(Map.of("edge", "http://127.0.0.1:" + ports.get(edge), "video", "f" + v,
                    "group", "G" + edge.substring(1), "startMillis", v * 500L));
        }
        return sessions;
    }
}
