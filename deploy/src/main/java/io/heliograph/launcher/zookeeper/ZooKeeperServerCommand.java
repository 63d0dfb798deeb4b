package io.heliograph.launcher.zookeeper;

import java.io.IOException;
import java.net.BindException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.apache.zookeeper.Version;
import org.apache.zookeeper.server.DatadirCleanupManager;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.apache.zookeeper.server.admin.AdminServer.AdminServerException;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig.ConfigException;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

import io.heliograph.launcher.DataDirectoryLock;
import io.heliograph.launcher.Distribution;
import io.heliograph.launcher.LaunchOptions.UsageException;
import io.heliograph.launcher.LaunchOptions.LogFormat;
import io.heliograph.launcher.LauncherLog;
import io.heliograph.launcher.Main;

/**
 * {@code heliograph zookeeper [options]}: one real ZooKeeper server in the foreground, standalone or
 * one server of an ensemble, from the jars in the distribution's lib/zookeeper/ (not on heliograph.jar's
 * own class path: the controller embeds its own copy in the cluster bundle). It writes zoo.cfg and myid
 * into the data directory and runs ZooKeeper's own server classes on them; SIGTERM or Ctrl-C shuts the
 * server down before the JVM exits.
 */
public final class ZooKeeperServerCommand {

    /** The data directory under the distribution's data/ when --data-dir is not given. */
    public static final String DEFAULT_DATA_DIR = "zookeeper-server";
    /** The log file's name in the data directory's log folder: zookeeper.log. */
    static final String LOG_FILE = "zookeeper";

    private ZooKeeperServerCommand() {
    }

    public static void main(String[] args) {
        // ZooKeeper's threads are not all daemons: exit explicitly once the server is done.
        System.exit(run(args));
    }

    static int run(String[] args) {
        ZooKeeperServerOptions options;
        try {
            options = ZooKeeperServerOptions.parse(args);
        } catch (UsageException e) {
            System.err.println("heliograph zookeeper: " + e.getMessage());
            System.err.println("Try --help.");
            return 2;
        }
        if (options.help()) {
            System.out.println(ZooKeeperServerOptions.USAGE);
            return 0;
        }

        Distribution distribution = Distribution.locate();

        Path dataDir;
        DataDirectoryLock lock;
        Path configFile;
        try {
            dataDir = Main.prepareDataDir(options.dataDir().orElse(
                    distribution.defaultDataDir().resolve(DEFAULT_DATA_DIR)));
            lock = DataDirectoryLock.acquire(dataDir, "ZooKeeper server");
            configFile = new ZooKeeperServerConfig(options, dataDir).write();
        } catch (IOException e) {
            System.err.println("heliograph zookeeper: --data-dir: " + e.getMessage());
            return 2;
        }
        LauncherLog log;
        try {
            log = LauncherLog.configure(distribution.logConfiguration(), dataDir, LOG_FILE, Optional.empty(),
                    LogFormat.TEXT);
        } catch (IOException e) {
            System.err.println("heliograph zookeeper: " + e.getMessage());
            try {
                lock.close();
            } catch (IOException closing) {
                System.err.println("heliograph zookeeper: releasing the lock of " + dataDir + ": " + closing);
            }
            return 2;
        }
        try {
            return serve(options, dataDir, configFile, log);
        } finally {
            try {
                lock.close();
            } catch (IOException e) {
                log.log("warn", "zookeeper", "releasing the lock of " + dataDir + ": " + e, null);
            }
        }
    }

    private static int serve(ZooKeeperServerOptions options, Path dataDir, Path configFile, LauncherLog log) {
        // Set when the server has ended by itself: the shutdown hook then has nothing to stop.
        AtomicBoolean finished = new AtomicBoolean();
        DatadirCleanupManager purge = null;
        try {
            Server server;
            if (options.standalone()) {
                ServerConfig config = new ServerConfig();
                config.parse(configFile.toString());
                server = new Standalone(config, log);
            } else {
                QuorumPeerConfig config = new QuorumPeerConfig();
                config.parse(configFile.toString());
                server = new EnsembleServer(config);
                info(log, "ZooKeeper " + version() + " server " + options.serverId() + " of "
                        + options.ensemble().size() + ": clients on " + options.self().clientAddress()
                        + ", quorum " + options.self().quorumAddress() + ", ensemble " + options.ensemble().stream()
                                .map(EnsembleMember::toString).collect(Collectors.joining(","))
                        + ", tick " + options.tickMs() + " ms, data " + dataDir);
            }
            purge = new DatadirCleanupManager(dataDir.toFile(), dataDir.toFile(), 3, 1);
            purge.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                if (!finished.get()) {
                    server.stop();
                    info(log, "ZooKeeper server stopped");
                }
            }, "zookeeper-shutdown"));
            server.run();
            return 0;
        } catch (ConfigException e) {
            System.err.println("heliograph zookeeper: ZooKeeper refused the configuration in " + configFile + ": "
                    + e.getMessage() + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""));
            return 2;
        } catch (IOException | AdminServerException e) {
            Throwable cause = e;
            while (cause.getCause() != null && !(cause instanceof BindException)) {
                cause = cause.getCause();
            }
            if (cause instanceof BindException) {
                System.err.println("heliograph zookeeper: " + (options.standalone() ? "--port " + options.port()
                        : "--ensemble, server " + options.serverId() + " (" + options.self() + ")")
                        + ": cannot listen: " + cause.getMessage() + " (is another server running there?)");
                return 2;
            }
            log.log("error", "zookeeper", "the ZooKeeper server failed: " + e, e);
            return 1;
        } catch (RuntimeException | LinkageError e) {
            log.log("error", "zookeeper", "the ZooKeeper server failed: " + e, e);
            return 1;
        } finally {
            finished.set(true);
            if (purge != null) {
                purge.shutdown();
            }
        }
    }

    /** "3.9.3" of "3.9.3-c26634f3..., built on ...". */
    private static String version() {
        return Version.getFullVersion().split("[-,]", 2)[0];
    }

    private static void info(LauncherLog log, String message) {
        log.log("info", "zookeeper", message, null);
    }

    /** One server, run in the calling thread until stopped. */
    private interface Server {
        void run() throws IOException, AdminServerException;

        void stop();
    }

    private static final class Standalone extends ZooKeeperServerMain implements Server {
        private final ServerConfig config;
        private final LauncherLog log;

        Standalone(ServerConfig config, LauncherLog log) {
            this.config = config;
            this.log = log;
        }

        @Override
        public void run() throws IOException, AdminServerException {
            runFromConfig(config);
        }

        @Override
        protected void serverStarted() {
            info(log, "ZooKeeper " + version() + " listening for clients on "
                    + config.getClientPortAddress().getAddress().getHostAddress() + ":" + getClientPort()
                    + " (standalone, tick " + config.getTickTime() + " ms, data " + config.getDataDir() + ")");
        }

        @Override
        public void stop() {
            close();
        }
    }

    private static final class EnsembleServer extends QuorumPeerMain implements Server {
        private final QuorumPeerConfig config;

        EnsembleServer(QuorumPeerConfig config) {
            this.config = config;
        }

        @Override
        public void run() throws IOException, AdminServerException {
            runFromConfig(config);
        }

        @Override
        public void stop() {
            close();
        }
    }
}
