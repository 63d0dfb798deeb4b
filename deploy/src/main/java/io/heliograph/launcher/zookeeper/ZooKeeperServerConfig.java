package io.heliograph.launcher.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The zoo.cfg (and, in an ensemble, the myid) of one server, written into its data directory at each
 * start from the command line, so that what runs is always what the command line says.
 */
public final class ZooKeeperServerConfig {

    public static final String CONFIG_FILE = "zoo.cfg";
    public static final String MYID_FILE = "myid";
    /** The four-letter commands a monitor or test may send to the client port; the rest stay off. */
    public static final String FOUR_LETTER_WORDS = "ruok,srvr,mntr,stat";
    static final int MAX_SESSION_TIMEOUT_MS = 60_000;
    /** Time a follower has to connect to and sync with a new leader; a large data set needs long. */
    static final int INIT_LIMIT_MS = 10_000;
    /** Silence after which leader and follower give up on each other (a paused or cut-off server). */
    static final int SYNC_LIMIT_MS = 2_000;
    static final String LOOPBACK = "127.0.0.1";

    private final ZooKeeperServerOptions options;
    private final Path dataDir;

    public ZooKeeperServerConfig(ZooKeeperServerOptions options, Path dataDir) {
        this.options = options;
        this.dataDir = dataDir;
    }

    /** The settings of zoo.cfg, in the file's order. */
    public Map<String, String> settings() {
        int tick = options.tickMs();
        Map<String, String> s = new LinkedHashMap<>();
        s.put("tickTime", Integer.toString(tick));
        s.put("minSessionTimeout", Integer.toString(2 * tick));
        s.put("maxSessionTimeout", Integer.toString(MAX_SESSION_TIMEOUT_MS));
        s.put("dataDir", dataDir.toString());
        s.put("clientPort", Integer.toString(options.port()));
        s.put("clientPortAddress", options.standalone() ? LOOPBACK : options.self().host());
        // No limit on all connections together (the default, but ZooKeeper warns when it is not said).
        s.put("maxCnxns", "0");
        if (!options.standalone()) {
            s.put("initLimit", Integer.toString(ticks(INIT_LIMIT_MS, 10)));
            s.put("syncLimit", Integer.toString(ticks(SYNC_LIMIT_MS, 2)));
            for (int i = 0; i < options.ensemble().size(); i++) {
                s.put("server." + (i + 1), options.ensemble().get(i).quorumAddress());
            }
        }
        // ZooKeeper's default metrics need Dropwizard Metrics; mntr still answers without them.
        s.put("metricsProvider.className", "org.apache.zookeeper.metrics.impl.NullMetricsProvider");
        // Keys ZooKeeper does not know itself become system properties "zookeeper.<key>".
        s.put("admin.enableServer", "false");
        s.put("4lw.commands.whitelist", FOUR_LETTER_WORDS);
        // Bounded disk: keep the last 3 snapshots and their logs, purge every hour.
        s.put("autopurge.snapRetainCount", "3");
        s.put("autopurge.purgeInterval", "1");
        return s;
    }

    /** Writes zoo.cfg (and myid for an ensemble) into the data directory and returns zoo.cfg's path. */
    public Path write() throws IOException {
        if (!options.standalone()) {
            writeMyid();
        }
        StringBuilder text = new StringBuilder("# Written by 'heliograph zookeeper' at each start from its command line:"
                + " edits here are overwritten.\n");
        settings().forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        Path file = dataDir.resolve(CONFIG_FILE);
        writeAtomically(file, text.toString());
        return file;
    }

    /**
     * myid says which server of the ensemble a data directory holds; a directory that held another
     * server's data is refused, since serving it as this one would mix two servers' histories.
     */
    private void writeMyid() throws IOException {
        Path file = dataDir.resolve(MYID_FILE);
        String id = Integer.toString(options.serverId());
        if (Files.exists(file)) {
            String existing = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!existing.equals(id)) {
                throw new IOException(dataDir + " holds the data of server " + existing + " (" + file + "), not of --server-id "
                        + id + ": give each server its own --data-dir");
            }
            return;
        }
        writeAtomically(file, id + "\n");
    }

    private int ticks(int millis, int atLeast) {
        return Math.max(atLeast, (millis + options.tickMs() - 1) / options.tickMs());
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path temporary = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        try {
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
