package io.heliograph.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Logging for the whole process. The bundles log through slf4j-simple, which reads its settings
 * from system properties when it starts; {@link #configure} sets them from etc/logging.properties
 * and {@code --log-level} before the framework starts. The launcher itself (it has no slf4j) and
 * the framework's own log entries print through this class in the same format, to the same stream.
 */
public final class LauncherLog {

    static final String PREFIX = "org.slf4j.simpleLogger.";
    private static final List<String> LEVELS = List.of("trace", "debug", "info", "warn", "error", "off");

    private final int threshold;
    private final DateTimeFormatter timestamps;
    private final PrintStream out;

    private LauncherLog(String level, String dateTimeFormat, PrintStream out) {
        this.threshold = LEVELS.indexOf(level);
        this.timestamps = DateTimeFormatter.ofPattern(dateTimeFormat, Locale.ROOT);
        this.out = out;
    }

    /**
     * Sets the slf4j-simple system properties: the file's values, unless a {@code -D} on the java
     * command line already set one; then the log level from the command line, which wins.
     */
    public static LauncherLog configure(Path loggingProperties, java.util.Optional<String> level) throws IOException {
        Properties file = new Properties();
        if (Files.isRegularFile(loggingProperties)) {
            try (InputStream in = Files.newInputStream(loggingProperties)) {
                file.load(in);
            }
        }
        for (String key : file.stringPropertyNames()) {
            if (System.getProperty(key) == null) {
                System.setProperty(key, file.getProperty(key).trim());
            }
        }
        level.ifPresent(l -> System.setProperty(PREFIX + "defaultLogLevel", l));
        String effective = System.getProperty(PREFIX + "defaultLogLevel", LaunchOptions.DEFAULT_LOG_LEVEL)
                .toLowerCase(Locale.ROOT);
        if (!LEVELS.contains(effective)) {
            throw new IOException(loggingProperties + ": " + PREFIX + "defaultLogLevel must be one of "
                    + LEVELS + ", got '" + effective + "'");
        }
        String format = System.getProperty(PREFIX + "dateTimeFormat", "yyyy-MM-dd HH:mm:ss.SSS");
        // slf4j-simple's default stream is stderr: keep ours the same, and stdout free for the console.
        PrintStream stream = "System.out".equals(System.getProperty(PREFIX + "logFile")) ? System.out : System.err;
        try {
            return new LauncherLog(effective, format, stream);
        } catch (IllegalArgumentException e) {
            throw new IOException(loggingProperties + ": bad " + PREFIX + "dateTimeFormat '" + format + "'", e);
        }
    }

    public boolean isEnabled(String level) {
        return LEVELS.indexOf(level) >= threshold;
    }

    public void debug(String message) {
        log("debug", "launcher", message, null);
    }

    public void info(String message) {
        log("info", "launcher", message, null);
    }

    public void warn(String message) {
        log("warn", "launcher", message, null);
    }

    public void error(String message, Throwable cause) {
        log("error", "launcher", message, cause);
    }

    /** One line in slf4j-simple's layout: time [thread] LEVEL logger - message. */
    public void log(String level, String logger, String message, Throwable cause) {
        log(level, Thread.currentThread().getName(), logger, message, cause);
    }

    public void log(String level, String thread, String logger, String message, Throwable cause) {
        if (!isEnabled(level)) {
            return;
        }
        String line = timestamps.format(LocalDateTime.now()) + " [" + thread + "] "
                + level.toUpperCase(Locale.ROOT) + " " + logger + " - " + message;
        synchronized (out) {
            out.println(line);
            if (cause != null) {
                cause.printStackTrace(out);
            }
        }
    }
}
