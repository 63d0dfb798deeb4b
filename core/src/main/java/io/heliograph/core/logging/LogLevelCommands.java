package io.heliograph.core.logging;

import java.util.stream.Collectors;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.core.LogLevels;
import io.heliograph.core.LogLevels.LoggerLevel;

/**
 * Gogo shell commands to see and change log levels while the controller runs:
 * {@code heliograph:loglevel} (the loggers with a level of their own), {@code heliograph:loglevel LOGGER}
 * and {@code heliograph:loglevel LOGGER LEVEL}.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=loglevel",
    "heliograph.command.help=loglevel [LOGGER [LEVEL]]|the loggers with a level of their own, or one's level, "
        + "or set it now (until etc/log4j2.xml changes)"})
public final class LogLevelCommands {

    private final LogLevels levels;

    @Activate
    public LogLevelCommands(@Reference LogLevels levels) {
        this.levels = levels;
    }

    /** The loggers that have a level of their own, ROOT first; the others have their nearest parent's. */
    public String loglevel() {
        return levels.loggers().stream().filter(l -> l.configured() != null).map(LogLevelCommands::line)
                .collect(Collectors.joining("\n"));
    }

    public String loglevel(String logger) {
        try {
            return line(levels.get(logger));
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    public String loglevel(String logger, String level) {
        try {
            return line(levels.set(logger, level));
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    static String line(LoggerLevel logger) {
        return logger.logger() + " " + logger.level() + (logger.configured() == null ? " (inherited)" : "");
    }
}
