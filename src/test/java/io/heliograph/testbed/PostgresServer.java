package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server (Debian's {@code postgresql} package) of the test's own: {@code initdb} makes a
 * cluster in a temporary directory, {@code pg_ctl} starts it listening on 127.0.0.1 on a free port and on a
 * socket in that directory (no system service, no systemd). PostgreSQL refuses to run as root, so when the
 * tests run as root the server's commands run as the {@code postgres} system user, which owns the directory.
 * The cluster's superuser is {@link #USER} with a random password (scram-sha-256, also on the socket, so
 * wrong credentials are refused as on a real server).
 *
 * <p>{@link #stop} ends the postmaster by its pid (SIGINT: PostgreSQL's fast shutdown, which closes client
 * connections) and waits for it to go; {@link #start} starts it again on the same data and port.
 * {@link #close} stops it and deletes the directory. The server's log is kept as a build artifact.
 */
public final class PostgresServer implements AutoCloseable {

    public static final String USER = "virtue";
    /** The system user the server runs as when the tests run as root. */
    public static final String SYSTEM_USER = "postgres";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Path bin;
    private final Path dir;
    private final Path data;
    private final Path socketDir;
    /** The server's own log, in its directory (the server user may not reach the artifact directory). */
    private final Path serverLog;
    /** Where the log is copied when the server is closed: a build artifact. */
    private final Path log;
    private final int port;
    private final String password;
    private final Thread shutdownHook;
    private long pid;

    private PostgresServer(Path bin, Path dir, Path log, int port, String password) {
        this.bin = bin;
        this.dir = dir;
        this.data = dir.resolve("data");
        this.socketDir = dir.resolve("socket");
        this.serverLog = dir.resolve("server.log");
        this.log = log;
        this.port = port;
        this.password = password;
        this.shutdownHook = new Thread(this::killQuietly, "postgres-stop-" + port);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * The newest installed server's programs: {@code /usr/lib/postgresql/<version>/bin}. Fails, saying how
     * to install them, when there are none: a test that needs PostgreSQL never passes without it.
     */
    public static Path binaries() {
        Path root = Path.of("/usr/lib/postgresql");
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> versions = Files.list(root)) {
                versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                        .forEach(found::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + root, e);
            }
        }
        return found.stream()
                .max(Comparator.comparingInt(b -> versionOf(b.getParent().getFileName().toString())))
                .orElseThrow(() -> new IllegalStateException("PostgreSQL's server programs (initdb, pg_ctl) are not "
                        + "installed under /usr/lib/postgresql/*/bin: run deploy/heliograph test, which installs the "
                        + "postgresql package with the other test packages, or apt-get install -y postgresql"));
    }

    private static int versionOf(String name) {
        try {
            return Integer.parseInt(name.replaceAll("\\..*", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Makes a cluster in a new temporary directory and starts it; its log is copied to {@code log} on closing. */
    public static PostgresServer start(Path log) {
        Path bin = binaries();
        Path dir;
        try {
            dir = Files.createTempDirectory("heliograph-postgres-");
            Files.createDirectories(log.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare a PostgreSQL directory", e);
        }
        PostgresServer server = new PostgresServer(bin, dir, log, ControllerProcess.freePort(),
                UUID.randomUUID().toString());
        try {
            server.initialise();
            server.start();
            return server;
        } catch (RuntimeException | Error e) {
            try {
                server.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private void initialise() {
        try {
            Files.createDirectories(socketDir);
            Path passwordFile = dir.resolve("password");
            Files.writeString(passwordFile, password + "\n", StandardCharsets.UTF_8);
            if (asRoot()) {
                Command.of("chown", "-R", SYSTEM_USER + ":", dir.toString()).check();
            }
            Command.of(asServerUser(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER,
                    "--pwfile=" + passwordFile, "-A", "scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync"))
                    .timeout(START_TIMEOUT).check();
            Files.delete(passwordFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
    }

    /**
     * Starts the server on its data and port (again, after {@link #stop}); returns once it accepts
     * connections ({@code pg_ctl -w}).
     */
    public synchronized void start() {
        if (pid != 0) {
            throw new IllegalStateException("PostgreSQL (pid " + pid + ") is already running");
        }
        // fsync off: a test's cluster need not survive a power cut, and the suite's disk is shared.
        String options = "-p " + port + " -k " + socketDir + " -c listen_addresses=127.0.0.1 -c fsync=off";
        CommandResult started = Command.of(asServerUser(bin.resolve("pg_ctl").toString(), "-D", data.toString(),
                        "-l", serverLog.toString(), "-o", options, "-w", "-t", Long.toString(START_TIMEOUT.toSeconds()), "start"))
                .timeout(START_TIMEOUT.plusSeconds(10)).run();
        if (!started.succeeded()) {
            throw new IllegalStateException("PostgreSQL did not start (" + started.stderr().strip() + "); its log:\n"
                    + log());
        }
        pid = postmasterPid().orElseThrow(() -> new IllegalStateException(
                "PostgreSQL started but wrote no postmaster.pid in " + data + "; log:\n" + log()));
    }

    /** Ends the postmaster by its pid with a fast shutdown (clients are disconnected) and waits until it is gone. */
    public synchronized void stop() {
        if (pid == 0) {
            return;
        }
        long stopping = pid;
        Command.of("kill", "-INT", Long.toString(stopping)).run();
        try {
            Poll.until("PostgreSQL (pid " + stopping + ") to shut down", STOP_TIMEOUT,
                    () -> !running(stopping) && !Files.exists(data.resolve("postmaster.pid")));
        } catch (AssertionError e) {
            Command.of("kill", "-KILL", Long.toString(stopping)).run();
            throw e;
        }
        pid = 0;
    }

    public synchronized boolean isRunning() {
        return pid != 0 && running(pid);
    }

    public synchronized long pid() {
        return pid;
    }

    public int port() {
        return port;
    }

    public String password() {
        return password;
    }

    /** The JDBC URL of database {@code database} on this server (TCP on loopback). */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Creates an empty database owned by {@link #USER}, through the server's socket. */
    public void createDatabase(String name) {
        if (!name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("a plain lower-case database name, not " + name);
        }
        Command.of(asServerUser(bin.resolve("psql").toString(), "-h", socketDir.toString(), "-p", Integer.toString(port),
                        "-U", USER, "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE " + name))
                .env(Map.of("PGPASSWORD", password)).check();
    }

    /** Everything the server logged so far, over all its starts. */
    public String log() {
        try {
            return Files.readString(serverLog, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + serverLog + ": " + e.getMessage() + ")";
        }
    }

    /** Stops the server (by pid), copies its log to the artifact and deletes its directory. */
    @Override
    public void close() {
        Cleanup cleanup = new Cleanup("PostgreSQL in " + dir);
        cleanup.run("stop the postmaster", this::stop);
        cleanup.run("keep the log as " + log, () -> {
            try {
                if (Files.exists(serverLog)) {
                    Files.copy(serverLog, log, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        cleanup.run("delete " + dir, () -> {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        cleanup.run("remove the shutdown hook", () -> {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting: the hook runs anyway and finds nothing to do
            }
        });
        cleanup.finish();
    }

    private synchronized void killQuietly() {
        if (pid != 0 && running(pid)) {
            Command.of("kill", "-KILL", Long.toString(pid)).run();
        }
    }

    /** The postmaster's pid: the first line of postmaster.pid. */
    private Optional<Long> postmasterPid() {
        try {
            List<String> lines = Files.readAllLines(data.resolve("postmaster.pid"), StandardCharsets.UTF_8);
            return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code pid} runs: it exists and is not a zombie (a container's pid 1 may not reap daemons). */
    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            int afterName = stat.lastIndexOf(')');
            return afterName < 0 || stat.length() <= afterName + 2 || stat.charAt(afterName + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static List<String> asServerUser(String... argv) {
        List<String> full = new ArrayList<>();
        if (asRoot()) {
            full.addAll(List.of("runuser", "-u", SYSTEM_USER, "--"));
        }
        full.addAll(List.of(argv));
        return full;
    }
}
