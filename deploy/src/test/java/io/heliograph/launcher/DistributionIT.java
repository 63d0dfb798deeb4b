package io.heliograph.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the assembled distribution as an operator would and checks what the launcher promises:
 * every bundle resolves and starts (the wrapped openflowj's imports resolve against the Netty and
 * Guava we ship), configuration from etc/ reaches the components (the ports given on the command
 * line are the ones listened on) and changes to it apply live, hot/ installs, uninstalls and
 * reinstalls a bundle, the console works on a pipe, and SIGTERM stops the controller cleanly.
 */
class DistributionIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration COMMAND = Duration.ofSeconds(20);
    private static final String LEARNING_SWITCH = "Heliograph learning switch";

    private static Path assembled;

    @TempDir
    Path scratch;

    @BeforeAll
    static void findDistribution() {
        assembled = Path.of(System.getProperty("heliograph.distribution", "target/heliograph"));
        assertTrue(Files.isRegularFile(assembled.resolve("heliograph.jar")), "no distribution at " + assembled);
    }

    @Test
    void everyBundleStartsConfigurationAppliesAndHotDeployWorks() throws Exception {
        // A private copy: this test changes hot/, and other tests may run the shared distribution.
        Path home = copy(assembled, scratch.resolve("heliograph"));
        try (ControllerProcess controller = ControllerProcess.start(home, scratch.resolve("data"), "--console")) {
            controller.awaitTrue(() -> isUp(controller), STARTUP, "GET /api/v1/health to answer 200 UP");
            controller.awaitTrue(() -> accepts(controller.openflowPort), STARTUP,
                    "the OpenFlow listener on port " + controller.openflowPort + " (from --openflow-port via etc/)");

            Set<String> fragments = fragmentNames(home.resolve("bundles"));
            List<ControllerProcess.BundleLine> bundles = controller.bundles(COMMAND);
            long expected = jarCount(home.resolve("bundles")) + jarCount(home.resolve("hot")) + 1;
            assertEquals(expected, bundles.size(), "lb lists the system bundle and every jar\n" + bundles);
            for (ControllerProcess.BundleLine b : bundles) {
                String want = fragments.stream().anyMatch(b.name()::startsWith) ? "Resolved" : "Active";
                assertEquals(want, b.state(), b + " is not " + want + "\n" + controller.output());
            }
            assertTrue(bundles.stream().anyMatch(b -> b.name().startsWith(LEARNING_SWITCH)),
                    "hot/ was deployed at start\n" + bundles);
            assertFalse(controller.log().contains(" ERROR "), "no error in the log\n" + controller.log());
            // Components start after etc/ is in Configuration Admin: the web server came up once, on
            // the configured port, never first on its built-in default.
            List<String> httpStarts = controller.log().lines().filter(l -> l.contains("HTTP listening on")).toList();
            assertEquals(1, httpStarts.size(), "HTTP started once\n" + controller.log());
            assertTrue(httpStarts.get(0).endsWith(":" + controller.httpPort), httpStarts.get(0));

            Path jar = home.resolve("hot/heliograph-learningswitch.jar");
            Path aside = scratch.resolve("heliograph-learningswitch.jar");
            Files.move(jar, aside);
            controller.awaitTrue(() -> !listed(controller, LEARNING_SWITCH), COMMAND,
                    "removing the jar from hot/ to uninstall the bundle");
            Files.copy(aside, jar);
            controller.awaitTrue(() -> activeNamed(controller, LEARNING_SWITCH), COMMAND,
                    "a jar dropped into hot/ to be installed and started");

            // etc/ applies live: moving the HTTP listener by editing its file, no restart.
            int newPort = ControllerProcess.freePort();
            Path webCfg = home.resolve("etc/io.heliograph.webui.cfg");
            Files.writeString(webCfg,
                    Files.readString(webCfg).replace("${heliograph.http.port}", Integer.toString(newPort)));
            controller.awaitTrue(() -> httpAnswersOn(newPort), COMMAND, "HTTP to move to port " + newPort
                    + " after etc/io.heliograph.webui.cfg changed");
            assertFalse(accepts(controller.httpPort), "the old HTTP port is closed");

            // 143 = 128 + SIGTERM: the JVM's exit status after a signal, whatever the shutdown hook does.
            assertEquals(143, controller.terminate(Duration.ofSeconds(30)), "exit code after SIGTERM");
            assertTrue(controller.log().contains("INFO launcher - stopped"), "a clean stop is logged\n" + controller.log());
            assertFalse(accepts(controller.openflowPort), "the OpenFlow port is closed after the stop");
        }
    }

    @Test
    void endOfConsoleInputStopsTheController() throws Exception {
        try (ControllerProcess controller = ControllerProcess.start(assembled, scratch.resolve("data"), "--console")) {
            controller.awaitTrue(() -> answers(controller), STARTUP, "the HTTP listener");
            controller.console("lb", COMMAND);
            controller.closeConsoleInput();
            assertEquals(0, controller.awaitExit(Duration.ofSeconds(30)));
        }
    }

    @Test
    void aSecondControllerOnTheSameDataDirIsRefused() throws Exception {
        Path data = scratch.resolve("data");
        try (ControllerProcess first = ControllerProcess.start(assembled, data)) {
            first.awaitTrue(() -> answers(first), STARTUP, "the first controller's HTTP listener");
            Process second = new ProcessBuilder(ControllerProcess.javaBinary(), "-jar",
                    assembled.resolve("heliograph.jar").toString(), "--data-dir", data.toString(),
                    "--openflow-port", Integer.toString(ControllerProcess.freePort()),
                    "--http-port", Integer.toString(ControllerProcess.freePort()))
                    .redirectErrorStream(true).start();
            String out = new String(second.getInputStream().readAllBytes());
            assertEquals(2, second.waitFor(), out);
            assertTrue(out.contains("is in use by another controller (pid "), out);
            assertTrue(isUp(first) || answers(first), "the first controller still runs\n" + first.output());
        }
    }

    @Test
    void badOptionIsRefusedWithItsName() throws Exception {
        Process p = new ProcessBuilder(ControllerProcess.javaBinary(), "-jar",
                assembled.resolve("heliograph.jar").toString(), "--openflow-port", "abc")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.waitFor());
        assertTrue(out.contains("--openflow-port must be a TCP port number (1-65535), got 'abc'"), out);
    }

    @Test
    void aBusyOpenFlowPortIsRefusedBeforeStarting() throws Exception {
        try (ServerSocket busy = new ServerSocket(0)) {
            Process p = new ProcessBuilder(ControllerProcess.javaBinary(), "-jar",
                    assembled.resolve("heliograph.jar").toString(), "--data-dir", scratch.resolve("data").toString(),
                    "--openflow-port", Integer.toString(busy.getLocalPort()),
                    "--http-port", Integer.toString(ControllerProcess.freePort()))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertEquals(2, p.waitFor(), out);
            assertTrue(out.contains("--openflow-port " + busy.getLocalPort() + " cannot be used: "), out);
        }
    }

    @Test
    void dataDirThatIsAFileIsRefused() throws Exception {
        Path file = Files.writeString(scratch.resolve("not-a-dir"), "x");
        Process p = new ProcessBuilder(ControllerProcess.javaBinary(), "-jar",
                assembled.resolve("heliograph.jar").toString(), "--data-dir", file.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.waitFor());
        assertTrue(out.contains("--data-dir: " + file + " exists and is not a directory"), out);
    }

    private static boolean isUp(ControllerProcess controller) {
        try {
            HttpResponse<String> r = controller.health();
            return r != null && r.statusCode() == 200 && r.body().startsWith("{\"status\":\"UP\"");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean answers(ControllerProcess controller) {
        try {
            return controller.health() != null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean listed(ControllerProcess controller, String name) {
        try {
            return controller.bundles(COMMAND).stream().anyMatch(b -> b.name().startsWith(name));
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean activeNamed(ControllerProcess controller, String name) {
        try {
            return controller.bundles(COMMAND).stream()
                    .anyMatch(b -> b.name().startsWith(name) && b.state().equals("Active"));
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean httpAnswersOn(int port) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static long jarCount(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".jar")).count();
        }
    }

    /** Bundle-Name of every fragment in bundles/ (lb shows names; fragments stay Resolved). */
    private static Set<String> fragmentNames(Path bundles) throws IOException {
        Set<String> names = new HashSet<>();
        try (Stream<Path> files = Files.list(bundles)) {
            for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).collect(Collectors.toList())) {
                try (InputStream in = Files.newInputStream(jar); JarInputStream j = new JarInputStream(in)) {
                    Manifest m = j.getManifest();
                    if (m != null && m.getMainAttributes().getValue("Fragment-Host") != null) {
                        names.add(m.getMainAttributes().getValue("Bundle-Name"));
                    }
                }
            }
        }
        return names;
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> tree = Files.walk(from)) {
            for (Path source : tree.filter(p -> !p.startsWith(from.resolve("data"))).collect(Collectors.toList())) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }
}
