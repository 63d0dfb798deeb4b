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
import io.heliograph.testbed.Links;
import io.heliograph.testbed.OvsInstance;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * {@code deploy/heliograph demo} as a user runs it (from a scratch tree whose distribution is a copy
 * of the built one, so that it finds nothing to rebuild): one controller on the ports it was given and
 * a line of Open vSwitch bridges connected to it, its hosts pinging end to end through the controller's
 * forwarding. SIGTERM to the script then ends the controller and Open vSwitch and leaves no namespace
 * or device of the demo's (named {@code hgdemo*}).
 */
@Timeout(600)
// Isolated: deploy/lib/demo.sh's fixed names hgdemo* and control-link address 198.18.255.253, machine-wide
@Isolated
class DemoIT {

    private static final int SWITCHES = 3;
    /** The demo's fixed names and control link (deploy/lib/demo.sh). */
    private static final String PREFIX = "hgdemo";
    private static final String CONTROLLER_ADDRESS = "198.18.255.253";
    private static final Duration READY = Duration.ofMinutes(5);
    private static final Duration TEARDOWN = Duration.ofMinutes(2);
    private static final String READY_LINE = "Controller log follows.";
    private static final Pattern WORK_DIR = Pattern.compile("log: (\\S+)/controller\\.log");
    private static final Pattern LOGIN_LINE = Pattern.compile("web UI +(http://\\S+) +user (\\S+) +password (\\S+)");
    private static final Pattern DUMP_LINE = Pattern.compile("OVS_RUNDIR=(\\S+) ovs-ofctl -O OpenFlow13 dump-flows (\\S+)");

    @TempDir
    Path scratch;

    @Test
    void theDemoRunsAControllerWithASmallNetworkAndSigtermLeavesNothingBehind() {
        Testbed.requireRoot();
        assertEquals(Set.of(), namesOfTheDemo(), "a demo is running on this machine (its names are in use): "
                + "this test runs the demo with the same names");
        Path artifacts = ArtifactDirectory.forTest("DemoIT");
        int openflowPort = ControllerProcess.freePort();
        int httpPort = ControllerProcess.freePort();
        Path dataDir = scratch.resolve("data");
        AtomicReference<Path> workDir = new AtomicReference<>();
        Map<String, Long> ovsPids = new LinkedHashMap<>();

        try (ControllerDistribution distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"))) {
            Path heliograph = DemoScript.tree(scratch, distribution.home());
            long started = System.nanoTime();
            DemoScript demo = DemoScript.start(heliograph, artifacts.resolve("demo-output.txt"), "demo",
                    "--switches", Integer.toString(SWITCHES), "--protocol", "OpenFlow13",
                    "--openflow-port", Integer.toString(openflowPort), "--http-port", Integer.toString(httpPort),
                    "--data-dir", dataDir.toString());
            try {
                String text = demo.awaitOutput("the demo to say it is ready", READY, t -> t.contains(READY_LINE));
                long readyMs = (System.nanoTime() - started) / 1_000_000;
                Matcher work = WORK_DIR.matcher(text);
                assertTrue(work.find(), "the demo names its work directory:\n" + text);
                workDir.set(Path.of(work.group(1)));
                for (String daemon : List.of("ovsdb-server", "ovs-vswitchd")) {
                    ovsPids.put(daemon, readPid(workDir.get().resolve(daemon + ".pid")));
                }

                // the controller on the ports it was given, with every switch connected
                RestClient.Response health = RestClient.anonymous(URI.create("http://127.0.0.1:" + httpPort))
                        .get("/api/v1/health");
                assertEquals(200, health.status(), health.toString());
                assertEquals(SWITCHES, health.json().get("switches").asInt(), health.toString());
                OvsInstance ovs = OvsInstance.attach(workDir.get(), PREFIX + "sw");
                ControllerRoles roles = Poll.until("every bridge of the demo connected to the controller",
                        Duration.ofSeconds(60), () -> ControllerRoles.read(ovs),
                        r -> r.roles().size() == SWITCHES && r.roles().values().stream().allMatch(t -> t.size() == 1));
                String target = "tcp:" + CONTROLLER_ADDRESS + ":" + openflowPort;
                roles.roles().forEach((bridge, byTarget) -> assertEquals(Set.of(target), byTarget.keySet(), bridge));

                // the web UI's address and login as the demo prints them: they let one in
                Matcher login = LOGIN_LINE.matcher(text);
                assertTrue(login.find(), "the demo prints the web UI's address, user and password:\n" + text);
                assertEquals("http://127.0.0.1:" + httpPort + "/", login.group(1), login.group());
                RestClient.Response switches = RestClient.anonymous(URI.create(login.group(1)))
                        .withBasic(login.group(2), login.group(3)).get("/api/v1/switches");
                assertEquals(200, switches.status(), "logged in as the demo says: " + switches);
                assertEquals(SWITCHES, switches.json().size(), switches.toString());

                // the dump-flows line it prints, as printed, reaches its private Open vSwitch
                Matcher dump = DUMP_LINE.matcher(text);
                assertTrue(dump.find(), "the demo prints how to dump a switch's flows:\n" + text);
                CommandResult flows = Command.of("ovs-ofctl", "-O", "OpenFlow13", "dump-flows", dump.group(2))
                        .env(Map.of("OVS_RUNDIR", dump.group(1))).timeout(Duration.ofSeconds(10)).run();
                assertTrue(flows.succeeded() && flows.stdout().contains("actions="), flows.toString());

                // what the demo tells the user to try: the first host pings the last through the line
                String last = "10.0.0." + SWITCHES;
                long pingStarted = System.nanoTime();
                Poll.until(PREFIX + "h1 answered by " + last, Duration.ofSeconds(60), () -> Command.of("ip", "netns",
                        "exec", PREFIX + "h1", "ping", "-c", "1", "-W", "1", last).timeout(Duration.ofSeconds(10))
                        .run(), CommandResult::succeeded);
                System.out.printf("DemoIT: the demo ready %d ms after it was started, %d switches connected; "
                        + "h1 answered by h%d %d ms later%n", readyMs, SWITCHES, SWITCHES,
                        (System.nanoTime() - pingStarted) / 1_000_000);

                long terminated = System.nanoTime();
                assertEquals(143, demo.terminate(TEARDOWN), "exit status after SIGTERM (128 + 15; -1: still running "
                        + TEARDOWN + " after it)\n" + demo.output());
                long teardownMs = (System.nanoTime() - terminated) / 1_000_000;
                assertEquals(List.of(), runningWith(dataDir.toString()), "the controller still running");
                ovsPids.forEach((daemon, pid) -> assertTrue(ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true),
                        daemon + " (pid " + pid + ") still running"));
                assertTrue(!ControllerProcess.acceptsConnections(httpPort) && !ControllerProcess.acceptsConnections(openflowPort),
                        "nothing listens on the demo's ports any more");
                assertEquals(Set.of(), namesOfTheDemo(), "namespaces and devices of the demo left behind");
                assertTrue(demo.output().contains("demo: tearing down"), demo.output());
                System.out.printf("DemoIT: SIGTERM to everything gone (controller, Open vSwitch, namespaces, devices) "
                        + "in %d ms%n", teardownMs);
            } finally {
                Cleanup cleanup = new Cleanup("the demo");
                cleanup.close("end the demo script", demo);
                cleanup.run("end the controller", () -> ProcessHandle.allProcesses()
                        .filter(h -> commandLineHas(h, dataDir.toString())).forEach(ProcessHandle::destroyForcibly));
                ovsPids.forEach((daemon, pid) -> cleanup.run("end " + daemon, () -> ProcessHandle.of(pid)
                        .filter(h -> h.info().command().map(c -> c.endsWith("/" + daemon)).orElse(false))
                        .ifPresent(ProcessHandle::destroyForcibly)));
                cleanup.run("delete the demo's namespaces and devices", () -> namesOfTheDemo().forEach(n -> {
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

    /** Network namespaces and root-namespace devices named like the demo's. */
    private static Set<String> namesOfTheDemo() {
        return Links.namesInUse().stream().filter(n -> n.startsWith(PREFIX)).collect(Collectors.toSet());
    }

    /** Live processes whose command line contains {@code text}, as "pid command line". */
    private static List<String> runningWith(String text) {
        return ProcessHandle.allProcesses().filter(h -> commandLineHas(h, text))
                .map(h -> h.pid() + " " + h.info().commandLine().orElse("")).toList();
    }

    private static boolean commandLineHas(ProcessHandle h, String text) {
        return h.pid() != ProcessHandle.current().pid() && h.info().commandLine().map(c -> c.contains(text)).orElse(false);
    }

    private static long readPid(Path file) {
        try {
            return Long.parseLong(Files.readString(file).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the pid file " + file, e);
        }
    }
}
