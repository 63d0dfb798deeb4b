package io.heliograph.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.osgi.framework.FrameworkEvent;

/**
 * {@code java -jar heliograph.jar [options]}: runs one controller in the foreground until SIGTERM,
 * Ctrl-C, or the console stops it.
 */
public final class Main {

    /** The log file's name: heliograph.log in the log folder. */
    static final String LOG_FILE = "heliograph";

    /** Netty's leak detector level, a system property Netty reads once. */
    static final String NETTY_LEAK_DETECTION = "io.netty.leakDetection.level";

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Netty's leak detector, on by default (SIMPLE), wraps a sample of the buffers it hands out, and
     * the OpenFlow path's buffer calls then see two classes instead of one and are no longer
     * inlined: the controller answered 1.23 times as many packet-ins without it
     * (docs/performance.md). So a controller runs without it unless {@code -D} names a level
     * ({@code JAVA_OPTS=-Dio.netty.leakDetection.level=paranoid} to hunt a leak). The unit tests,
     * which run the OpenFlow server in their own JVM, keep Netty's default.
     */
    /** The version the build wrote into heliograph.jar's manifest; "unknown" when run from classes (tests). */
    static String version() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "unknown (not run from heliograph.jar)" : version;
    }

    static void leakDetectionOffUnlessAsked(java.util.Properties system) {
        if (system.getProperty(NETTY_LEAK_DETECTION) == null) {
            system.setProperty(NETTY_LEAK_DETECTION, "disabled");
        }
    }

    static int run(String[] args) {
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(args);
        } catch (LaunchOptions.UsageException e) {
            System.err.println("heliograph: " + e.getMessage());
            System.err.println("Try --help.");
            return 2;
        }
        if (options.help()) {
            System.out.println(LaunchOptions.USAGE);
            return 0;
        }
        if (options.version()) {
            System.out.println("Heliograph " + version());
            return 0;
        }

        long started = System.nanoTime();
        leakDetectionOffUnlessAsked(System.getProperties());
        Distribution distribution = Distribution.locate();

        try {
            requireFree("--openflow-port", options.openflowPort());
            requireFree("--http-port", options.httpPort());
        } catch (IOException e) {
            System.err.println("heliograph: " + e.getMessage());
            return 2;
        }

        Path dataDir;
        DataDirectoryLock lock;
        try {
            dataDir = prepareDataDir(options.dataDir().orElse(distribution.defaultDataDir()));
            lock = DataDirectoryLock.acquire(dataDir);
        } catch (IOException e) {
            System.err.println("heliograph: --data-dir: " + e.getMessage());
            return 2;
        }
        LauncherLog log;
        try {
            // Once the data directory is ours: the log file is in it, and another controller may be using it.
            log = LauncherLog.configure(distribution.logConfiguration(), dataDir, LOG_FILE, options.logLevel(),
                    options.logFormat());
        } catch (IOException e) {
            System.err.println("heliograph: " + e.getMessage());
            closeQuietly(lock);
            return 2;
        }
        try {
            String instanceId;
            try {
                instanceId = InstanceId.resolve(options.instanceId(), dataDir);
            } catch (IOException e) {
                System.err.println("heliograph: instance id: " + e.getMessage());
                return 2;
            }
            return run(distribution, dataDir, instanceId, options, log, started);
        } finally {
            try {
                lock.close();
            } catch (IOException e) {
                log.warn("releasing " + dataDir.resolve(DataDirectoryLock.FILE) + ": " + e);
            }
        }
    }

    private static int run(Distribution distribution, Path dataDir, String instanceId, LaunchOptions options,
                           LauncherLog log, long started) {
        Map<String, String> properties = FrameworkProperties.of(distribution, dataDir, instanceId, options);
        ControllerRuntime runtime = new ControllerRuntime(distribution, properties, log);
        Runtime.getRuntime().addShutdownHook(new Thread(runtime::stop, "heliograph-shutdown"));

        log.info("Heliograph starting: instance " + instanceId + ", home " + distribution.home() + ", data " + dataDir
                + ", ZooKeeper " + options.zookeeper().orElse("embedded") + ", OpenFlow port " + options.openflowPort()
                + ", HTTP port " + options.httpPort() + ", profile " + options.profile().label()
                + " (" + options.profile().description() + ")"
                + (options.ioThreads() > 0 ? ", OpenFlow I/O threads " + options.ioThreads() : "")
                + (log.files().isEmpty() ? "" : ", log " + String.join(", ", log.files())));
        try {
            List<String> failed = runtime.start();
            long ms = (System.nanoTime() - started) / 1_000_000;
            if (failed.isEmpty()) {
                log.info("Heliograph started in " + ms + " ms");
            } else {
                log.warn("Heliograph started in " + ms + " ms, but these bundles did not start: " + failed);
            }
        } catch (Exception e) {
            if (!runtime.stopRequested()) {
                log.error("Heliograph failed to start: " + e.getMessage(), e);
                runtime.stop();
                return 1;
            }
            // The console's input ended (or a bundle stopped the framework) while the apps were starting.
            log.info("stopped while starting (" + e.getMessage() + ")");
        }

        try {
            FrameworkEvent stopped = runtime.awaitStop();
            if (stopped.getType() == FrameworkEvent.ERROR) {
                log.error("the framework stopped with an error", stopped.getThrowable());
                return 1;
            }
            log.info("Heliograph stopped");
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private static void closeQuietly(DataDirectoryLock lock) {
        try {
            lock.close();
        } catch (IOException e) {
            System.err.println("heliograph: releasing the data directory's lock: " + e.getMessage());
        }
    }

    /**
     * Refuses a port another process listens on, before anything starts: otherwise the controller
     * would come up without its OpenFlow or HTTP listener and only a log line would say why.
     */
    static void requireFree(String option, int port) throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(port));
        } catch (IOException e) {
            throw new IOException(option + " " + port + " cannot be used: " + e.getMessage()
                    + " (is another controller running?)", e);
        }
    }

    /** Creates the data directory if needed; it must end up a writable directory. */
    public static Path prepareDataDir(Path requested) throws IOException {
        Path dir = requested.toAbsolutePath().normalize();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IOException(dir + " exists and is not a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IOException("cannot create " + dir + ": " + e, e);
        }
        if (!Files.isWritable(dir)) {
            throw new IOException(dir + " is not writable");
        }
        return dir;
    }
}
