package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.CommandResult;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.ControllerRoles;
import io.heliograph.testbed.DemoScript;
import io.heliograph.testbed.InterfaceNames;
import io.heliograph.testbed.Links;
import io.heliograph.testbed.OvsInstance;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code deploy/heliograph cluster-demo} as a user runs it, from a copy of the tree's layout (the
 * script, its lib/ and the built distribution at deploy/target/heliograph) so that it finds nothing
 * to rebuild: three ZooKeeper servers, three instances and a line of Open vSwitch bridges come up;
 * each instance answers on the HTTP port it was given, with the credentials the demo printed for it;
 * every switch, as OVS reports it, has one master among the three. SIGTERM to the script then ends
 * every process it started (the pids it wrote) and leaves no namespace or device with its prefix.
 * A bad option is refused, naming it, with exit status 2.
 */
@Timeout(600)
// Isolated: three ZooKeeper servers and three controllers; the demo's fixed control-link address 198.18.255.249
@Isolated
class ClusterDemoIT {

    private static final int SWITCHES = 3;
    private static final String[] INSTANCES = {"c1", "c2", "c3"};
    private static final Duration READY = Duration.ofMinutes(5);
    private static final Duration TEARDOWN = Duration.ofMinutes(2);
    /** What the demo prints when everything is up. */
    private static final String READY_LINE = "cluster-demo: ready";
    private static final Pattern PIDS_FILE = Pattern.compile("Every process it started: (\\S+)\\.");
    private static final Pattern INSTANCE_LINE = Pattern.compile(
            "(c\\d)  REST and web UI http://127\\.0\\.0\\.1:(\\d+)\\s+user (\\S+)\\s+password (\\S+)");
    /** The control link's address in the root namespace: where the switches reach the instances. */
    private static final String CONTROLLER_ADDRESS = "198.18.255.249";

    @TempDir
    Path scratch;

    @Test
    void theDemoRunsAClusterOnThisMachineAndSigtermLeavesNothingBehind() throws Exception {
        Testbed.requireRoot();
        Path artifacts = ArtifactDirectory.forTest("ClusterDemoIT");
        String prefix = InterfaceNames.fresh(Links.namesInUse()).prefix();
        List<Integer> ports = freePorts(15);
        List<Integer> openflow = ports.subList(0, 3);
        List<Integer> http = ports.subList(3, 6);
        List<Integer> zookeeper = ports.subList(6, 15);
        String ensemble = String.join(",", List.of(server(zookeeper, 0), server(zookeeper, 1), server(zookeeper, 2)));
        Path output = artifacts.resolve("cluster-demo-output.txt");
        Map<String, Long> pids = new LinkedHashMap<>();
        AtomicReference<Path> workDir = new AtomicReference<>(); // where the demo keeps its logs after the teardown

        try (ControllerDistribution distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"))) {
            Path heliograph = DemoScript.tree(scratch, distribution.home());
            long started = System.nanoTime();
            DemoScript demo = DemoScript.start(heliograph, output, "cluster-demo", "--prefix", prefix,
                    "--switches", Integer.toString(SWITCHES), "--protocol", "OpenFlow13",
                    "--openflow-ports", join(openflow), "--http-ports", join(http), "--ensemble", ensemble);
            try {
                String text = demo.awaitOutput("the cluster demo to say it is ready", READY, t -> t.contains(READY_LINE));
                long readyMs = millisSince(started);
                Matcher pidsFile = PIDS_FILE.matcher(text);
                assertTrue(pidsFile.find(), "the demo says where its pids are:\n" + text);
                workDir.set(Path.of(pidsFile.group(1)).getParent());
                pids.putAll(readPids(Path.of(pidsFile.group(1))));
                assertTrue(pids.keySet().containsAll(List.of("zookeeper-1", "zookeeper-2", "zookeeper-3", "c1", "c2",
                        "c3", "ovsdb-server", "ovs-vswitchd", "tail")), "every process the demo started is listed: " + pids);

                // each instance on its HTTP port, with the credentials printed for it
                Map<String, String[]> printed = new LinkedHashMap<>();
                Matcher line = INSTANCE_LINE.matcher(text);
                while (line.find()) {
                    printed.put(line.group(1), new String[] {line.group(2), line.group(3), line.group(4)});
                }
                assertEquals(List.of(INSTANCES), List.copyOf(printed.keySet()), "one line per instance:\n" + text);
                for (int i = 0; i < INSTANCES.length; i++) {
                    String[] p = printed.get(INSTANCES[i]);
                    assertEquals(Integer.toString(http.get(i)), p[0], INSTANCES[i] + "'s HTTP port");
                    RestClient rest = RestClient.anonymous(URI.create("http://127.0.0.1:" + p[0]));
                    RestClient.Response health = rest.get("/api/v1/health");
                    assertEquals(200, health.status(), health.toString());
                    assertEquals("UP", health.json().get("status").asText(), health.toString());
                    RestClient.Response controller = rest.withBasic(p[1], p[2]).get("/api/v1/controller");
                    assertEquals(200, controller.status(), "the printed credentials of " + INSTANCES[i] + " log in: "
                            + controller);
                    assertEquals(INSTANCES[i], controller.json().get("instanceId").asText(), controller.toString());
                }

                // every switch connected to all three, one master each, as the switches report it
                OvsInstance ovs = OvsInstance.attach(workDir.get(), prefix + "sw");
                ControllerRoles roles = Poll.until("every switch of the demo with one master and two slaves",
                        Duration.ofSeconds(60), () -> ControllerRoles.read(ovs),
                        r -> r.roles().size() == SWITCHES && r.oneMasterEach(INSTANCES.length));
                Set<String> targets = new HashSet<>();
                roles.roles().values().forEach(byTarget -> targets.addAll(byTarget.keySet()));
                assertEquals(openflow.stream().map(p -> "tcp:" + CONTROLLER_ADDRESS + ":" + p).collect(Collectors.toSet()),
                        targets, "each switch connects to the three instances");
                System.out.printf("ClusterDemoIT: the demo ready %d ms after it was started; masters per target %s%n",
                        readyMs, roles.mastersByTarget());

                long terminated = System.nanoTime();
                assertEquals(143, demo.terminate(TEARDOWN), "exit status after SIGTERM (128 + 15; -1: still running "
                        + TEARDOWN + " after it)\n" + demo.output());
                long teardownMs = millisSince(terminated);
                Map<String, Long> alive = new LinkedHashMap<>();
                pids.forEach((name, pid) -> {
                    if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                        alive.put(name, pid);
                    }
                });
                assertEquals(Map.of(), alive, "processes the demo started, still running after it ended");
                assertEquals(Set.of(), namesWith(prefix), "namespaces and devices named " + prefix + "* left behind");
                assertTrue(demo.output().contains("cluster-demo: tearing down"), demo.output());
                System.out.printf("ClusterDemoIT: SIGTERM to everything gone (%d processes, namespaces, devices) in "
                        + "%d ms%n", pids.size(), teardownMs);
            } finally {
                Cleanup cleanup = new Cleanup("the cluster demo");
                cleanup.close("end the demo script", demo);
                // what a killed or failed demo left running: by pid, and only if it still is that program
                pids.forEach((name, pid) -> cleanup.run("end " + name, () -> ProcessHandle.of(pid)
                        .filter(h -> h.info().command().map(ClusterDemoIT::startedByTheDemo).orElse(false))
                        .ifPresent(ProcessHandle::destroyForcibly)));
                cleanup.run("delete namespaces " + prefix + "*", () -> namesWith(prefix).forEach(n -> {
                    Links.deleteNamespaceIfPresent(n);
                    Links.deleteIfPresent(n);
                }));
                if (workDir.get() != null) {
                    cleanup.run("keep the demo's logs, delete " + workDir.get(),
                            () -> DemoScript.keepLogs(workDir.get(), artifacts));
                }
                cleanup.finish();
            }
        }
    }

    @Test
    void aBadOptionIsRefusedNamingItBeforeAnythingStarts() {
        // the built distribution itself: nothing starts, so nothing can change it
        String script = DemoScript.tree(scratch, ControllerDistribution.built()).toString();
        CommandResult refused = Command.of("bash", script, "cluster-demo", "--http-ports", "8080,8081")
                .timeout(Duration.ofSeconds(30)).run();
        assertEquals(2, refused.exitCode(), refused.toString());
        assertTrue(refused.stderr().contains("--http-ports takes three ports separated by commas, got '8080,8081'"),
                refused.stderr());
        CommandResult unknown = Command.of("bash", script, "cluster-demo", "--switchs", "4")
                .timeout(Duration.ofSeconds(30)).run();
        assertEquals(2, unknown.exitCode(), unknown.toString());
        assertTrue(unknown.stderr().contains("unknown option '--switchs'"), unknown.stderr());
        CommandResult notANumber = Command.of("bash", script, "cluster-demo", "--switches", "many")
                .timeout(Duration.ofSeconds(30)).run();
        assertEquals(2, notANumber.exitCode(), notANumber.toString());
        assertTrue(notANumber.stderr().contains("--switches must be a number from 1 to 50, got 'many'"),
                notANumber.stderr());
    }

    private static boolean startedByTheDemo(String command) {
        return command.endsWith("/java") || command.endsWith("/ovsdb-server") || command.endsWith("/ovs-vswitchd")
                || command.endsWith("/tail");
    }

    /** "name pid" lines. */
    private static Map<String, Long> readPids(Path file) {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (String line : read(file).lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2) {
                pids.put(f[0], Long.parseLong(f[1]));
            }
        }
        return pids;
    }

    /** Network namespaces and root-namespace devices whose names start with {@code prefix}. */
    private static Set<String> namesWith(String prefix) {
        return Links.namesInUse().stream().filter(n -> n.startsWith(prefix)).collect(Collectors.toSet());
    }

    private static List<Integer> freePorts(int count) {
        Set<Integer> ports = new HashSet<>();
        while (ports.size() < count) {
            ports.add(ControllerProcess.freePort());
        }
        return new ArrayList<>(ports);
    }

    /** Server {@code i} of the ensemble: 127.0.0.1:PEER:ELECTION:CLIENT from three ports each. */
    private static String server(List<Integer> ports, int i) {
        return "127.0.0.1:" + ports.get(3 * i) + ":" + ports.get(3 * i + 1) + ":" + ports.get(3 * i + 2);
    }

    private static String join(List<Integer> ports) {
        return ports.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
