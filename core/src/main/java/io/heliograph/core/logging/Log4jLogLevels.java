package io.heliograph.core.logging;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.TreeSet;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.osgi.service.component.annotations.Component;

import io.heliograph.core.LogLevels;

/**
 * The log levels of Log4j, the backend the launcher puts behind SLF4J: a level set here is a logger
 * configuration of the running Log4j configuration, as if etc/log4j2.xml had it, so it applies at once to
 * the logger and to the children without a level of their own. It lasts until Log4j loads the file again.
 */
@Component(service = LogLevels.class)
public final class Log4jLogLevels implements LogLevels {

    private final LoggerContext context;
    /**
     * The loggers {@link #set} changed in {@link #changedIn}: the level the configuration gave each, or null
     * for one it added. Forgotten when Log4j loads its file again (a new configuration has none of them).
     */
    private final Map<String, Level> before = new HashMap<>();
    private Configuration changedIn;

    /** The process's logger context: the launcher makes it one for all class loaders. */
    public Log4jLogLevels() {
        this((LoggerContext) LogManager.getContext(false));
    }

    Log4jLogLevels(LoggerContext context) {
        this.context = context;
    }

    @Override
    public List<LoggerLevel> loggers() {
        Configuration configuration = context.getConfiguration();
        TreeSet<String> names = new TreeSet<>(configuration.getLoggers().keySet());
        for (Logger logger : context.getLoggers()) {
            names.add(logger.getName());
        }
        names.remove(LogManager.ROOT_LOGGER_NAME);
        List<LoggerLevel> all = new ArrayList<>(names.size() + 1);
        all.add(level(configuration, LogManager.ROOT_LOGGER_NAME));
        for (String name : names) {
            all.add(level(configuration, name));
        }
        return all;
    }

    @Override
    public LoggerLevel get(String logger) {
        return level(context.getConfiguration(), internal(LogLevels.logger(logger)));
    }

    @Override
    public LoggerLevel set(String logger, String level) {
        String name = internal(LogLevels.logger(logger));
        Level parsed = Level.valueOf(LogLevels.level(level).toUpperCase(Locale.ROOT));
        // One change at a time: two setters of new loggers must not both add one.
        synchronized (this) {
            Configuration configuration = current();
            LoggerConfig nearest = configuration.getLoggerConfig(name);
            if (nearest.getName().equals(name)) {
                if (!before.containsKey(name)) {   // not putIfAbsent: null (added here) is a value to keep
                    before.put(name, nearest.getLevel());
                }
                nearest.setLevel(parsed);
            } else {
                before.put(name, null);
                // additive: the new logger writes through its parents' appenders, as before
                configuration.addLogger(name, new LoggerConfig(name, parsed, true));
            }
            context.updateLoggers();
            return level(configuration, name);
        }
    }

    @Override
    public LoggerLevel reset(String logger) {
        String name = internal(LogLevels.logger(logger));
        synchronized (this) {
            Configuration configuration = current();
            if (before.containsKey(name)) {
                Level configured = before.remove(name);
                if (configured == null) {
                    configuration.removeLogger(name);
                } else {
                    configuration.getLoggerConfig(name).setLevel(configured);
                }
                context.updateLoggers();
            }
            return level(configuration, name);
        }
    }

    /** The running configuration; what was changed in an earlier one is gone with it. */
    private Configuration current() {
        Configuration configuration = context.getConfiguration();
        if (configuration != changedIn) {
            before.clear();
            changedIn = configuration;
        }
        return configuration;
    }

    private static LoggerLevel level(Configuration configuration, String name) {
        LoggerConfig nearest = configuration.getLoggerConfig(name);
        String effective = nearest.getLevel().name().toLowerCase(Locale.ROOT);
        boolean own = nearest.getName().equals(name);
        return new LoggerLevel(external(name), effective, own ? effective : null);
    }

    /** Log4j names the root "", SLF4J "ROOT". */
    private static String internal(String logger) {
        return ROOT.equalsIgnoreCase(logger) ? LogManager.ROOT_LOGGER_NAME : logger;
    }

    private static String external(String name) {
        return name.equals(LogManager.ROOT_LOGGER_NAME) ? ROOT : name;
    }
}
