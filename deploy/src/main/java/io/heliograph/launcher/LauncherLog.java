package io.heliograph.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.appender.RollingFileAppender;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.launcher.LaunchOptions.LogFormat;

/**
 * Logging for the whole process: Log4j 2 behind SLF4J, both on the launcher's class path, configured
 * by etc/log4j2.xml. The system bundle exports SLF4J to the bundles (see {@link SystemPackages}), so
 * the launcher, the framework's own log (see {@link FrameworkLogForwarder}) and every bundle write
 * through this one configuration, to stderr and to the rotating log file. {@link #configure} runs
 * before anything logs: it sets the system properties the file reads, then loads the file.
 */
public final class LauncherLog {

    /** The root level; the file's default is info. */
    public static final String LEVEL = "heliograph.log.level";
    /** text or json. */
    public static final String FORMAT = "heliograph.log.format";
    /** The folder of the log file. */
    public static final String DIR = "heliograph.log.dir";
    /** The log file's name without ".log". */
    public static final String NAME = "heliograph.log.name";
    /** The folder under the data directory that holds the log file unless -Dheliograph.log.dir says otherwise. */
    public static final String DATA_DIR_FOLDER = "log";

    /** Log4j's own settings: one logger context for the whole JVM, whichever class loader asks for a logger. */
    private static final String CONTEXT_SELECTOR = "log4j2.contextSelector";
    private static final String SHUTDOWN_HOOK = "log4j2.shutdownHookEnabled";

    private final Logger launcher;
    private final List<String> files;

    private LauncherLog(Logger launcher, List<String> files) {
        this.launcher = launcher;
        this.files = files;
    }

    /**
     * Loads {@code configFile}. The command line's level and format win over everything; a {@code -D} on
     * the java command line wins over the defaults set here ({@code dataDir}/log, {@code fileName}).
     *
     * @param fileName the log file's name without ".log"
     * @throws IOException when the file is missing or configures nothing to write to (Log4j has said why
     *                     on stderr)
     */
    public static LauncherLog configure(Path configFile, Path dataDir, String fileName, Optional<String> level,
                                        LogFormat format) throws IOException {
        if (!Files.isRegularFile(configFile)) {
            throw new IOException("no logging configuration " + configFile);
        }
        setIfAbsent(CONTEXT_SELECTOR, "org.apache.logging.log4j.core.selector.BasicContextSelector");
        // The launcher's own shutdown hook logs the stop; Log4j's would close the appenders before it.
        setIfAbsent(SHUTDOWN_HOOK, "false");
        setIfAbsent(DIR, dataDir.resolve(DATA_DIR_FOLDER).toString());
        setIfAbsent(NAME, fileName);
        level.ifPresent(l -> System.setProperty(LEVEL, l));
        System.setProperty(FORMAT, format.label());

        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        // Log4j reports a file it cannot read, or an appender it cannot make, and goes on with what it could
        // make (perhaps nothing): a controller that would log nowhere does not start.
        List<String> errors = new CopyOnWriteArrayList<>();
        StatusListener listener = new StatusListener() {
            @Override
            public void log(StatusData data) {
                if (data.getLevel().isMoreSpecificThan(Level.ERROR)) {
                    errors.add(data.getFormattedStatus());
                }
            }

            @Override
            public Level getStatusLevel() {
                return Level.ERROR;
            }

            @Override
            public void close() {
            }
        };
        StatusLogger.getLogger().registerListener(listener);
        try {
            context.setConfigLocation(configFile.toUri());
        } finally {
            StatusLogger.getLogger().removeListener(listener);
        }
        if (!errors.isEmpty() || context.getConfiguration().getAppenders().isEmpty()) {
            throw new IOException(configFile + ": " + (errors.isEmpty() ? "no appender configured: nowhere to log"
                    : errors.get(0)));
        }
        List<String> files = new ArrayList<>();
        for (Appender appender : context.getConfiguration().getAppenders().values()) {
            if (appender instanceof RollingFileAppender rolling) {
                files.add(rolling.getFileName());
            } else if (appender instanceof FileAppender file) {
                files.add(file.getFileName());
            }
        }
        return new LauncherLog(LoggerFactory.getLogger(LauncherLog.class.getPackageName()), List.copyOf(files));
    }

    /** The files the configuration writes to, for the start-up line that tells an operator where to look. */
    public List<String> files() {
        return files;
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** Whether the launcher's logger writes lines of {@code level} (trace, debug, info, warn, error). */
    public boolean isEnabled(String level) {
        return isEnabled(launcher, level);
    }

    static boolean isEnabled(Logger logger, String level) {
        return switch (level) {
            case "trace" -> logger.isTraceEnabled();
            case "debug" -> logger.isDebugEnabled();
            case "info" -> logger.isInfoEnabled();
            case "warn" -> logger.isWarnEnabled();
            default -> logger.isErrorEnabled();
        };
    }

    public void debug(String message) {
        launcher.debug(message);
    }

    public void info(String message) {
        launcher.info(message);
    }

    public void warn(String message) {
        launcher.warn(message);
    }

    public void error(String message, Throwable cause) {
        launcher.error(message, cause);
    }

    /** One line of {@code level} from {@code logger}, in the calling thread. */
    public void log(String level, String logger, String message, Throwable cause) {
        Logger target = LoggerFactory.getLogger(logger);
        switch (level) {
            case "trace" -> target.trace(message, cause);
            case "debug" -> target.debug(message, cause);
            case "info" -> target.info(message, cause);
            case "warn" -> target.warn(message, cause);
            default -> target.error(message, cause);
        }
    }
}
