package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.BundleJar;
import io.heliograph.testbed.BundleList;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.CommandResult;
import io.heliograph.testbed.ComponentList;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the assembled distribution as an operator would and checks what the launcher promises:
 * every bundle resolves and starts (the wrapped openflowj's imports resolve against the Netty and
 * Guava we ship), configuration from etc/ reaches the components (the ports given on the command
 * line are the ones listened on), every component runs (the network services active, none left
 * unsatisfied or failed by a circular activation) and changes to it apply live, hot/ installs, uninstalls and
 * reinstalls a bundle, the console works on a pipe, SIGTERM stops the controller cleanly, and bad
 * command lines are refused with exit code 2 and a message naming the problem. No switches: this
 * needs neither root nor Open vSwitch.
 */
@Timeout(300)
class DistributionIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration COMMAND = Duration.ofSeconds(20);
    private static final Duration REFUSAL = Duration.ofSeconds(60);
    private static final Pattern VERSION = Pattern.compile("Heliograph (\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?)");
    private static final Duration STOP = Duration.ofSeconds(30);
    private static final String LEARNING_SWITCH = "Heliograph learning switch";
    /** Bundle names (lb) of the network-service apps the distribution deploys in hot/. */
    private static final List<String> NETWORK_SERVICES = List.of("Heliograph app: topology",
            "Heliograph app: device (host) tracking", "Heliograph app: statistics collection",
            "Heliograph app: routing", "Heliograph app: static flows", "Heliograph app: forwarding");
    /** Components that must be running (ACTIVE) once the controller has started, no switch connected. */
    private static final List<String> ACTIVE_COMPONENTS = List.of(
            "io.heliograph.core.pipeline.MessagePipelines",
            "io.heliograph.openflow.OpenFlowController",
            "io.heliograph.cluster.internal.ZooKeeperSession",
            "io.heliograph.cluster.internal.ClusterMembership",
            "io.heliograph.cluster.internal.ZooKeeperStore",
            "io.heliograph.cluster.internal.MastershipComponent",
            "io.heliograph.webui.WebServer",
            "io.heliograph.solver.internal.SolverComponent",
            // bound by the web server whether or not the cluster services run (the API answers 503 without them)
            "io.heliograph.webui.cluster.ClusterResource",
            "io.heliograph.webui.cluster.ClusterPage",
            "io.heliograph.learningswitch.LearningSwitchComponent",
            "io.heliograph.topology.internal.TopologyComponent",
            "io.heliograph.devices.internal.DevicesComponent",
            "io.heliograph.stats.internal.StatisticsComponent",
            "io.heliograph.stats.internal.TopologyEdgePorts",
            "io.heliograph.routing.internal.RoutingManager",
            "io.heliograph.routing.internal.StatisticsPortRates",
            "io.heliograph.staticflows.internal.StaticFlowsComponent",
            "io.heliograph.forwarding.internal.ForwardingComponent");

    @TempDir
    Path scratch;

    /** A private copy for each test: the tests change hot/ and etc/ and leave data directories in it. */
    private ControllerDistribution distribution;
    private Path controllerLog;

    @BeforeEach
    void copyDistribution(TestInfo test) {
        distribution = ControllerDistribution.copyOfBuilt(scratch);
        controllerLog = ArtifactDirectory.forTest("DistributionIT")
                .resolve(test.getTestMethod().orElseThrow().getName() + ".log");
    }

    @AfterEach
    void deleteDistribution() {
        distribution.close();
    }

    @Test
    void everyBundleStartsConfigurationAppliesAndHotDeployWorks() throws IOException {
        try (ControllerProcess controller = ControllerProcess.start(distribution, controllerLog)) {
            controller.awaitHealthy(STARTUP);
            int openflowPort = controller.openflowPort();
            Poll.until("the OpenFlow listener on port " + openflowPort + " (from --openflow-port via etc/)", STARTUP,
                    () -> ControllerProcess.acceptsConnections(openflowPort));

            List<Path> jars = distribution.installedJars();
            Set<String> fragments = jars.stream().filter(BundleJar::isFragment).map(BundleJar::name)
                    .collect(Collectors.toSet());
            // The apps in hot/ start after the platform (start level 2), possibly just after UP.
            BundleList listing = Poll.until("lb to list the system bundle and every jar, all started", STARTUP,
                    () -> controller.bundles(COMMAND), l -> l.rows().size() == jars.size() + 1
                            && l.rows().stream().allMatch(b -> b.state().equals(expectedState(b, fragments))));
            List<BundleList.Row> bundles = listing.rows();
            assertEquals(jars.size() + 1, bundles.size(), "lb lists the system bundle and every jar\n" + bundles);
            for (BundleList.Row b : bundles) {
                String want = expectedState(b, fragments);
                assertEquals(want, b.state(), b + " is not " + want + "\n" + controller.log());
            }
            assertTrue(listing.find(LEARNING_SWITCH).isPresent(),
                    "hot/ was deployed at start\n" + bundles);
            for (String app : NETWORK_SERVICES) {
                assertTrue(listing.find(app).isPresent(), app + " was deployed from hot/ at start\n" + bundles);
            }

            // Every component runs: the network services are ACTIVE (the switch service or the
            // pipelines bound them), none is UNSATISFIED or FAILED (as a circular activation leaves
            // them); only delayed ones nobody has asked for yet, the shell commands, are SATISFIED.
            // SCR enables a bundle's components one after another once the bundle is ACTIVE: an app that
            // has just started may still list components without an instance, so wait as for the bundles.
            // A listener is activated when the pipelines bind it, which may come just after its bundle starts.
            ComponentList components = Poll.until("scr:list to show every component satisfied and the network "
                    + "services active", STARTUP, () -> controller.components(COMMAND), c -> c.notRunning().isEmpty()
                    && ACTIVE_COMPONENTS.stream().allMatch(name -> c.find(name).map(ComponentList.Row::state)
                            .equals(Optional.of("ACTIVE"))));
            assertEquals(List.of(), components.notRunning(), "every component satisfied\n" + components.rows());
            for (String name : ACTIVE_COMPONENTS) {
                assertEquals(Optional.of("ACTIVE"), components.find(name).map(ComponentList.Row::state),
                        name + " is active\n" + components.rows());
            }
            assertFalse(controller.log().contains(" ERROR "), "no error in the log\n" + controller.log());
            // Components start after etc/ is in Configuration Admin: the web server came up once, on
            // the configured port, never first on its built-in default.
            List<String> httpStarts = controller.log().lines().filter(l -> l.contains("HTTP listening on")).toList();
            assertEquals(1, httpStarts.size(), "HTTP started once\n" + controller.log());
            assertTrue(httpStarts.get(0).endsWith(":" + controller.httpPort()), httpStarts.get(0));

            Path jar = distribution.hot().resolve("heliograph-learningswitch.jar");
            Path aside = scratch.resolve("heliograph-learningswitch.jar");
            Files.move(jar, aside);
            Poll.until("removing the jar from hot/ to uninstall the bundle", COMMAND,
                    () -> controller.bundles(COMMAND).find(LEARNING_SWITCH), row -> row.isEmpty());
            Files.copy(aside, jar);
            Poll.until("a jar dropped into hot/ to be installed and started", COMMAND,
                    () -> controller.bundles(COMMAND).find(LEARNING_SWITCH),
                    row -> row.isPresent() && row.get().state().equals("Active"));

            // etc/ applies live: moving the HTTP listener by editing its file, no restart.
            int newPort = ControllerProcess.freePort();
            distribution.configure("io.heliograph.webui", Map.of("port", Integer.toString(newPort)));
            Poll.until("HTTP to move to port " + newPort + " after etc/io.heliograph.webui.cfg changed", COMMAND,
                    () -> controller.healthOn(newPort).isPresent());
            assertFalse(ControllerProcess.acceptsConnections(controller.httpPort()), "the old HTTP port is closed");

            // 143 = 128 + SIGTERM: the JVM's exit status after a signal, whatever the shutdown hook does.
            assertEquals(143, controller.terminate(STOP), "exit code after SIGTERM");
            assertTrue(controller.log().contains("INFO launcher - stopped"), "a clean stop is logged\n" + controller.log());
            assertFalse(ControllerProcess.acceptsConnections(openflowPort), "the OpenFlow port is closed after the stop");
        }
    }

    @Test
    void endOfConsoleInputWhileTheAppsStartStopsTheControllerCleanly() {
        try (ControllerProcess controller = ControllerProcess.start(distribution, controllerLog)) {
            Poll.until("the launcher to start the framework", STARTUP,
                    () -> controller.log().contains("Heliograph starting"));
            controller.closeConsole(); // the console bundle stops the framework while the launcher still starts it
            assertEquals(0, controller.awaitExit(STOP), "exit code after the end of console input\n" + controller.log());
            assertFalse(controller.log().contains("failed to start"), controller.log());
        }
    }

    /**
     * Issue 20: a bare {@code help} lists Heliograph's commands with their summaries first (the apps'
     * among them once they run), then the framework's; {@code help NAME} says one, ours or the
     * framework's; {@code exit} stops the controller. (The end of the input stops it too: above.)
     */
    @Test
    void consoleHelpListsHeliographsCommandsFirstAndExitStopsTheController() {
        try (ControllerProcess controller = ControllerProcess.start(distribution, controllerLog)) {
            controller.awaitHealthy(STARTUP);
            Pattern listed = Pattern.compile("(?s)Heliograph commands.*?\\n(.*?)Framework commands[^\\n]*\\n(.*?)\\ng! ");
            // the core's, and the hot/ apps' once each has started (devices, static flows, routing)
            List<Pattern> lines = List.of("switches +connected switches", "order TYPE \\[NAME,NAME...\\] +the configured order",
                    "hosts \\[MAC\\|IP\\|DPID\\] +tracked hosts", "staticdel DPID NAME +delete a static entry",
                    "path SRC DST \\[K \\[METRIC\\]\\] +the K shortest routes", "exit +stop the controller").stream()
                    .map(line -> Pattern.compile("(?m)^  " + line)).toList();
            Matcher help = Poll.until("help to list the core's and the hot/ apps' commands " + lines, COMMAND, () -> {
                Matcher m = listed.matcher(controller.console("help", listed, COMMAND));
                return m.find() ? m : null;
            }, m -> m != null && lines.stream().allMatch(line -> line.matcher(m.group(1)).find()));
            String ours = help.group(1);
            assertTrue(ours.indexOf("  exit") < ours.indexOf("  switches"), "ours sorted by name:\n" + ours);
            String framework = help.group(2);
            for (String name : List.of(" lb", " list", " install", " headers", " felix:help")) {
                assertTrue(framework.contains(name), "framework commands name '" + name + "':\n" + framework);
            }
            assertFalse(framework.contains(" switches"), "ours are not listed twice:\n" + framework);

            assertTrue(controller.console("help hosts", Pattern.compile("tracked hosts: MAC"), COMMAND)
                    .contains("hosts [MAC|IP|DPID]"), "help NAME says one of ours");
            assertTrue(controller.console("help lb", Pattern.compile("(?s)scope: felix.*?g! "), COMMAND).contains("lb"),
                    "help NAME hands a framework command to the framework's help");

            remoteShell(controller);

            controller.console("exit");
            assertEquals(0, controller.awaitExit(STOP), "exit code after exit\n" + controller.log());
            assertTrue(controller.log().contains("console: exit, stopping the controller"), controller.log());
        }
    }

    /**
     * Issue 20, the remote shell: {@code heliograph shell} runs console lines through the REST API with the
     * API's credentials (one with {@code -c}, or a script of lines piped in), prints their output, reports a
     * failed line on stderr with status 1, leaves at {@code exit} without stopping the controller, and
     * refuses wrong credentials. The controller logs each line with who sent it.
     */
    private void remoteShell(ControllerProcess controller) {
        String script = ControllerDistribution.built().getParent().getParent().resolve("heliograph").toString();
        String url = "http://127.0.0.1:" + controller.httpPort();
        ControllerProcess.Credentials admin = controller.credentials(STARTUP);
        String user = admin.user() + ":" + admin.password();

        CommandResult help = Command.of("bash", script, "shell", "--controller", url, "--user", user, "-c", "help")
                .timeout(COMMAND).run();
        assertEquals(0, help.exitCode(), help.toString());
        Matcher listed = Pattern.compile("(?s)Heliograph commands.*?\\n(.*?)Framework commands").matcher(help.stdout());
        assertTrue(listed.find(), help.toString());
        assertTrue(listed.group(1).contains("  switches") && listed.group(1).contains("  hosts [MAC|IP|DPID]"),
                "the remote help is the console's, apps' commands included:\n" + help.stdout());

        String lines = "help hosts\\n# a comment\\nno-such-command\\nheliograph:loglevel io.heliograph.remote debug\\n"
                + "exit\\nheliograph:loglevel io.heliograph.remote error\\n";
        CommandResult piped = Command.of("bash", "-c", "printf '" + lines + "' | bash \"$0\" shell --controller \"$1\""
                + " --user \"$2\"", script, url, user).timeout(COMMAND).run();
        assertEquals(1, piped.exitCode(), "a failed line makes the status 1: " + piped);
        assertTrue(piped.stdout().contains("hosts [MAC|IP|DPID]"), piped.toString());
        assertTrue(piped.stderr().contains("error: ") && piped.stderr().contains("no-such-command"), piped.toString());
        assertEquals("debug", controller.rest().get("/api/v1/logging/io.heliograph.remote").json().path("level")
                .asText(), "the lines before exit ran, none after it");
        assertTrue(controller.isAlive() && controller.health().isPresent(), "exit left the shell, not the controller");
        assertTrue(controller.log().contains("remote console, admin: help hosts"), controller.log());

        CommandResult refused = Command.of("bash", script, "shell", "--controller", url, "--user", "admin:wrong",
                "-c", "help").timeout(COMMAND).run();
        assertEquals(2, refused.exitCode(), refused.toString());
        assertTrue(refused.stderr().contains("refused the credentials (401)"), refused.toString());
    }

    @Test
    void aSecondControllerOnTheSameDataDirIsRefused() {
        try (ControllerProcess first = ControllerProcess.start(distribution, controllerLog)) {
            first.awaitHealthy(STARTUP);
            CommandResult second = ControllerProcess.runToExit(distribution, REFUSAL,
                    "--data-dir", first.dataDir().toString(),
                    "--openflow-port", Integer.toString(ControllerProcess.freePort()),
                    "--http-port", Integer.toString(ControllerProcess.freePort()));
            assertRefused(second, "is in use by another controller (pid ");
            assertTrue(first.isAlive() && first.health().isPresent(), "the first controller still runs\n" + first.log());
        }
    }

    /**
     * Issue 20, logs: with --log-format json, stderr and the file in the data directory's log folder get one JSON
     * object a line; a level set over REST applies at once (Jetty's debug lines appear after the change, none
     * before), a bad level is refused with 400 naming the field, and the console changes levels too.
     */
    @Test
    void logsGoToAFileAsJsonLinesAndLevelsChangeWhileRunning() throws IOException {
        try (ControllerProcess controller = ControllerProcess.start(distribution, controllerLog, "--log-format", "json")) {
            controller.awaitHealthy(STARTUP);
            Path file = controller.dataDir().resolve("log").resolve("heliograph.log");
            ObjectMapper json = new ObjectMapper();
            List<JsonNode> before = Poll.until(file + " to say the controller started", STARTUP,
                    () -> jsonLines(json, file), lines -> lines.stream()
                            .anyMatch(l -> l.path("message").asText().startsWith("Heliograph started in ")));
            JsonNode started = before.stream()
                    .filter(l -> l.path("message").asText().startsWith("Heliograph started in ")).findFirst().orElseThrow();
            assertEquals("INFO", started.path("level").asText(), started.toString());
            assertEquals("io.heliograph.launcher", started.path("logger").asText(), started.toString());
            assertEquals("main", started.path("thread").asText(), started.toString());
            assertTrue(started.path("time").asText().matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z"), started.toString());
            assertTrue(controller.log().contains("\"message\":\"Heliograph started in "), "stderr is JSON too\n"
                    + controller.log());

            RestClient rest = controller.rest();
            assertEquals(401, controller.anonymousRest().get("/api/v1/logging").status(), "levels need credentials");
            RestClient.Response jetty = rest.get("/api/v1/logging/org.eclipse.jetty.server");
            assertEquals(200, jetty.status(), jetty.toString());
            assertEquals("warn", jetty.json().path("level").asText(), "etc/log4j2.xml keeps Jetty at warn: " + jetty);
            RestClient.Response refused = rest.put("/api/v1/logging/org.eclipse.jetty.server", Map.of("level", "loud"));
            assertEquals(400, refused.status(), refused.toString());
            assertEquals("level", refused.json().path("field").asText(), refused.toString());
            assertTrue(jsonLines(json, file).stream().noneMatch(l -> l.path("level").asText().equals("DEBUG")),
                    "no debug line before the change");

            RestClient.Response set = rest.put("/api/v1/logging/org.eclipse.jetty.server", Map.of("level", "debug"));
            assertEquals(200, set.status(), set.toString());
            assertEquals("debug", set.json().path("configured").asText(), set.toString());
            rest.get("/api/v1/logging");
            Poll.until("Jetty's debug lines in " + file + " after its level was set over REST", COMMAND,
                    () -> jsonLines(json, file), lines -> lines.stream().anyMatch(l -> l.path("level").asText()
                            .equals("DEBUG") && l.path("logger").asText().startsWith("org.eclipse.jetty.server")));

            String answer = controller.console("heliograph:loglevel org.eclipse.jetty.server warn",
                    Pattern.compile("org\\.eclipse\\.jetty\\.server warn"), COMMAND);
            assertFalse(answer.contains("Exception"), answer);
            JsonNode list = rest.get("/api/v1/logging").json();
            assertEquals("ROOT", list.path(0).path("logger").asText(), list.toString());
            assertEquals("info", list.path(0).path("level").asText(), list.toString());
            assertEquals("warn", rest.get("/api/v1/logging/org.eclipse.jetty.server").json().path("level").asText());
            RestClient.Response reset = rest.delete("/api/v1/logging/org.eclipse.jetty.server");
            assertEquals(200, reset.status(), reset.toString());
            assertTrue(reset.json().path("configured").isNull(), "the logger etc/ does not name is gone: " + reset);
            assertEquals("warn", reset.json().path("level").asText(), "it has org.eclipse.jetty's level again: " + reset);
            JsonNode paths = rest.get("/api/v1/openapi.json").json().path("paths");
            for (String operation : List.of("/api/v1/logging get", "/api/v1/logging/{logger} get",
                    "/api/v1/logging/{logger} put", "/api/v1/logging/{logger} delete")) {
                String[] pathAndMethod = operation.split(" ");
                assertFalse(paths.path(pathAndMethod[0]).path(pathAndMethod[1]).path("summary").asText().isBlank(),
                        operation + " is in the OpenAPI document with a summary");
            }
        }
    }

    /** Every complete line of the log file, each of which must be one JSON object. */
    private static List<JsonNode> jsonLines(ObjectMapper json, Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            String text = Files.readString(file);
            List<JsonNode> lines = new ArrayList<>();
            // a line being written as we read has no newline yet
            for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
                if (line.isEmpty()) {
                    continue;
                }
                JsonNode node = json.readTree(line);
                assertTrue(node.isObject(), "a line of " + file + " that is no JSON object: " + line);
                lines.add(node);
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Issue 20: the built launcher and the source tree's script name the same version, the build's. */
    @Test
    void theLauncherAndTheScriptSayTheSameVersion() {
        CommandResult launcher = ControllerProcess.runToExit(distribution, REFUSAL, "--version");
        assertEquals(0, launcher.exitCode(), launcher.toString());
        Matcher built = VERSION.matcher(launcher.stdout().strip());
        assertTrue(built.matches(), "java -jar heliograph.jar --version: " + launcher);
        Path script = ControllerDistribution.built().getParent().getParent().resolve("heliograph");
        CommandResult source = Command.of("bash", script.toString(), "--version").timeout(REFUSAL).run();
        assertEquals(0, source.exitCode(), source.toString());
        assertTrue(source.stdout().startsWith("Heliograph " + built.group(1)),
                "deploy/heliograph --version names the version the build wrote: " + source + " vs " + launcher);
        for (String tool : List.of("zookeeper", "bench", "demo", "cluster-demo", "dist")) {
            CommandResult asked = Command.of("bash", script.toString(), tool, "--version").timeout(REFUSAL).run();
            assertEquals(source.stdout(), asked.stdout(), tool + " --version says the same: " + asked);
        }
    }

    @Test
    void badOptionIsRefusedWithItsName() {
        CommandResult refused = ControllerProcess.runToExit(distribution, REFUSAL, "--openflow-port", "abc");
        assertRefused(refused, "--openflow-port must be a TCP port number (1-65535), got 'abc'");
    }

    @Test
    void aBusyOpenFlowPortIsRefusedBeforeStarting() throws IOException {
        try (ServerSocket busy = new ServerSocket(0)) {
            CommandResult refused = ControllerProcess.runToExit(distribution, REFUSAL,
                    "--data-dir", scratch.resolve("data").toString(),
                    "--openflow-port", Integer.toString(busy.getLocalPort()),
                    "--http-port", Integer.toString(ControllerProcess.freePort()));
            assertRefused(refused, "--openflow-port " + busy.getLocalPort() + " cannot be used: ");
        }
    }

    @Test
    void dataDirThatIsAFileIsRefused() throws IOException {
        Path file = Files.writeString(scratch.resolve("not-a-dir"), "x");
        CommandResult refused = ControllerProcess.runToExit(distribution, REFUSAL, "--data-dir", file.toString());
        assertRefused(refused, "--data-dir: " + file + " exists and is not a directory");
    }

    /** A refused start: exit code 2 (bad usage or environment) and {@code message} on stderr. */
    /** Fragments are never started: Resolved is their running state. */
    private static String expectedState(BundleList.Row bundle, Set<String> fragments) {
        return fragments.stream().anyMatch(bundle.name()::startsWith) ? "Resolved" : "Active";
    }

    private static void assertRefused(CommandResult launch, String message) {
        assertEquals(2, launch.exitCode(), "exit code of a refused start\n" + launch);
        assertTrue(launch.stderr().contains(message), "stderr names the problem: " + message + "\n" + launch);
    }
}
