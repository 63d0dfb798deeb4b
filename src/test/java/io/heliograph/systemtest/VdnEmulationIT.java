package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Overlay;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Signals;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Issue 24, the end-to-end emulation of §4.8 on one machine (§4.10): ten CDN clusters (2 sources, 2
 * reflectors, 6 edges), each a local agent JVM ({@code tools/heliograph-vdn-agent.jar}, {@code -Xmx48m},
 * serial GC) in a network namespace of its own; adjacent tiers fully connected by veth pairs shaped by
 * {@code tc tbf} ({@link Overlay}) at the thesis's 75 Mb/s and bitrates (1400/600/200 kbit/s) both ÷10:
 * 7.5 Mb/s links, 140/60/20 kbit/s. Every chunk and distance vector crosses those links (each agent
 * reaches its parents and children at their ends of the shared link); the controller (the distribution,
 * the VDN app deciding every 3 s) and the clients are in the root namespace, reached over each namespace's
 * own control link, unshaped (the thesis's controller is across the Internet, its client groups beside
 * their edges). The agents' parent capacities are the tbf rate, and the topology put to the controller has
 * the same clusters and links, one client group per edge.
 *
 * <p>One client process (the agent jar's {@code client} with a plan) starts a new channel every second,
 * each a video of its own at an edge drawn at random (the same draw for every run), playing
 * {@value #DEFAULT_CHUNKS} chunks of 2 s, each asked 2 s after the previous arrived. The same plan runs
 * against fresh agents in each of §4.8's systems: Fully Centralized ({@code central}), Fully Distributed
 * ({@code distributed}) and VDN ({@code hybrid}) with 0 %, 50 % and 100 % of the controller's updates lost
 * ({@code dropRibPercent}). It prints, per run, the join time (median, p90), the mean bitrate, stalls and
 * completions, and writes them to {@code VdnEmulationIT/results.md}, and asserts the directions that must
 * hold: VDN's median join is far below Fully Centralized's (the centre decides only each period), and with
 * every update lost VDN still serves every client (all joins complete, every chunk arrives) though no edge
 * installed a RIB.
 *
 * <p>The compact run ({@value #DEFAULT_CHANNELS} channels) leaves the links lightly loaded, so bitrates are
 * all at the top; a figure run loads them:
 * {@code -Dvdn.emulation.channels=40 -Dvdn.emulation.chunks=6 -Dvdn.emulation.linkKbps=1500} (40 channels
 * of 140 kbit/s against four 1.5 Mb/s source links is the thesis's 200 videos of 1.4 Mb/s against four
 * 75 Mb/s links), about 6 minutes. Fig 4.16a, bitrate as channels are added:
 * {@code -Dvdn.emulation.added=60 -Dvdn.emulation.linkKbps=1500} runs the three systems with 60 channels
 * added one a second, each playing until after the last joined, and prints the mean bitrate of the chunks
 * that arrived while k channels played, k in tens, about 9 minutes. Fig 4.17a, link fluctuation:
 * {@code -Dvdn.emulation.degraded=0,50,75,90 -Dvdn.emulation.linkKbps=1500} takes that share of capacity from a
 * quarter of the links (tc, and the agents told, as a capacity estimator would) in each of the three systems,
 * adds 10 channels and prints the mean bitrate 10 s after the last was added, about 12 minutes.
 * {@code -Dvdn.emulation.only=VDN} runs one system of these (its label), to read its logs. Compact: about 3
 * minutes (190 s). Isolated: eleven JVMs and a client share two cores, and it measures times.
 */
@Isolated
@Timeout(1200)
class VdnEmulationIT {

    private static final String BASE = "/api/v1/vdn";
    private static final int DEFAULT_CHANNELS = 12;
    private static final int DEFAULT_CHUNKS = 4;
    private static final int CHANNELS = Integer.getInteger("vdn.emulation.channels", DEFAULT_CHANNELS);
    /**
     * Fig 4.16a, bitrate as channels are added: this many channels, one a second, each playing until after
     * the last has joined, in each of the three systems; 0: the compact run.
     */
    private static final int ADDED = Integer.getInteger("vdn.emulation.added", 0);
    private static final int CHUNKS = Integer.getInteger("vdn.emulation.chunks", DEFAULT_CHUNKS);
    /**
     * Fig 4.17a, link fluctuation: for each of these shares of capacity taken away (percent), the three systems
     * with a quarter of the links (drawn once) degraded by it, then {@value #FLUCTUATION_CHANNELS} channels
     * added; empty: not run.
     */
    private static final List<Integer> DEGRADED = percents(System.getProperty("vdn.emulation.degraded", ""));
    private static final int FLUCTUATION_CHANNELS = 10;
    /** Fig 4.17a measures 10 s after the last of its channels was added. */
    private static final long FLUCTUATION_MEASURED_AFTER_MILLIS = 10_000;
    private static final long LINK_KBPS = Long.getLong("vdn.emulation.linkKbps", 7500);
    private static final List<Integer> BITRATES = List.of(140, 60, 20);
    private static final int CHUNK_SECONDS = 2;
    private static final int PERIOD_SECONDS = 3;
    private static final int PORT = 8000;
    private static final int SOURCES = 2;
    private static final int REFLECTORS = 2;
    private static final int EDGES = 6;
    private static final Duration START = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One of the systems compared: the agents' mode and the share of RIB versions they drop; the channels played;
     * the share of capacity taken from the degraded links (percent).
     */
    private record Run(String label, String mode, int dropRibPercent, int channels, int degradedPercent) {

        Run(String label, String mode, int dropRibPercent, int channels) {
            this(label, mode, dropRibPercent, channels, 0);
        }
    }

    /** What one run measured; the chunks' (arrival from the plan's start in ms, kbit/s). */
    private record Figures(Run run, List<long[]> chunks, int sessions, int complete, long joinMedian, long joinP90, long joinMax,
            double bitrateMean, long stalls, long stallMillis, long denied, long edgeRibsInstalled,
            long edgeRibsDropped, long localDecisions, String decision) {
    }

    @Test
    void vdnJoinsFarFasterThanTheCentreAloneAndServesEveryClientWithEveryUpdateLost() throws Exception {
        long began = System.nanoTime();
        Path artifacts = ArtifactDirectory.forTest("VdnEmulationIT");
        Path work = Files.createTempDirectory("vdn-emulation-");
        Cleanup cleanup = new Cleanup("VdnEmulationIT");
        ControllerDistribution distribution = null;
        ControllerProcess controller = null;
        Overlay overlay = null;
        List<Process> agents = new java.util.concurrent.CopyOnWriteArrayList<>();
        // should the test JVM be ended first (the fork's timeout), the agents go with it, by their pids
        Thread agentsHook = new Thread(() -> agents.forEach(Process::destroyForcibly), "vdn-emulation-agents");
        Runtime.getRuntime().addShutdownHook(agentsHook);
        try {
            distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
            distribution.configure("io.heliograph.vdn", Map.of("periodSeconds", Integer.toString(PERIOD_SECONDS),
                    "timeLimitSeconds", "1", "controllerTimeoutSeconds", Integer.toString(2 * PERIOD_SECONDS),
                    "reportTimeoutSeconds", "10"));
            VdnAgentJar agentJar = new VdnAgentJar(distribution.home().resolve("tools/heliograph-vdn-agent.jar"));
            controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));

            overlay = Overlay.create();
            Map<String, Overlay.Node> nodes = new LinkedHashMap<>();
            for (String id : clusters()) {
                nodes.put(id, overlay.addNode(id.toLowerCase(Locale.ROOT)));
            }
            String rate = LINK_KBPS + "kbit";
            Map<String, Overlay.Link> links = new LinkedHashMap<>();
            for (String[] pair : tierPairs()) {
                links.put(pair[0] + "->" + pair[1], overlay.link(nodes.get(pair[0]), nodes.get(pair[1]), rate, LINK_KBPS));
            }

            controller.awaitHealthy(START);
            controller.awaitApi(BASE + "/decision", START);
            RestClient rest = controller.rest();
            assertEquals(200, rest.put(BASE + "/topology", topology()).status());
            JsonNode keys = Poll.until("a key per cluster", START, () -> rest.get(BASE + "/agents"),
                    r -> r.status() == 200 && r.json().size() == clusters().size()).json();
            ControllerProcess.Credentials admin = controller.credentials(START);

            List<Run> runs = runs();
            List<Figures> results = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                Run run = runs.get(i);
                String prefix = "x" + i + "v";
                Path runDir = Files.createDirectories(work.resolve("run" + i));
                for (String id : clusters()) {
                    Map<String, Object> config = agentConfig(id, run, prefix, nodes, links, controller.httpPort(),
                            admin, keys.get(id).asText());
                    Path file = runDir.resolve(id + ".json");
                    Files.write(file, JSON.writeValueAsBytes(config));
                    agents.add(agentJar.start(List.of("ip", "netns", "exec", nodes.get(id).namespace()), file,
                            artifacts.resolve("run" + i + "-" + id + ".log")));
                }
                awaitConverged(nodes);
                degrade(overlay, links, nodes, run.degradedPercent());
                Path plan = runDir.resolve("plan.json");
                Files.write(plan, JSON.writeValueAsBytes(plan(prefix, nodes, run.channels())));
                Path clientLog = artifacts.resolve("run" + i + "-client.log");
                // the last channel starts after as many seconds as channels; a session takes CHUNKS chunks plus its waits
                int chunks = chunks(run);
                List<JsonNode> played = VdnAgentJar.played(agentJar.client(plan, chunks, CHUNK_SECONDS, BITRATES, clientLog),
                        clientLog, Duration.ofSeconds(run.channels() + 3L * chunks * CHUNK_SECONDS + 60));
                Figures figures = figures(run, played, nodes, rest);
                results.add(figures);
                System.out.println("VdnEmulationIT: " + line(figures));
                for (Process agent : agents) {
                    Signals.terminate(agent, Duration.ofSeconds(5));
                }
                agents.clear();
                degrade(overlay, links, nodes, 0);
            }
            StringBuilder stats = new StringBuilder();
            for (Overlay.Link link : overlay.links()) {
                stats.append(link.aDevice()).append(" / ").append(link.bDevice()).append('\n')
                        .append(overlay.linkStatistics(link)).append('\n');
            }
            Files.writeString(artifacts.resolve("tbf-statistics.txt"), stats);
            long seconds = (System.nanoTime() - began) / 1_000_000_000L;
            String table = table(results, seconds) + (ADDED > 0 ? added(results) : "")
                    + (DEGRADED.isEmpty() ? "" : fluctuation(results));
            Files.writeString(artifacts.resolve("results.md"), table);
            System.out.println(table);

            for (Figures f : results) {
                assertTrue(f.sessions() == f.run().channels(), f.run() + ": a line per session: " + f);
            }
            if (ADDED > 0 || !DEGRADED.isEmpty()) {
                return;
            }
            if (results.size() < systems().size()) {
                return; // -Dvdn.emulation.only: one system, to look at its logs
            }
            Figures central = results.get(0);
            Figures vdn = results.get(2);
            Figures allLost = results.get(4);
            assertEquals(CHANNELS, vdn.complete(), "VDN serves every channel: " + vdn);
            assertTrue(vdn.joinMedian() * 4 < central.joinMedian(),
                    "VDN's median join far below Fully Centralized's (it waits for the next decision): VDN "
                            + vdn.joinMedian() + " ms, centralized " + central.joinMedian() + " ms");
            assertTrue(central.joinMedian() >= 500, "the centre decides only every " + PERIOD_SECONDS
                    + " s, so a central join waits for it: " + central);
            assertEquals(CHANNELS, allLost.complete(), "with every update lost VDN still serves every client: " + allLost);
            assertEquals(0, allLost.edgeRibsInstalled(), "no edge installed a RIB: " + allLost);
            assertTrue(allLost.edgeRibsDropped() > 0, "the edges dropped the controller's RIBs: " + allLost);
            assertTrue(allLost.localDecisions() > 0, "and decided locally: " + allLost);
            assertTrue(vdn.edgeRibsInstalled() > 0, "VDN without loss follows the controller's RIBs: " + vdn);
        } finally {
            for (Process agent : agents) {
                cleanup.run("agent " + agent.pid(), () -> Signals.terminate(agent, Duration.ofSeconds(5)));
            }
            cleanup.close("controller", controller);
            cleanup.close("overlay", overlay);
            cleanup.close("distribution copy", distribution);
            cleanup.run("delete " + work, () -> Command.of("rm", "-rf", work.toString()).check());
            cleanup.run("remove the agents' shutdown hook", () -> Runtime.getRuntime().removeShutdownHook(agentsHook));
            cleanup.finish();
        }
    }

    /**
     * The compact run: the three systems and VDN with half and all of the updates lost, at {@link #CHANNELS}.
     * Channels added: the three systems at {@link #ADDED}.
     */
    private static List<Run> runs() {
        String only = System.getProperty("vdn.emulation.only", "");
        return systems().stream().filter(r -> only.isEmpty() || r.label().equals(only)).toList();
    }

    private static List<Run> systems() {
        if (!DEGRADED.isEmpty()) {
            List<Run> runs = new ArrayList<>();
            for (int percent : DEGRADED) {
                String degraded = ", " + percent + "% taken from " + degradedLinks().size() + " links";
                runs.add(new Run("Fully Centralized" + degraded, "central", 0, FLUCTUATION_CHANNELS, percent));
                runs.add(new Run("Fully Distributed" + degraded, "distributed", 0, FLUCTUATION_CHANNELS, percent));
                runs.add(new Run("VDN" + degraded, "hybrid", 0, FLUCTUATION_CHANNELS, percent));
            }
            return runs;
        }
        if (ADDED == 0) {
            return List.of(new Run("Fully Centralized", "central", 0, CHANNELS),
                    new Run("Fully Distributed", "distributed", 0, CHANNELS), new Run("VDN", "hybrid", 0, CHANNELS),
                    new Run("VDN, 50% of updates lost", "hybrid", 50, CHANNELS),
                    new Run("VDN, 100% of updates lost", "hybrid", 100, CHANNELS));
        }
        return List.of(new Run("Fully Centralized", "central", 0, ADDED),
                new Run("Fully Distributed", "distributed", 0, ADDED), new Run("VDN", "hybrid", 0, ADDED));
    }

    /**
     * Chunks a session plays: the compact run's; when channels are added, until 10 s after the last joined;
     * under link fluctuation, past the 10 s measured after the last joined.
     */
    private static int chunks(Run run) {
        if (!DEGRADED.isEmpty()) {
            return (int) (2 * FLUCTUATION_MEASURED_AFTER_MILLIS / 1000 / CHUNK_SECONDS) + 2;
        }
        return ADDED == 0 ? CHUNKS : Math.max(CHUNKS, run.channels() / CHUNK_SECONDS + 5);
    }

    private static List<Integer> percents(String list) {
        List<Integer> percents = new ArrayList<>();
        for (String p : list.split(",")) {
            if (!p.isBlank()) {
                int percent = Integer.parseInt(p.strip());
                if (percent < 0 || percent > 95) {
                    throw new IllegalArgumentException("vdn.emulation.degraded: " + percent + " is not a share from 0 to 95");
                }
                percents.add(percent);
            }
        }
        return List.copyOf(percents);
    }

    /** A quarter of the links, drawn at random once (the same for every run): "25% of links chosen at random". */
    private static List<String> degradedLinks() {
        List<String> names = new ArrayList<>();
        for (String[] pair : tierPairs()) {
            names.add(pair[0] + "->" + pair[1]);
        }
        java.util.Collections.shuffle(names, new Random(417));
        return List.copyOf(names.subList(0, names.size() / 4));
    }

    /**
     * Shapes the degraded links to what is left after taking {@code percent} of their capacity, and tells each
     * link's child agent the new capacity, as the capacity estimation the thesis takes as given would (0: back to
     * the full rate, before the next run's fresh agents; their configuration says the full rate).
     */
    private static void degrade(Overlay overlay, Map<String, Overlay.Link> links, Map<String, Overlay.Node> nodes,
            int percent) {
        if (DEGRADED.isEmpty()) {
            return;
        }
        long kbps = LINK_KBPS * (100 - percent) / 100;
        for (String name : degradedLinks()) {
            overlay.rate(links.get(name), kbps);
            String[] ends = name.split("->");
            if (percent > 0) {
                VdnAgentJar.linkCapacity(URI.create("http://" + nodes.get(ends[1]).controlAddress() + ":" + PORT), ends[0],
                        kbps);
            }
        }
    }

    private static List<String> clusters() {
        List<String> ids = new ArrayList<>();
        for (int s = 1; s <= SOURCES; s++) {
            ids.add("S" + s);
        }
        for (int r = 1; r <= REFLECTORS; r++) {
            ids.add("R" + r);
        }
        for (int e = 1; e <= EDGES; e++) {
            ids.add("E" + e);
        }
        return ids;
    }

    /** Adjacent tiers fully connected: every source to every reflector, every reflector to every edge. */
    private static List<String[]> tierPairs() {
        List<String[]> pairs = new ArrayList<>();
        for (int s = 1; s <= SOURCES; s++) {
            for (int r = 1; r <= REFLECTORS; r++) {
                pairs.add(new String[] {"S" + s, "R" + r});
            }
        }
        for (int r = 1; r <= REFLECTORS; r++) {
            for (int e = 1; e <= EDGES; e++) {
                pairs.add(new String[] {"R" + r, "E" + e});
            }
        }
        return pairs;
    }

    private static Map<String, Object> topology() {
        List<Object> nodes = new ArrayList<>();
        for (String id : clusters()) {
            String tier = switch (id.charAt(0)) {
                case 'S' -> "source";
                case 'R' -> "reflector";
                default -> "edge";
            };
            nodes.add(Map.of("id", id, "tier", tier));
        }
        List<Object> links = new ArrayList<>();
        for (String[] pair : tierPairs()) {
            links.add(Map.of("from", pair[0], "to", pair[1], "capacityKbps", LINK_KBPS, "cost", 10));
        }
        for (int e = 1; e <= EDGES; e++) {
            nodes.add(Map.of("id", "G" + e, "tier", "client-group"));
            links.add(Map.of("from", "E" + e, "to", "G" + e, "capacityKbps", 1_000_000, "cost", 0));
        }
        return Map.of("nodes", nodes, "links", links);
    }

    private static Map<String, Object> agentConfig(String id, Run run, String prefix, Map<String, Overlay.Node> nodes,
            Map<String, Overlay.Link> links, int httpPort, ControllerProcess.Credentials admin, String key) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("cluster", id);
        config.put("listen", "0.0.0.0:" + PORT);
        config.put("chunkSeconds", CHUNK_SECONDS);
        config.put("seed", 24 + id.hashCode());
        List<Object> parents = new ArrayList<>();
        List<Object> children = new ArrayList<>();
        for (Map.Entry<String, Overlay.Link> entry : links.entrySet()) {
            Overlay.Link link = entry.getValue();
            String[] ends = entry.getKey().split("->");
            if (ends[1].equals(id)) {
                parents.add(Map.of("id", ends[0], "url", "http://" + link.aAddress() + ":" + PORT, "capacityKbps", LINK_KBPS));
            } else if (ends[0].equals(id)) {
                children.add(Map.of("id", ends[1], "url", "http://" + link.bAddress() + ":" + PORT));
            }
        }
        config.put("parents", parents);
        config.put("children", children);
        if (id.startsWith("S")) {
            config.put("tier", "source");
            List<String> videos = new ArrayList<>();
            for (int v = 0; v < run.channels(); v++) {
                videos.add(prefix + v);
            }
            config.put("videos", videos);
            config.put("bitrates", BITRATES);
            return config;
        }
        config.put("tier", id.startsWith("R") ? "reflector" : "edge");
        config.put("mode", run.mode());
        config.put("dropRibPercent", run.dropRibPercent());
        config.put("controller", "http://" + nodes.get(id).rootAddress() + ":" + httpPort);
        config.put("user", admin.user());
        config.put("password", admin.password());
        config.put("key", key);
        return config;
    }

    private static JsonNode status(Overlay.Node node) {
        return VdnAgentJar.status(URI.create("http://" + node.controlAddress() + ":" + PORT));
    }

    /**
     * Every agent serves, every reflector heard both sources, and every edge took two more advertisements
     * after that (each reflector's vector with the sources' videos in it).
     */
    private static void awaitConverged(Map<String, Overlay.Node> nodes) {
        for (String id : clusters()) {
            Poll.until(id + "'s agent serving, its parents heard", START, () -> status(nodes.get(id)),
                    VdnAgentJar::allParentsHeard);
        }
        for (int e = 1; e <= EDGES; e++) {
            Overlay.Node edge = nodes.get("E" + e);
            long seen = status(edge).at("/counters/advertisementsReceived").asLong();
            Poll.until(edge.name() + " advertised to after the reflectors heard the sources", START, () -> status(edge),
                    s -> s.at("/counters/advertisementsReceived").asLong() >= seen + 2 * REFLECTORS);
        }
    }

    /** A new channel every second, each its own video, at an edge drawn at random (the same draw every run). */
    private static List<Object> plan(String prefix, Map<String, Overlay.Node> nodes, int channels) {
        Random random = new Random(48);
        List<Object> sessions = new ArrayList<>();
        for (int v = 0; v < channels; v++) {
            int edge = 1 + random.nextInt(EDGES);
            sessions.add(Map.of("edge", "http://" + nodes.get("E" + edge).controlAddress() + ":" + PORT,
                    "video", prefix + v, "group", "G" + edge, "startMillis", v * 1000L));
        }
        return sessions;
    }

    private static Figures figures(Run run, List<JsonNode> played, Map<String, Overlay.Node> nodes,
            RestClient rest) {
        JsonNode summary = played.get(played.size() - 1).get("summary");
        List<JsonNode> sessions = played.subList(0, played.size() - 1);
        List<long[]> chunks = new ArrayList<>();
        for (JsonNode s : sessions) {
            for (int c = 0; c < s.get("chunkAtMillis").size(); c++) {
                chunks.add(new long[] {s.get("chunkAtMillis").get(c).asLong(), s.get("chunkKbps").get(c).asLong()});
            }
        }
        // the tail and the stall time the client's summary leaves out
        List<Long> joins = new ArrayList<>();
        long stallMillis = 0;
        for (JsonNode s : sessions) {
            if (s.get("joinMillis").asLong() >= 0) {
                joins.add(s.get("joinMillis").asLong());
            }
            stallMillis += s.get("stallMillis").asLong();
        }
        joins.sort(null);
        long installed = 0;
        long dropped = 0;
        long local = 0;
        for (int e = 1; e <= EDGES; e++) {
            JsonNode counters = status(nodes.get("E" + e)).get("counters");
            installed += counters.get("ribInstalled").asLong();
            dropped += counters.get("ribDropped").asLong();
            local += counters.get("localDecisions").asLong();
        }
        RestClient.Response decision = rest.get(BASE + "/decision");
        String decided = decision.toString();
        if (decision.status() == 200) {
            JsonNode d = decision.json();
            decided = String.format(Locale.ROOT, "version %s (%s, %s ms, gap per million %s): %s of %s requests served",
                    d.path("version"), d.path("method").asText(), d.path("millis"), d.path("gapPerMillion"),
                    d.path("requestsServed"), d.path("requests"));
        }
        return new Figures(run, chunks, sessions.size(), summary.get("complete").asInt(), summary.path("joinMillisMedian").asLong(-1),
                percentile(joins, 90), joins.isEmpty() ? -1 : joins.get(joins.size() - 1),
                summary.get("bitrateKbpsMean").asDouble(), summary.get("stalls").asLong(), stallMillis,
                summary.get("denied").asLong(), installed, dropped, local, decided);
    }

    private static long percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return -1;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private static String line(Figures f) {
        return String.format(Locale.ROOT, "%s: %d/%d sessions complete, join median %d ms, p90 %d ms, max %d ms, "
                        + "bitrate mean %.0f kbit/s, %d stalls (%d ms), %d denied; edges: %d RIBs installed, %d dropped, "
                        + "%d local decisions; last decision %s",
                f.run().label(), f.complete(), f.sessions(), f.joinMedian(), f.joinP90(), f.joinMax(), f.bitrateMean(),
                f.stalls(), f.stallMillis(), f.denied(), f.edgeRibsInstalled(), f.edgeRibsDropped(), f.localDecisions(),
                f.decision());
    }

    /**
     * Fig 4.16a: the mean bitrate of the chunks that arrived while k channels played, for k in tens (a
     * channel starts each second, so from k - 10 to k seconds after the first; the last group also holds
     * the time after the last channel joined, all of them playing).
     */
    private static String added(List<Figures> results) {
        StringBuilder md = new StringBuilder("\nMean bitrate (kbit/s) of the chunks that arrived while k - 9 to k channels "
                + "played; bound: the sources' links filled fluidly, no more than the top bitrate\n\n| system |");
        List<Integer> ks = new ArrayList<>();
        for (int k = 10; k <= ADDED; k += 10) {
            ks.add(k);
        }
        StringBuilder rule = new StringBuilder("|---|");
        for (int k : ks) {
            md.append(" k = ").append(k).append(" |");
            rule.append("---|");
        }
        md.append('\n').append(rule).append('\n');
        for (Figures f : results) {
            md.append("| ").append(f.run().label()).append(" |");
            for (int k : ks) {
                long from = (k - 10) * 1000L;
                long to = k == ks.get(ks.size() - 1) ? Long.MAX_VALUE : k * 1000L;
                md.append(String.format(Locale.ROOT, " %.0f |", meanKbps(f, from, to)));
            }
            md.append('\n');
        }
        md.append("| bound |");
        for (int k : ks) {
            md.append(String.format(Locale.ROOT, " %.0f |", bound(k)));
        }
        return md.append('\n').toString();
    }

    /**
     * Fig 4.17a: per system and share of capacity taken from the degraded links, the mean bitrate of the chunks
     * that arrived in the 10 s from 10 s after the last channel was added.
     */
    private static String fluctuation(List<Figures> results) {
        long from = (FLUCTUATION_CHANNELS - 1) * 1000L + FLUCTUATION_MEASURED_AFTER_MILLIS;
        long to = from + FLUCTUATION_MEASURED_AFTER_MILLIS;
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%nLink fluctuation: links %s degraded; mean "
                + "bitrate (kbit/s) of the chunks that arrived %d to %d s after the first of %d channels was added, "
                + "join median (ms) in brackets%n%n| system |", degradedLinks(), from / 1000, to / 1000, FLUCTUATION_CHANNELS));
        StringBuilder rule = new StringBuilder("|---|");
        for (int percent : DEGRADED) {
            md.append(' ').append(percent).append("% taken |");
            rule.append("---|");
        }
        md.append('\n').append(rule).append('\n');
        for (Run system : runs().subList(0, Math.min(3, runs().size()))) {
            md.append("| ").append(system.label(), 0, system.label().indexOf(',')).append(" |");
            for (Figures f : results) {
                if (f.run().mode().equals(system.mode())) {
                    md.append(String.format(Locale.ROOT, " %.0f (%d) |", meanKbps(f, from, to), f.joinMedian()));
                }
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** The mean bitrate of a run's chunks that arrived from {@code from} to before {@code to} ms after its start. */
    private static double meanKbps(Figures f, long from, long to) {
        return f.chunks().stream().filter(c -> c[0] >= from && c[0] < to).mapToLong(c -> c[1]).average()
                .orElse(Double.NaN);
    }

    /** The mean bitrate the sources' links allow {@code channels} channels, filled fluidly, at most the top bitrate. */
    private static double bound(int channels) {
        return Math.min(BITRATES.get(0), (double) SOURCES * REFLECTORS * LINK_KBPS / channels);
    }

    private static String table(List<Figures> results, long seconds) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "VdnEmulationIT: channels one a second, one client each at a random edge, "
                        + "%d chunks of %d s each, links %d kbit/s (tbf), bitrates %s kbit/s, controller period %d s; "
                        + "%d s in all%n%n", chunks(results.get(0).run()), CHUNK_SECONDS, LINK_KBPS, BITRATES, PERIOD_SECONDS, seconds));
        md.append(String.format(Locale.ROOT, "Bound on the mean bitrate: the sources' %d links to the reflectors filled "
                + "fluidly, no more than the top bitrate.%n%n", SOURCES * REFLECTORS));
        md.append("| system | channels | bound (kbit/s) | complete | join median (ms) | join p90 (ms) | join max (ms) "
                + "| mean bitrate (kbit/s) | stalls (total ms) | denied | edge RIBs installed / dropped "
                + "| local decisions at edges |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Figures f : results) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %d/%d | %d | %d | %d | %.0f | %d (%d) | %d | %d / %d | %d |%n",
                    f.run().label(), f.run().channels(),
                    bound(f.run().channels()),
                    f.complete(), f.sessions(), f.joinMedian(), f.joinP90(), f.joinMax(), f.bitrateMean(),
                    f.stalls(), f.stallMillis(), f.denied(), f.edgeRibsInstalled(), f.edgeRibsDropped(), f.localDecisions()));
        }
        return md.toString();
    }
}
