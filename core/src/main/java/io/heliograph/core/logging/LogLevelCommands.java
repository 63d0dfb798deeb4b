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
 * and {@code heliograph:loglevel LOGGER LEVEL} ({@code reset} for the configuration's level).
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=loglevel",
    "heliograph.command.help=loglevel [LOGGER [LEVEL|reset]]|the loggers with a level of their own, or one's level, "
        + "or set it now (until etc/log4j2.xml changes), or back to etc/log4j2.xml's"})
public final class LogLevelCommands {

    /** The level word that means: back to the configuration's level. */
    static final String RESET = "reset";

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

    /** Sets the level, or with {@value #RESET} takes back what was set. */
    public String loglevel(String logger, String level) {
        try {
            return line(RESET.equalsIgnoreCase(level.strip()) ? levels.reset(logger) : levels.set(logger, level));
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    static String line(LoggerLevel logger) {
        return logger.logger() + " " + logger.level() + (logger.configured() == null ? " (inherited)" : "");
    }
}
