package io.heliograph.cluster.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.zookeeper.server.PurgeTxnLog;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node ZooKeeper server in this JVM, for a controller started without {@code --zookeeper}:
 * its data in one directory (so the shared store survives restarts), listening on 127.0.0.1 only
 * (on a free port when asked for port 0, so two controllers on one machine never collide), no admin
 * server, and four-letter commands limited to {@code ruok, srvr, mntr}.
 *
 * <p>ZooKeeper grants a session timeout between 2 and 20 ticks; the tick is chosen from the
 * session timeout the client will ask for ({@link #tickFor}) and those bounds set so that the
 * negotiated timeout is exactly the configured one.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    /** Snapshots (and their transaction logs) kept at each start; older ones are purged. */
    static final int SNAPSHOTS_KEPT = 3;
    static final String FOUR_LETTER_WORDS_PROPERTY = "zookeeper.4lw.commands.whitelist";
    static final String FOUR_LETTER_WORDS = "ruok,srvr,mntr";
    /** Client connections the server accepts: this controller's, and a few of operators' tools. */
    static final String MAX_CONNECTIONS_PROPERTY = "zookeeper.maxCnxns";
    static final String MAX_CONNECTIONS = "100";
    /** Connections from one client address (0: no limit of its own; the total limit applies). */
    private static final int MAX_CLIENT_CONNECTIONS = 0;
    private static final int LISTEN_BACKLOG = -1;

    private final Path dataDir;
    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;
    private final FileTxnSnapLog storage;
    private final int port;

    private EmbeddedZooKeeper(Path dataDir, ZooKeeperServer server, ServerCnxnFactory connections,
                              FileTxnSnapLog storage) {
        this.dataDir = dataDir;
        this.server = server;
        this.connections = connections;
        this.storage = storage;
        this.port = connections.getLocalPort();
    }

    /**
     * Starts a server on 127.0.0.1:{@code port} (0: any free port) keeping its data in {@code dataDir},
     * granting exactly {@code sessionTimeoutMs} to a client that asks for it.
     */
    public static EmbeddedZooKeeper start(Path dataDir, int port, int sessionTimeoutMs)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        Files.createDirectories(dataDir);
        // ZooKeeper reads these from system properties only; the JVM's own -D values win
        setIfAbsent(FOUR_LETTER_WORDS_PROPERTY, FOUR_LETTER_WORDS);
        setIfAbsent(MAX_CONNECTIONS_PROPERTY, MAX_CONNECTIONS);
        PurgeTxnLog.purge(dataDir.toFile(), dataDir.toFile(), SNAPSHOTS_KEPT);
        int tick = tickFor(sessionTimeoutMs);
        FileTxnSnapLog storage = new FileTxnSnapLog(dataDir.toFile(), dataDir.toFile());
        ZooKeeperServer server = new ZooKeeperServer(storage, tick, 2 * tick,
                Math.max(20 * tick, sessionTimeoutMs), LISTEN_BACKLOG, null, "");
        ServerCnxnFactory connections = ServerCnxnFactory.createFactory();
        try {
            connections.configure(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                    MAX_CLIENT_CONNECTIONS, LISTEN_BACKLOG, false);
            connections.startup(server);
        } catch (IOException | InterruptedException | RuntimeException e) {
            connections.shutdown();
            server.shutdown();
            storage.close();
            throw e;
        }
        EmbeddedZooKeeper started = new EmbeddedZooKeeper(dataDir, server, connections, storage);
        LOG.info("embedded ZooKeeper on {} (data {}, tick {} ms, sessions {}-{} ms) started in {} ms",
                started.connectString(), dataDir, tick, server.getMinSessionTimeout(), server.getMaxSessionTimeout(),
                (System.nanoTime() - start) / 1_000_000);
        return started;
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    /**
     * A tick that lets the server grant {@code sessionTimeoutMs} (at least 2 ticks) and detect dead
     * clients promptly, but no longer than ZooKeeper's usual 2 s.
     */
    static int tickFor(int sessionTimeoutMs) {
        return Math.max(1, Math.min(2000, sessionTimeoutMs / 2));
    }

    public int port() {
        return port;
    }

    public String connectString() {
        return InetAddress.getLoopbackAddress().getHostAddress() + ":" + port();
    }

    public Path dataDir() {
        return dataDir;
    }

    public int tickTime() {
        return server.getTickTime();
    }

    public int minSessionTimeout() {
        return server.getMinSessionTimeout();
    }

    public int maxSessionTimeout() {
        return server.getMaxSessionTimeout();
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /** Stops the server; sessions of connected clients end with it. */
    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
        try {
            storage.close();
        } catch (IOException e) {
            LOG.warn("closing the embedded ZooKeeper's data in {}: {}", dataDir, e.toString());
        }
        LOG.info("embedded ZooKeeper on {} stopped", connectString());
    }
}
