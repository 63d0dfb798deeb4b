package io.heliograph.core;

import java.util.List;
import java.util.Locale;

/**
 * The log levels of a running controller, changed without a restart (REST {@code /api/v1/logging}, the
 * console's {@code heliograph:loglevel}). A logger is a class or package name, or {@value #ROOT}; a logger
 * without a level of its own has its nearest configured parent's. A level set here lasts until the logging
 * configuration file (etc/log4j2.xml) changes or the controller restarts.
 */
public interface LogLevels {

    /** The root logger's name, as SLF4J names it. */
    String ROOT = "ROOT";

    /** The levels a logger can be set to, from the most to the least verbose. */
    List<String> LEVELS = List.of("trace", "debug", "info", "warn", "error", "off");

    /** The longest logger name taken: class names are far shorter. */
    int MAX_NAME = 256;

    /** Every logger the controller has created or configured, {@value #ROOT} first, the rest by name. */
    List<LoggerLevel> loggers();

    /** The level {@code logger} logs at now, whether or not it was ever created. */
    LoggerLevel get(String logger);

    /**
     * Sets {@code logger}'s own level at once, and so that of its children without one of their own.
     * Answers the logger's new state.
     *
     * @throws IllegalArgumentException naming the problem when the level or the name is not one of the
     *                                  above ({@link #level}, {@link #logger})
     */
    LoggerLevel set(String logger, String level);

    /**
     * Takes back what {@link #set} did to {@code logger}: it logs again at the level the logging configuration
     * (etc/log4j2.xml) gives it, its own there or its nearest configured parent's. A logger never set is left
     * as it is. Answers the logger's state.
     *
     * @throws IllegalArgumentException naming the problem when the name is not a logger's ({@link #logger})
     */
    LoggerLevel reset(String logger);

    /**
     * A logger's level.
     *
     * @param logger     its name, {@value #ROOT} for the root
     * @param level      the level it logs at (lower case)
     * @param configured the level set on this very logger, null when it has its parent's
     */
    record LoggerLevel(String logger, String level, String configured) {
    }

    /** {@code level} in lower case, if it is one of {@link #LEVELS}. */
    static String level(String level) {
        String normal = level == null ? null : level.strip().toLowerCase(Locale.ROOT);
        if (normal == null || !LEVELS.contains(normal)) {
            throw new IllegalArgumentException("level must be one of " + String.join(", ", LEVELS) + "; got "
                    + (level == null ? "none" : "'" + abbreviate(level) + "'"));
        }
        return normal;
    }

    /** {@code logger}, if it can be a logger's name: a Java class or package name, or {@value #ROOT}. */
    static String logger(String logger) {
        if (logger == null || logger.isEmpty() || logger.length() > MAX_NAME
                || !logger.matches("[A-Za-z0-9_$.-]+")) {
            throw new IllegalArgumentException("logger must be a class or package name (letters, digits, . _ $ -, "
                    + "at most " + MAX_NAME + " characters) or " + ROOT + "; got '" + abbreviate(logger) + "'");
        }
        return logger;
    }

    private static String abbreviate(String text) {
        return text == null ? "" : text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
