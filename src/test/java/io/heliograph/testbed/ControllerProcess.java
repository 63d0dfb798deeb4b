package io.heliograph.testbed;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Heliograph controller running from a distribution as a separate JVM, the way an operator runs
 * it: {@code java -jar heliograph.jar --openflow-port P --http-port H --data-dir D --console}.
 *
 * <p>Its stdout and stderr go to a log file that is kept as a build artifact; its stdin is the Gogo
 * console. Readiness is {@code GET /api/v1/health} answering {@code "status":"UP"}; closing ends the
 * JVM by its pid (SIGTERM, then SIGKILL). A launch that is meant to be refused runs to its end with
 * {@link #runToExit}.
 */
public final class ControllerProcess implements AutoCloseable {

    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final Pattern SWITCHES = Pattern.compile("\"switches\"\\s*:\\s*(\\d+)");
    private static final Pattern LB_DONE = Pattern.compile("START LEVEL \\d+.*?\\ng! ", Pattern.DOTALL);
    /** What Gogo prints when a command throws, then its next prompt. */
    private static final Pattern CONSOLE_FAILED = Pattern.compile("gogo: [^\\n]*\\ng! ");
    private static final Pattern SCR_LIST_DONE = Pattern.compile("\\S+ in bundle \\d+ .*?\\ng! ", Pattern.DOTALL);
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    /** Every port {@link #freePort} returned in this JVM. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    private static final int[] LISTEN_RANGE = listenRange();

    private final Process process;
    private final OutputStream console;
    private final Path log;
    private final Path dataDir;
    private final int openflowPort;
    private final int httpPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Thread shutdownHook;
    private volatile boolean paused;

    private ControllerProcess(Process process, Path log, Path dataDir, int openflowPort, int httpPort) {
        this.process = process;
        this.console = process.getOutputStream();
        this.log = log;
        this.dataDir = dataDir;
        this.openflowPort = openflowPort;
        this.httpPort = httpPort;
        this.shutdownHook = new Thread(this::close, "controller-stop-" + process.pid());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts the controller of {@code distribution} on free ports with a fresh data directory inside
     * it, logging to {@code log}; {@code extraArgs} are appended to the command line.
     */
    public static ControllerProcess start(ControllerDistribution distribution, Path log, String... extraArgs) {
        return startWithJvmOptions(distribution, log, List.of(), extraArgs);
    }

    /**
     * As {@link #start(ControllerDistribution, Path, String...)}, the controller's JVM started with
     * {@code jvmOptions} before {@code -jar}, e.g. {@code -Xmx1g} for a test that bounds its heap.
     */
    public static ControllerProcess startWithJvmOptions(ControllerDistribution distribution, Path log,
            List<String> jvmOptions, String... extraArgs) {
        int openflowPort = freePort();
        int httpPort = freePort();
        while (httpPort == openflowPort) {
            httpPort = freePort();
        }
        Path dataDir;
        try {
            dataDir = Files.createTempDirectory(distribution.home(), "data-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a data directory in " + distribution.home(), e);
        }
        return start(distribution, log, jvmOptions, openflowPort, httpPort, dataDir, extraArgs);
    }

    /**
     * Starts the controller of {@code distribution} on the given ports and data directory: to start a
     * controller again after {@code previous} has exited, pass {@code previous.openflowPort()},
     * {@code previous.httpPort()} and {@code previous.dataDir()}, so its switches reconnect by
     * themselves and it finds the state it persisted. {@code log} is overwritten: give each controller its own.
     */
    public static ControllerProcess start(ControllerDistribution distribution, Path log, int openflowPort, int httpPort,
            Path dataDir, String... extraArgs) {
        return start(distribution, log, List.of(), openflowPort, httpPort, dataDir, extraArgs);
    }

    private static ControllerProcess start(ControllerDistribution distribution, Path log, List<String> jvmOptions,
            int openflowPort, int httpPort, Path dataDir, String... extraArgs) {
        try {
            Files.createDirectories(log.getParent());
            List<String> argv = launcher(distribution, jvmOptions, "--openflow-port", Integer.toString(openflowPort),
                    "--http-port", Integer.toString(httpPort), "--data-dir", dataDir.toString(), "--console");
            argv.addAll(List.of(extraArgs));
            Files.writeString(log, "# " + String.join(" ", argv) + "\n");
            Process process = new ProcessBuilder(argv)
                    .directory(distribution.home().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new ControllerProcess(process, log, dataDir, openflowPort, httpPort);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the controller from " + distribution.home(), e);
        }
    }

    /**
     * Runs the launcher of {@code distribution} with exactly {@code args} (no ports, data directory or
     * console added) until it exits by itself, as it does when it refuses to start; its exit code and
     * what it printed are the result. Fails if it is still running after {@code timeout}.
     */
    public static CommandResult runToExit(ControllerDistribution distribution, Duration timeout, String... args) {
        return Command.of(launcher(distribution, List.of(), args)).timeout(timeout).run();
    }

    private static List<String> launcher(ControllerDistribution distribution, List<String> jvmOptions, String... args) {
        List<String> argv = new ArrayList<>(List.of(javaExecutable()));
        argv.addAll(jvmOptions);
        argv.addAll(List.of("-jar", distribution.jar().toString()));
        argv.addAll(List.of(args));
        return argv;
    }

    /**
     * A port free now on loopback, never one this JVM handed out before: system-test classes run two at a
     * time, and a port one class has been handed may not be bound yet. It is taken outside the kernel's
     * ephemeral range (net.ipv4.ip_local_port_range), so that no outgoing connection of any process (a
     * ZooKeeper client, the browser, a switch) can be given it before the controller binds it, as one
     * CI run saw with a port from that range ("--http-port ... Address already in use").
     */
    public static int freePort() {
        int[] range = LISTEN_RANGE;
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(range[0], range[1] + 1);
            if (HANDED_OUT.contains(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                // in use: another
            }
        }
        throw new IllegalStateException("no loopback port free in " + range[0] + "-" + range[1]
                + " that this JVM has not handed out already, after 1000 attempts (" + HANDED_OUT.size() + " handed out)");
    }

    /**
     * Ports for listeners: above the ephemeral range where it leaves room (Linux's default range ends at
     * 60999), else below it. The range is read line by line: procfs files report no size, and a read
     * sized by it ({@code Files.readString}) gets only the first byte.
     */
    private static int[] listenRange() {
        int low = 32_768;
        int high = 60_999;
        try {
            String[] ephemeral = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim()
                    .split("\\s+");
            int readLow = Integer.parseInt(ephemeral[0]);
            int readHigh = Integer.parseInt(ephemeral[1]);
            low = readLow;
            high = readHigh;
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: Linux's default range
        }
        return 65_535 - high >= 2_000 ? new int[] {high + 1, 65_535} : new int[] {10_000, low - 1};
    }

    /** Whether something accepts a TCP connection on loopback port {@code port} now. */
    public static boolean acceptsConnections(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public int openflowPort() {
        return openflowPort;
    }

    public int httpPort() {
        return httpPort;
    }

    /** The data directory given with {@code --data-dir}: fresh for this controller unless it was passed to {@code start}. */
    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return log;
    }

    /** Everything the controller printed so far (log and console output). */
    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The log's length now: pass it to {@link #awaitLog} to look only at what comes after. */
    public int logMark() {
        return log().length();
    }

    /**
     * Waits until the log after {@code mark} matches {@code pattern} and returns the match; fails early
     * if the JVM dies.
     */
    public Matcher awaitLog(Pattern pattern, int mark, Duration timeout) {
        Matcher found = Poll.until("controller log to show /" + pattern + "/", timeout, () -> {
            requireAlive();
            String text = log();
            Matcher m = pattern.matcher(text.substring(Math.min(mark, text.length())));
            return m.find() ? m : null;
        }, m -> m != null);
        return found;
    }

    /** Sends one line to the Gogo console. */
    public void console(String command) {
        try {
            console.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            console.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to the controller console (pid " + pid() + ")", e);
        }
    }

    /** Sends a console command and returns the log text after it once {@code expected} appears there. */
    public String console(String command, Pattern expected, Duration timeout) {
        int mark = logMark();
        console(command);
        awaitLog(expected, mark, timeout);
        return log().substring(mark);
    }

    /** The bundles as the console's {@code lb} lists them now. */
    public BundleList bundles(Duration timeout) {
        // lb prints "START LEVEL n", the rows, then the next prompt
        return BundleList.parse(listing("lb", LB_DONE, timeout));
    }

    /** The components as the console's {@code scr:list} shows them now. */
    public ComponentList components(Duration timeout) {
        return ComponentList.parse(listing("scr:list", SCR_LIST_DONE, timeout));
    }

    /**
     * The listing a console command prints, up to the next prompt. A command can fail instead of
     * listing (lb while a bundle is being uninstalled: "gogo: IllegalStateException: Module has been
     * uninstalled"); that is an {@link IllegalStateException}, which {@link Poll} takes as a probe to retry.
     */
    private String listing(String command, Pattern listed, Duration timeout) {
        Pattern listedOrFailed = Pattern.compile(listed.pattern() + "|" + CONSOLE_FAILED.pattern(), Pattern.DOTALL);
        String output = console(command, listedOrFailed, timeout);
        Matcher m = listed.matcher(output);
        if (m.find()) {
            return m.group();
        }
        Matcher failed = CONSOLE_FAILED.matcher(output);
        throw new IllegalStateException("the console's " + command + " failed: "
                + (failed.find() ? failed.group().strip() : output));
    }

    /**
     * The administrator's credentials the controller generated on its first start, read from
     * {@code <data-dir>/initial-credentials} as an operator would; waits until the file is written.
     */
    public Credentials credentials(Duration timeout) {
        Path file = dataDir.resolve("initial-credentials");
        String text = Poll.until(file + " to be written", timeout, () -> {
            requireAlive();
            try {
                return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, t -> t != null && t.contains("password="));
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Credentials(properties.getProperty("username"), properties.getProperty("password"));
    }

    /** A REST client of this controller's HTTP port, authenticated as the administrator. */
    public RestClient rest() {
        Credentials admin = credentials(Duration.ofSeconds(60));
        return RestClient.anonymous(URI.create("http://127.0.0.1:" + httpPort)).withBasic(admin.user(), admin.password());
    }

    /** A REST client of this controller's HTTP port without credentials. */
    public RestClient anonymousRest() {
        return RestClient.anonymous(URI.create("http://127.0.0.1:" + httpPort));
    }

    /** The health resource's answer now, or empty while the controller does not answer. */
    public Optional<Health> health() {
        return healthOn(httpPort);
    }

    /**
     * The health resource's answer on HTTP port {@code port} now, or empty while nothing answers 200
     * there: for a controller whose etc/ has moved its HTTP listener away from {@link #httpPort}.
     */
    public Optional<Health> healthOn(int port) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/health"))
                            .timeout(Duration.ofSeconds(3)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            Matcher status = STATUS.matcher(response.body());
            Matcher switches = SWITCHES.matcher(response.body());
            if (!status.find() || !switches.find()) {
                throw new IllegalStateException("health answer without status and switches: " + response.body());
            }
            return Optional.of(new Health(status.group(1), Integer.parseInt(switches.group(1))));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the controller reports UP; fails with the log's end if the JVM exits first. */
    public Health awaitHealthy(Duration timeout) {
        return Poll.until("controller (pid " + pid() + ", log " + log + ") to report UP on /api/v1/health", timeout,
                () -> {
                    requireAlive();
                    return health().orElse(null);
                }, h -> h != null && h.up());
    }

    /**
     * Waits until an app's REST path answers 200. UP on /api/v1/health says the OpenFlow layer and the
     * HTTP server are running; the profile's apps may still be activating then, so a test that needs
     * one (Virtue needs the static flows app to start an experiment) waits for its path.
     */
    public void awaitApi(String path, Duration timeout) {
        RestClient rest = rest();
        Poll.until(path + " to answer 200 on the controller (pid " + pid() + ", log " + log + ")", timeout, () -> {
            requireAlive();
            return rest.get(path).status();
        }, status -> status == 200);
    }

    /** Waits until exactly {@code count} switches are connected. */
    public Health awaitSwitches(int count, Duration timeout) {
        return Poll.until(count + " switches connected to the controller", timeout, () -> {
            requireAlive();
            return health().orElse(null);
        }, h -> h != null && h.switches() == count);
    }

    /** End of input on the console, as when a script piped into {@code --console} ends. */
    public void closeConsole() {
        try {
            console.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the controller console (pid " + pid() + ")", e);
        }
    }

    /** Waits until the JVM exits by itself and returns its exit status. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the controller (pid " + pid() + ") did not exit within " + timeout
                        + "; log ends:\n" + logTail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return process.exitValue();
    }

    /**
     * SIGTERM only, as a service manager or Ctrl-C sends it, with the console left open so that only the
     * signal can be what stops it; returns the exit status once the JVM has exited.
     */
    public int terminate(Duration timeout) {
        process.destroy();
        return awaitExit(timeout);
    }

    private String logTail() {
        String text = log();
        return text.substring(Math.max(0, text.length() - 4000));
    }

    private void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("the controller JVM exited with " + process.exitValue() + "; log ends:\n"
                    + logTail());
        }
    }

    /** SIGKILL, as a crash: nothing of the controller runs after it; returns once the JVM is gone. */
    public void kill() {
        Signals.kill(process.pid());
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("controller " + process.pid() + " still runs after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGSTOP: the JVM freezes (no thread runs, its sockets stay open) until {@link #resume()}. */
    public void pause() {
        Signals.stop(process.pid());
        paused = true;
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        Signals.resume(process.pid());
        paused = false;
    }

    /** Ends the JVM by its pid: SIGTERM (the launcher stops the framework cleanly), then SIGKILL. */
    @Override
    public void close() {
        try {
            console.close();
        } catch (IOException ignored) {
            // the console may already be gone with the JVM
        }
        if (paused && process.isAlive()) {
            resume(); // a stopped JVM would hold SIGTERM until the grace runs out
        }
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // closing from the hook itself
        }
    }

    /** A user name and password of the REST API. */
    public record Credentials(String user, String password) {
    }

    /** What /api/v1/health says. */
    public record Health(String status, int switches) {
        public boolean up() {
            return "UP".equals(status);
        }
    }
}
