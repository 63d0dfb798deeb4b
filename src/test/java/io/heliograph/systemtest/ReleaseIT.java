package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.CleanRoot;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.CommandResult;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.ZooKeeperServerProcess;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20, a release people can install: {@code heliograph dist} (deploy/lib/dist.sh) run on the built
 * distribution writes a versioned tarball, a Debian package and a container build context.
 * <ul>
 * <li>The tarball unpacks to one folder holding the whole distribution; its bin/heliograph says the
 * version and, run from elsewhere with a data directory elsewhere, starts a controller that answers UP
 * (bin/heliograph health) and writes nothing into the unpacked folder.</li>
 * <li>The .deb, in a clean root (an overlay of this machine's root in namespaces of its own, see
 * {@link CleanRoot}; the host's dpkg database, users and /etc stay as they were, which the test
 * checks): dpkg -i makes the system user and its 750 state and log folders; the controller started
 * as the unit starts it (heliograph-service controller, as the user heliograph, without systemd)
 * passes the unit's readiness check, runs as that user from the root-owned install, logs to
 * /var/log/heliograph; a static flow is stored over REST; a newer build (a higher version) installs
 * over it keeping the edited conffile, the instance id, the administrator's password and the flow;
 * dpkg -r leaves configuration and state, dpkg -P deletes them.</li>
 * <li>The container context holds every file its Dockerfile adds (no Docker here: the image is not
 * built).</li>
 * </ul>
 * Needs root, dpkg-deb, unshare, nsenter, setpriv and overlayfs; no switches.
 */
@Timeout(300)
class ReleaseIT {

    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration COMMAND = Duration.ofSeconds(60);
    private static final Duration STOP = Duration.ofSeconds(30);
    private static final Pattern LAUNCHER_VERSION = Pattern.compile("Heliograph (\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?)");
    private static final String USER = "heliograph";
    /** How the unit starts the controller, as its user (setpriv execs: the JVM is nsenter's child). */
    private static final String[] AS_SERVICE_USER = {"setpriv", "--reuid=" + USER, "--regid=" + USER, "--init-groups",
            "--inh-caps=-all", "/usr/share/heliograph/bin/heliograph-service"};

    @TempDir
    static Path scratch;

    private static Path dist;
    private static Path logs;
    private static String version;
    private static Path tarball;
    private static Path deb;
    private static Path container;
    private static CleanRoot root;
    private static long started;

    @BeforeAll
    static void writeRelease() {
        started = System.nanoTime();
        dist = ControllerDistribution.built();
        logs = ArtifactDirectory.forTest("ReleaseIT");
        List<String> written = distScript("--out", scratch.resolve("release").toString());
        tarball = Path.of(only(written, ".tar.gz"));
        deb = Path.of(only(written, ".deb"));
        container = Path.of(only(written, "/container"));
        Matcher name = Pattern.compile("heliograph-(.+)\\.tar\\.gz").matcher(tarball.getFileName().toString());
        assertTrue(name.matches(), "the tarball is heliograph-VERSION.tar.gz: " + tarball);
        version = name.group(1);
        System.out.printf("ReleaseIT: wrote %s (%d MB), %s (%d MB) and %s in %d s%n", tarball.getFileName(),
                size(tarball) >> 20, deb.getFileName(), size(deb) >> 20, container.getFileName(), seconds());
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("ReleaseIT");
        cleanup.close("clean root", root);
        cleanup.finish();
        System.out.printf("ReleaseIT: %d s in all%n", seconds());
    }

    @Test
    void theTarballIsTheWholeDistributionAndRunsFromWhereverItIsUnpacked() throws Exception {
        Path unpacked = Files.createDirectories(scratch.resolve("unpacked"));
        Command.of("tar", "-xzf", tarball.toString(), "-C", unpacked.toString()).timeout(COMMAND).check();
        try (Stream<Path> top = Files.list(unpacked)) {
            assertEquals(List.of(unpacked.resolve("heliograph-" + version)), top.toList(),
                    "one folder, heliograph-VERSION (the Dockerfile moves heliograph-* to /opt/heliograph)");
        }
        Path home = unpacked.resolve("heliograph-" + version);
        assertEquals(files(dist, true), files(home, true), "the tarball holds the built distribution, data/ aside");

        try (Stream<Path> sdk = Files.walk(home.resolve("sdk/repository"))) {
            List<String> cores = sdk.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("heliograph-core-") && n.endsWith(".jar")).toList();
            assertEquals(1, cores.size(), "the SDK holds this build's core jar alone, not every earlier build's: " + cores);
        }

        Path launcher = home.resolve("bin/heliograph");
        assertTrue(Files.isExecutable(launcher), launcher + " is executable");
        CommandResult said = Command.of(launcher.toString(), "--version").timeout(COMMAND).check();
        Matcher v = LAUNCHER_VERSION.matcher(said.stdout().strip());
        assertTrue(v.matches(), "bin/heliograph --version: " + said);
        assertTrue(version.startsWith(v.group(1) + "+") || version.equals(v.group(1)),
                "the tarball's version " + version + " is the build's " + v.group(1) + ", with +TIMESTAMP.gCOMMIT for a snapshot");

        // the Virtue simulator runs from tools/, its Model on the solver bundle's OR-Tools (loaded beside it)
        CommandResult sim = Command.of(launcher.toString(), "virtue-sim", "web20", "--placements", "2", "--threads", "1")
                .timeout(COMMAND).check();
        assertFalse(sim.stderr().contains("left out"), "the simulator's Model found its solver: " + sim.stderr());
        assertTrue(sim.stdout().lines().anyMatch(line -> line.matches("\\| model +\\| +[-+][0-9.]+% .*")),
                "a row for the Model in web20's table: " + sim.stdout());

        // from another working directory, with the data elsewhere: relocatable
        int http = ControllerProcess.freePort();
        int openflow = ControllerProcess.freePort();
        Path data = scratch.resolve("tarball-data");
        Set<String> before = files(home, false);
        Path log = logs.resolve("tarball-controller.log");
        Process controller = new ProcessBuilder(launcher.toString(), "run", "--data-dir", data.toString(),
                "--http-port", Integer.toString(http), "--openflow-port", Integer.toString(openflow))
                .directory(scratch.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Poll.until("the controller of the unpacked tarball to say UP to bin/heliograph health (log " + log + ")",
                    STARTUP, () -> {
                        if (!controller.isAlive()) {
                            throw new AssertionError("it exited with " + controller.exitValue() + ": " + read(log));
                        }
                        return Command.of(launcher.toString(), "health", "--port", Integer.toString(http))
                                .timeout(COMMAND).run().succeeded();
                    });
            CommandResult nobody = Command.of(launcher.toString(), "health", "--port",
                    Integer.toString(ControllerProcess.freePort())).timeout(COMMAND).run();
            assertEquals(1, nobody.exitCode(), "health of a port nothing listens on fails: " + nobody);
            assertTrue(Files.isRegularFile(data.resolve("log/heliograph.log")), "the log is in the data directory");
            Properties admin = properties(data.resolve("initial-credentials"));
            CommandResult shell = Command.of(launcher.toString(), "shell", "--controller", "http://127.0.0.1:" + http,
                    "--user", admin.getProperty("username") + ":" + admin.getProperty("password"), "-c", "help loglevel")
                    .timeout(COMMAND).run();
            assertEquals(0, shell.exitCode(), "the tarball's remote shell: " + shell);
            assertTrue(shell.stdout().startsWith("loglevel [LOGGER [LEVEL|reset]]"), shell.toString());
            assertEquals(before, files(home, false), "the controller wrote nothing into the unpacked distribution");
            controller.destroy();   // SIGTERM: bin/heliograph exec'd the JVM
            assertTrue(controller.waitFor(STOP.toSeconds(), TimeUnit.SECONDS), "SIGTERM stops it");
            assertEquals(143, controller.exitValue(), "a clean stop on SIGTERM: " + tail(log));
        } finally {
            controller.destroyForcibly();
        }
        System.out.printf("ReleaseIT: the tarball unpacked, ran and stopped (%d s since the start)%n", seconds());
    }

    @Test
    void theContainerContextHoldsWhatItsDockerfileAdds() throws IOException {
        List<String> lines = Files.readAllLines(container.resolve("Dockerfile"));
        List<String> copies = lines.stream().map(String::strip)
                .filter(l -> (l.startsWith("ADD ") || l.startsWith("COPY ")) && !l.contains("--from=")).toList();
        assertFalse(copies.isEmpty(), "the Dockerfile adds the release: " + lines);
        for (String copy : copies) {
            String source = copy.split("\\s+")[1];
            assertTrue(Files.isRegularFile(container.resolve(source)), copy + ": " + source + " is in " + container);
        }
        assertEquals(size(tarball), size(container.resolve("heliograph.tar.gz")), "the context's tarball is the release's");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("USER heliograph")), "the image runs as a user of its own");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("HEALTHCHECK ") || l.contains("\"health\"")),
                "the image has a health check");
    }

    @Test
    void theDebianPackageInstallsRunsAsItsUserUpgradesKeepingItsDataAndPurges() throws Exception {
        long began = System.nanoTime();
        String debVersion = version.replace('-', '~');
        assertEquals(debVersion, Command.of("dpkg-deb", "-f", deb.toString(), "Version").check().stdout().strip());
        // the same distribution packaged as a newer build: what an upgrade installs
        Path newer = Path.of(only(distScript("--out", scratch.resolve("newer").toString(), "--only", "deb",
                "--package-version", version + ".1"), ".deb"));
        String newerVersion = debVersion + ".1";
        assertTrue(Command.of("dpkg", "--compare-versions", newerVersion, "gt", debVersion).run().succeeded());
        assertTrue(Command.of("dpkg", "--compare-versions", debVersion, "lt", "0.1.0").run().succeeded(),
                "a snapshot comes before its release");

        root = CleanRoot.start(scratch);
        root.command("dpkg", "-i", deb.toString()).timeout(COMMAND).check();

        String[] user = root.check("getent", "passwd", USER).stdout().strip().split(":");
        assertTrue(Integer.parseInt(user[2]) < 1000, "a system user: " + String.join(":", user));
        assertEquals("/var/lib/heliograph", user[5]);
        assertEquals("/usr/sbin/nologin", user[6]);
        assertEquals("heliograph:heliograph 750\nheliograph:heliograph 750", root.check("stat", "-c", "%U:%G %a",
                "/var/lib/heliograph", "/var/log/heliograph").stdout().strip(), "state and logs are the user's alone");
        assertEquals("root:root 755", root.check("stat", "-c", "%U:%G %a", "/usr/share/heliograph").stdout().strip());
        assertEquals("/etc/heliograph", Files.readSymbolicLink(root.path("/usr/share/heliograph/etc")).toString());
        assertTrue(root.check("heliograph", "--version").stdout().startsWith("Heliograph "), "/usr/bin/heliograph");
        String unit = Files.readString(root.path("/usr/lib/systemd/system/heliograph.service"));
        for (String line : List.of("User=heliograph", "ExecStart=/usr/share/heliograph/bin/heliograph-service controller",
                "ExecStartPost=/usr/share/heliograph/bin/heliograph-service ready", "Restart=on-failure", "LimitNOFILE=")) {
            assertTrue(unit.lines().anyMatch(l -> l.startsWith(line)), "heliograph.service has " + line + ":\n" + unit);
        }
        assertTrue(Files.isRegularFile(root.path("/usr/lib/systemd/system/heliograph-zookeeper@.service")));
        if (Files.isExecutable(root.path("/usr/bin/systemd-analyze"))) {
            // systemd's own reading of the units (no systemd runs here): every setting known, every command there
            CommandResult verified = root.run("systemd-analyze", "verify", "heliograph.service",
                    "heliograph-zookeeper@1.service");
            assertEquals(0, verified.exitCode(), verified.toString());
            assertEquals("", verified.stderr().strip(), "systemd-analyze verify has nothing to say of the units");
        } else {
            System.out.println("ReleaseIT: no systemd-analyze here, the units are not verified by systemd");
        }
        assertTrue(Files.readString(root.path("/var/lib/dpkg/info/heliograph.conffiles"))
                .contains("/etc/heliograph/heliograph.env"), "/etc/heliograph's files are conffiles");

        // as an administrator would: the ports in heliograph.env (a conffile the upgrade must keep)
        int http = ControllerProcess.freePort();
        int openflow = ControllerProcess.freePort();
        root.check("sed", "-i", "-e", "s/^HELIOGRAPH_HTTP_PORT=.*/HELIOGRAPH_HTTP_PORT=" + http + "/",
                "-e", "s/^HELIOGRAPH_OPENFLOW_PORT=.*/HELIOGRAPH_OPENFLOW_PORT=" + openflow + "/",
                "-e", "s/^HELIOGRAPH_READY_SECONDS=.*/HELIOGRAPH_READY_SECONDS=" + STARTUP.toSeconds() + "/",
                "/etc/heliograph/heliograph.env");

        RestClient anonymous = RestClient.anonymous(URI.create("http://127.0.0.1:" + http));
        Properties credentials;
        String instanceId;
        try (Service service = Service.controller(root, logs.resolve("deb-controller-1.log"))) {
            assertEquals(uid(root), service.uid(), "the controller runs as the user heliograph");
            assertEquals(200, anonymous.get("/api/v1/health").status());
            // health answers once the web bundle is up, which can be before the launcher logs that every bundle started
            Poll.until("the log file in /var/log/heliograph says the controller started", STARTUP,
                    () -> read(root.path("/var/log/heliograph/heliograph.log")).contains("Heliograph started"));
            credentials = properties(root.path("/var/lib/heliograph/initial-credentials"));
            // the installed remote shell, with the admin password the package's data directory holds
            CommandResult shell = root.command("heliograph", "shell", "--controller", "http://127.0.0.1:" + http,
                    "-c", "help switches").timeout(COMMAND).run();
            assertEquals(0, shell.exitCode(), "heliograph shell in the installed layout: " + shell);
            assertTrue(shell.stdout().startsWith("switches"), shell.toString());
            instanceId = read(root.path("/var/lib/heliograph/instance-id")).strip();
            RestClient admin = anonymous.withBasic(credentials.getProperty("username"), credentials.getProperty("password"));
            // the static flows app starts just after UP (hot/, start level 2)
            Poll.until("the static flows API", STARTUP, () -> admin.get("/api/v1/staticflows/flows").status() == 200);
            Map<String, Object> flow = new LinkedHashMap<>();
            flow.put("switch", "00:00:00:00:00:00:00:01");
            flow.put("name", "kept-across-upgrades");
            flow.put("priority", 1234);
            flow.put("eth_type", "0x0800");
            flow.put("actions", "output=1");
            RestClient.Response stored = admin.post("/api/v1/staticflows/flows", flow);
            assertEquals(201, stored.status(), stored.toString());
            service.stop();
        }

        root.command("dpkg", "-i", newer.toString()).timeout(COMMAND).check();
        assertEquals(newerVersion, root.check("dpkg-query", "-W", "-f=${Version}", "heliograph").stdout().strip());
        assertTrue(read(root.path("/etc/heliograph/heliograph.env")).contains("HELIOGRAPH_HTTP_PORT=" + http),
                "the upgrade kept the edited heliograph.env");
        assertEquals(instanceId, read(root.path("/var/lib/heliograph/instance-id")).strip());

        try (Service service = Service.controller(root, logs.resolve("deb-controller-2.log"))) {
            RestClient admin = anonymous.withBasic(credentials.getProperty("username"), credentials.getProperty("password"));
            RestClient.Response flows = Poll.until("the static flows API after the upgrade, with the first password",
                    STARTUP, () -> admin.get("/api/v1/staticflows/flows"), r -> r.status() == 200);
            assertTrue(flows.body().contains("\"kept-across-upgrades\""), "the flow stored before the upgrade: " + flows);
            service.stop();
        }

        // a ZooKeeper server as heliograph-zookeeper@1.service runs it (standalone: no ensemble in
        // zookeeper.env), its port in the per-server file zookeeper-1.env
        int zookeeperPort = ControllerProcess.freePort();
        root.check("sh", "-c", "echo ZOOKEEPER_PORT=" + zookeeperPort + " > /etc/heliograph/zookeeper-1.env");
        try (Service zookeeper = Service.start(root, logs.resolve("deb-zookeeper-1.log"), "zookeeper", "1")) {
            Poll.until("ZooKeeper server 1 to answer ruok on port " + zookeeperPort, STARTUP,
                    () -> ZooKeeperServerProcess.fourLetterWord(zookeeperPort, "ruok").orElse(""), "imok"::equals);
            assertEquals(uid(root), zookeeper.uid(), "the ZooKeeper server runs as the user heliograph");
            assertEquals("heliograph:heliograph", root.check("stat", "-c", "%U:%G", "/var/lib/heliograph/zookeeper-1")
                    .stdout().strip(), "its data in /var/lib/heliograph/zookeeper-1");
            assertTrue(Files.isRegularFile(root.path("/var/log/heliograph/zookeeper-1.log")), "its log file");
            zookeeper.stop();
        }

        root.command("dpkg", "-r", "heliograph").timeout(COMMAND).check();
        assertFalse(Files.exists(root.path("/usr/share/heliograph")), "remove deletes the program");
        assertFalse(Files.exists(root.path("/usr/bin/heliograph")));
        assertTrue(Files.isRegularFile(root.path("/etc/heliograph/heliograph.env")), "remove keeps the configuration");
        assertTrue(Files.isRegularFile(root.path("/var/lib/heliograph/instance-id")), "remove keeps the state");
        assertEquals("deinstall ok config-files", root.check("dpkg-query", "-W", "-f=${Status}", "heliograph")
                .stdout().strip());

        root.command("dpkg", "-P", "heliograph").timeout(COMMAND).check();
        for (String gone : List.of("/etc/heliograph", "/var/lib/heliograph", "/var/log/heliograph")) {
            assertFalse(Files.exists(root.path(gone)), "purge deletes " + gone);
        }
        assertFalse(root.run("dpkg-query", "-W", "heliograph").succeeded(), "purged: dpkg knows it no more");

        root.close();
        root = null;
        assertFalse(Files.readString(Path.of("/etc/passwd")).contains("\n" + USER + ":"), "the host has no user heliograph");
        assertFalse(Command.of("dpkg-query", "-W", "heliograph").run().succeeded(), "the host's dpkg never saw it");
        assertFalse(Files.exists(Path.of("/usr/share/heliograph")));
        System.out.printf("ReleaseIT: the .deb installed, ran, upgraded and purged in %d s%n",
                (System.nanoTime() - began) / 1_000_000_000L);
    }

    /**
     * The controller started in the root the way heliograph.service starts it, and the unit's readiness
     * check (ExecStartPost) run until it says UP.
     */
    private static final class Service implements AutoCloseable {

        private final Process nsenter;
        private final ProcessHandle jvm;
        private final Path log;

        private Service(Process nsenter, ProcessHandle jvm, Path log) {
            this.nsenter = nsenter;
            this.jvm = jvm;
            this.log = log;
        }

        /** The controller as heliograph.service runs it, once the unit's readiness check has said UP. */
        static Service controller(CleanRoot root, Path log) {
            Service service = start(root, log, "controller");
            try {
                CommandResult ready = root.command(concat(AS_SERVICE_USER, "ready")).timeout(STARTUP.plusSeconds(10)).run();
                assertEquals(0, ready.exitCode(), "the unit's readiness check: " + ready + "\ncontroller: " + tail(log));
                return service;
            } catch (RuntimeException | AssertionError e) {
                service.close();
                throw e;
            }
        }

        /** heliograph-service {@code args} as the user heliograph, in the background. */
        static Service start(CleanRoot root, Path log, String... args) {
            Process nsenter = root.startInside(log, concat(AS_SERVICE_USER, args));
            try {
                // nsenter forks once and waits; setpriv and the scripts exec, so its child becomes the JVM
                ProcessHandle jvm = Poll.until("the JVM of heliograph-service " + String.join(" ", args), COMMAND,
                        () -> {
                            if (!nsenter.isAlive()) {
                                throw new AssertionError("it exited with " + nsenter.exitValue() + ": " + tail(log));
                            }
                            return nsenter.toHandle().children().findFirst()
                                    .filter(p -> p.info().command().orElse("").endsWith("/java")).orElse(null);
                        }, p -> p != null);
                return new Service(nsenter, jvm, log);
            } catch (RuntimeException | AssertionError e) {
                nsenter.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                nsenter.destroyForcibly();
                throw e;
            }
        }

        /** The uid the JVM runs as, from /proc. */
        long uid() throws IOException {
            return Files.readAllLines(Path.of("/proc", Long.toString(jvm.pid()), "status")).stream()
                    .filter(l -> l.startsWith("Uid:")).map(l -> Long.parseLong(l.split("\\s+")[1])).findFirst()
                    .orElseThrow();
        }

        /** SIGTERM, as systemd stops it: a clean stop, exit status 143 (the units' SuccessExitStatus). */
        void stop() throws InterruptedException {
            jvm.destroy();
            assertTrue(nsenter.waitFor(STOP.toSeconds(), TimeUnit.SECONDS), "SIGTERM stops the controller");
            assertEquals(143, nsenter.exitValue(), "a clean stop: " + tail(log));
        }

        @Override
        public void close() {
            nsenter.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            nsenter.destroyForcibly();
        }
    }

    /** deploy/lib/dist.sh on the built distribution; the paths it wrote, one a line. */
    private static List<String> distScript(String... args) {
        Path script = dist.getParent().getParent().resolve("lib/dist.sh");
        String[] argv = concat(new String[] {"bash", script.toString()}, args);
        CommandResult result = Command.of(argv).env(Map.of("DIST", dist.toString())).timeout(Duration.ofSeconds(120))
                .check();
        return result.stdout().lines().filter(l -> !l.isBlank()).toList();
    }

    private static String only(List<String> lines, String suffix) {
        List<String> found = lines.stream().filter(l -> l.endsWith(suffix)).toList();
        assertEquals(1, found.size(), "one line ends with " + suffix + ": " + lines);
        return found.get(0);
    }

    private static long uid(CleanRoot root) {
        return Long.parseLong(root.check("id", "-u", USER).stdout().strip());
    }

    /** The files under {@code dir}, relative, with their sizes; data/ left out when {@code withoutData}. */
    private static Set<String> files(Path dir, boolean withoutData) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(Files::isRegularFile).filter(p -> !(withoutData && dir.relativize(p).startsWith("data")))
                    .map(p -> dir.relativize(p) + " " + size(p)).collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties properties(Path file) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(read(file)));
        return properties;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tail(Path log) {
        String text = read(log);
        return text.substring(Math.max(0, text.length() - 3000));
    }

    private static String[] concat(String[] first, String... more) {
        return Stream.concat(Stream.of(first), Stream.of(more)).toArray(String[]::new);
    }

    private static long seconds() {
        return (System.nanoTime() - started) / 1_000_000_000L;
    }
}
