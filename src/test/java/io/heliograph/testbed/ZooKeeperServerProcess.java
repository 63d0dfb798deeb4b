package io.heliograph.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One real ZooKeeper server as a JVM of its own, run by the distribution's zookeeper command
 * ({@code heliograph zookeeper}: {@code java -cp heliograph.jar:lib/zookeeper/* ...ZooKeeperServerCommand}),
 * standalone or one server of a {@link ZooKeeperEnsemble}.
 *
 * <p>Its output goes to a log file kept as a build artifact. Whether it runs is the four-letter
 * command {@code ruok}, whether it serves clients is {@code srvr} (a server of an ensemble without a
 * quorum runs but does not serve). Faults are signals to its pid: {@link #stop} (SIGTERM, a clean
 * shutdown), {@link #kill} (SIGKILL), {@link #pause} / {@link #resume} (SIGSTOP / SIGCONT);
 * {@link #restart} starts it again on the same data directory and ports. Closing ends it by pid and
 * deletes its data directory.
 */
public final class ZooKeeperServerProcess implements AutoCloseable {

    /** The main class of the distribution's zookeeper command (in heliograph.jar). */
    public static final String COMMAND_CLASS = "io.heliograph.launcher.zookeeper.ZooKeeperServerCommand";
    /** A small heap and a quick start: a test server holds a few znodes. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final Pattern MODE = Pattern.compile("(?m)^Mode: (\\w+)");
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    private static final int FOUR_LETTER_TIMEOUT_MS = 2000;

    private final ControllerDistribution distribution;
    private final List<String> args;
    private final Path dataDir;
    private final int clientPort;
    private final Path log;
    private final Thread shutdownHook;
    private Process process;

    private ZooKeeperServerProcess(ControllerDistribution distribution, List<String> args, Path dataDir,
                                   int clientPort, Path log) {
        this.distribution = distribution;
        this.args = List.copyOf(args);
        this.dataDir = dataDir;
        this.clientPort = clientPort;
        this.log = log;
        this.shutdownHook = new Thread(this::endProcess, "zookeeper-stop-" + clientPort);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a standalone server of {@code distribution} on a free loopback port with a fresh data
     * directory inside the distribution, logging to {@code log}; {@code extraArgs} (e.g. "--tick-ms",
     * "50") are appended. It is not serving yet: {@link #awaitServing}.
     */
    public static ZooKeeperServerProcess standalone(ControllerDistribution distribution, Path log, String... extraArgs) {
        int port = ControllerProcess.freePort();
        Path dataDir = freshDataDir(distribution);
        List<String> args = new ArrayList<>(List.of("--port", Integer.toString(port), "--data-dir", dataDir.toString()));
        args.addAll(List.of(extraArgs));
        return start(distribution, args, dataDir, port, log);
    }

    /**
     * Starts one server with exactly {@code args} (which must name {@code dataDir} and make it listen
     * for clients on loopback port {@code clientPort}); what {@link ZooKeeperEnsemble} uses.
     */
    static ZooKeeperServerProcess start(ControllerDistribution distribution, List<String> args, Path dataDir,
                                        int clientPort, Path log) {
        ZooKeeperServerProcess server = new ZooKeeperServerProcess(distribution, args, dataDir, clientPort, log);
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(log, "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the log " + log, e);
        }
        server.launch();
        return server;
    }

    /** A new, empty directory for a server's data inside {@code distribution} (deleted with it). */
    static Path freshDataDir(ControllerDistribution distribution) {
        try {
            return Files.createTempDirectory(distribution.home(), "zookeeper-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a data directory in " + distribution.home(), e);
        }
    }

    /**
     * Runs the distribution's zookeeper command with exactly {@code args} until it exits by itself, as
     * it does when it refuses its command line; fails if it is still running after {@code timeout}.
     */
    public static CommandResult runToExit(ControllerDistribution distribution, Duration timeout, String... args) {
        return Command.of(command(distribution, List.of(args))).timeout(timeout).run();
    }

    private static List<String> command(ControllerDistribution distribution, List<String> args) {
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.addAll(JVM_OPTIONS);
        argv.add("-cp");
        argv.add(distribution.jar() + ":" + distribution.home().resolve("lib").resolve("zookeeper") + "/*");
        argv.add(COMMAND_CLASS);
        argv.addAll(args);
        return argv;
    }

    private synchronized void launch() {
        List<String> argv = command(distribution, args);
        try {
            Files.writeString(log, "# " + String.join(" ", argv) + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
            process = new ProcessBuilder(argv)
                    .directory(distribution.home().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a ZooKeeper server from " + distribution.home(), e);
        }
    }

    public int clientPort() {
        return clientPort;
    }

    /** The address clients connect to: {@code 127.0.0.1:PORT}. */
    public String connectString() {
        return "127.0.0.1:" + clientPort;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return log;
    }

    /** Everything the server printed so far, over all its starts. */
    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public synchronized long pid() {
        return process.pid();
    }

    public synchronized boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Sends a four-letter command to the client port and returns the answer, or empty if nothing
     * answers there (not started yet, stopped, paused: a paused server accepts but does not answer).
     */
    public Optional<String> fourLetterWord(String command) {
        return fourLetterWord(clientPort, command);
    }

    /** As {@link #fourLetterWord(String)}, to whatever server listens on loopback port {@code clientPort}. */
    public static Optional<String> fourLetterWord(int clientPort, String command) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), clientPort), FOUR_LETTER_TIMEOUT_MS);
            socket.setSoTimeout(FOUR_LETTER_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write(command.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Whether the server runs and answers: {@code ruok} is answered {@code imok}. */
    public boolean isRunning() {
        return fourLetterWord("ruok").map("imok"::equals).orElse(false);
    }

    /**
     * The server's mode as {@code srvr} reports it while it serves clients: "standalone", "leader" or
     * "follower"; empty while it does not serve (no quorum, starting, stopped, paused).
     */
    public Optional<String> mode() {
        return fourLetterWord("srvr").map(MODE::matcher).filter(Matcher::find).map(m -> m.group(1));
    }

    public boolean isServing() {
        return mode().isPresent();
    }

    /** Waits until the server serves clients; fails early, with its log's end, if its JVM exits. */
    public String awaitServing(Duration timeout) {
        return Poll.until("ZooKeeper server on port " + clientPort + " (log " + log + ") to serve clients", timeout,
                () -> {
                    requireAlive();
                    return mode().orElse(null);
                }, m -> m != null);
    }

    /** SIGTERM, as Ctrl-C or a service manager sends it; returns the exit status once the JVM is gone. */
    public int stop(Duration timeout) {
        Process running = current();
        running.destroy();
        return awaitExit(running, timeout);
    }

    /** SIGKILL: the server dies with no shutdown at all; returns once the JVM is gone. */
    public void kill() {
        Process running = current();
        Signals.kill(running.pid());
        awaitExit(running, STOP_GRACE);
    }

    /** SIGSTOP: the JVM freezes with its sockets open, as in a long pause; {@link #resume} continues it. */
    public void pause() {
        Signals.stop(pid());
    }

    /** SIGCONT after {@link #pause}. */
    public void resume() {
        Signals.resume(pid());
    }

    /** Starts the server again with the same command line: the same data directory and ports. */
    public synchronized void restart() {
        if (process.isAlive()) {
            throw new IllegalStateException("the ZooKeeper server on port " + clientPort + " (pid " + process.pid()
                    + ") still runs: stop or kill it before restarting it");
        }
        launch();
    }

    private synchronized Process current() {
        return process;
    }

    private int awaitExit(Process running, Duration timeout) {
        try {
            if (!running.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the ZooKeeper server (pid " + running.pid() + ") did not exit within "
                        + timeout + "; log ends:\n" + logTail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return running.exitValue();
    }

    private String logTail() {
        String text = log();
        return text.substring(Math.max(0, text.length() - 4000));
    }

    private void requireAlive() {
        Process running = current();
        if (!running.isAlive()) {
            throw new IllegalStateException("the ZooKeeper server JVM exited with " + running.exitValue()
                    + "; log ends:\n" + logTail());
        }
    }

    /** Ends the JVM by its pid: SIGCONT (in case it is paused), SIGTERM, then SIGKILL. */
    private void endProcess() {
        Process running = current();
        if (running == null || !running.isAlive()) {
            return;
        }
        try {
            Signals.resume(running.pid()); // a paused JVM would hold SIGTERM until the grace runs out
        } catch (RuntimeException exitedMeanwhile) {
            // nothing left to end
        }
        running.destroy();
        try {
            if (!running.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                running.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the server by its pid and deletes its data directory. */
    @Override
    public void close() {
        endProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // closing from the hook itself
        }
        if (Files.exists(dataDir)) {
            try (Stream<Path> paths = Files.walk(dataDir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete the ZooKeeper data directory " + dataDir, e);
            }
        }
    }
}
