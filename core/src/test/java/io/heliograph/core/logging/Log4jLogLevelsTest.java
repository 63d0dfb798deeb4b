package io.heliograph.core.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.heliograph.core.LogLevels;
import io.heliograph.core.LogLevels.LoggerLevel;

/**
 * The level service against a Log4j context of its own, configured as etc/log4j2.xml is (root info, Jetty
 * warn): a level set applies at once to the logger and its children without a level of their own, and
 * what it refuses changes nothing.
 */
class Log4jLogLevelsTest {

    private LoggerContext context;
    private Log4jLogLevels levels;

    @BeforeEach
    void start() {
        ConfigurationBuilder<BuiltConfiguration> builder = ConfigurationBuilderFactory.newConfigurationBuilder();
        builder.add(builder.newRootLogger(Level.INFO));
        builder.add(builder.newLogger("org.eclipse.jetty", Level.WARN));
        context = new LoggerContext("Log4jLogLevelsTest");
        context.start(builder.build());
        levels = new Log4jLogLevels(context);
    }

    @AfterEach
    void stop() {
        context.stop();
    }

    @Test
    void aLevelSetOnAPackageAppliesAtOnceToItsClassesAndNotToOthers() {
        Logger discovery = context.getLogger("io.heliograph.topology.internal.LinkDiscovery");
        Logger openflow = context.getLogger("io.heliograph.openflow.Channel");
        assertFalse(discovery.isDebugEnabled());

        LoggerLevel set = levels.set("io.heliograph.topology", "DEBUG");

        assertEquals(new LoggerLevel("io.heliograph.topology", "debug", "debug"), set);
        assertTrue(discovery.isDebugEnabled(), "the class under the package logs debug now");
        assertFalse(discovery.isTraceEnabled());
        assertFalse(openflow.isDebugEnabled(), "another package keeps the root's info");
        assertEquals(new LoggerLevel(discovery.getName(), "debug", null), levels.get(discovery.getName()));

        levels.set("io.heliograph.topology", "info");
        assertFalse(discovery.isDebugEnabled(), "and back");
    }

    @Test
    void aConfiguredLoggerAndTheRootChangeInPlace() {
        Logger jetty = context.getLogger("org.eclipse.jetty.server.Server");
        assertFalse(jetty.isInfoEnabled());
        levels.set("org.eclipse.jetty", "info");
        assertTrue(jetty.isInfoEnabled());

        Logger other = context.getLogger("com.example.App");
        levels.set("ROOT", "error");
        assertFalse(other.isWarnEnabled());
        assertTrue(jetty.isInfoEnabled(), "a logger with its own level keeps it");
        assertEquals(new LoggerLevel("ROOT", "error", "error"), levels.get("root"));
        levels.set("ROOT", "off");
        assertFalse(other.isErrorEnabled());
    }

    @Test
    void theListHasTheRootFirstThenEveryCreatedOrConfiguredLoggerByName() {
        context.getLogger("io.heliograph.core.Pipelines");
        levels.set("io.heliograph.webui", "trace");
        List<LoggerLevel> all = levels.loggers();
        assertEquals(new LoggerLevel("ROOT", "info", "info"), all.get(0));
        assertEquals(List.of("ROOT", "io.heliograph.core.Pipelines", "io.heliograph.webui", "org.eclipse.jetty"),
                all.stream().map(LoggerLevel::logger).toList());
        assertNull(all.get(1).configured());
        assertEquals("warn", all.get(3).level());
    }

    @Test
    void aResetGoesBackToTheConfiguredLevelsAndForgetsWhatItAdded() {
        Logger jetty = context.getLogger("org.eclipse.jetty.server.Server");
        Logger topology = context.getLogger("io.heliograph.topology.LinkDiscovery");
        levels.set("org.eclipse.jetty", "debug");
        levels.set("org.eclipse.jetty", "trace");   // twice: the reset goes back to the file's, not the first change
        levels.set("io.heliograph.topology", "debug");
        levels.set("io.heliograph.topology", "trace");   // an added logger set again is still one to remove
        levels.set("ROOT", "error");

        assertEquals(new LoggerLevel("org.eclipse.jetty", "warn", "warn"), levels.reset("org.eclipse.jetty"));
        assertFalse(jetty.isInfoEnabled());
        assertEquals(new LoggerLevel("io.heliograph.topology", "error", null), levels.reset("io.heliograph.topology"),
                "an added logger is gone: it has the root's level again");
        assertFalse(topology.isWarnEnabled());
        assertEquals(new LoggerLevel("ROOT", "info", "info"), levels.reset("ROOT"));
        assertTrue(topology.isInfoEnabled() && !topology.isDebugEnabled());
        assertEquals(List.of("ROOT", "org.eclipse.jetty"), levels.loggers().stream().filter(l -> l.configured() != null)
                .map(LoggerLevel::logger).toList());

        assertEquals(new LoggerLevel("org.eclipse.jetty", "warn", "warn"), levels.reset("org.eclipse.jetty"),
                "a second reset, or one of a logger never set, changes nothing");
        assertEquals(new LoggerLevel("com.example", "info", null), levels.reset("com.example"));
        assertThrows(IllegalArgumentException.class, () -> levels.reset("a b"));
    }

    @Test
    void whatWasSetBeforeTheFileWasLoadedAgainIsNotResetIntoTheNewConfiguration() {
        levels.set("org.eclipse.jetty", "debug");
        ConfigurationBuilder<BuiltConfiguration> builder = ConfigurationBuilderFactory.newConfigurationBuilder();
        builder.add(builder.newRootLogger(Level.INFO));
        builder.add(builder.newLogger("org.eclipse.jetty", Level.ERROR));
        context.reconfigure(builder.build());
        assertEquals(new LoggerLevel("org.eclipse.jetty", "error", "error"), levels.reset("org.eclipse.jetty"));
    }

    @Test
    void aBadLevelOrNameIsRefusedAndChangesNothing() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> levels.set("io.heliograph", "verbose"));
        assertEquals("level must be one of trace, debug, info, warn, error, off; got 'verbose'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> levels.set("io.heliograph", null));
        assertThrows(IllegalArgumentException.class, () -> levels.set("io.heliograph", "fatal"));
        e = assertThrows(IllegalArgumentException.class, () -> levels.set("a b", "debug"));
        assertTrue(e.getMessage().startsWith("logger must be a class or package name"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> levels.get("x".repeat(LogLevels.MAX_NAME + 1)));
        assertEquals(List.of("ROOT", "org.eclipse.jetty"), levels.loggers().stream().map(LoggerLevel::logger).toList());
    }
}
