package io.heliograph.core.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilder;
import org.apache.logging.log4j.core.config.builder.api.ConfigurationBuilderFactory;
import org.apache.logging.log4j.core.config.builder.impl.BuiltConfiguration;
import org.junit.jupiter.api.Test;

/** heliograph:loglevel: what the console shows and sets, and a refusal as a message, not a stack trace. */
class LogLevelCommandsTest {

    @Test
    void showsSetsAndRefuses() {
        ConfigurationBuilder<BuiltConfiguration> builder = ConfigurationBuilderFactory.newConfigurationBuilder();
        builder.add(builder.newRootLogger(Level.INFO));
        LoggerContext context = new LoggerContext("LogLevelCommandsTest");
        context.start(builder.build());
        try {
            LogLevelCommands commands = new LogLevelCommands(new Log4jLogLevels(context));
            assertEquals("io.heliograph.topology info (inherited)", commands.loglevel("io.heliograph.topology"));
            assertEquals("io.heliograph.topology debug", commands.loglevel("io.heliograph.topology", "debug"));
            assertTrue(context.getLogger("io.heliograph.topology.X").isDebugEnabled());
            assertEquals("ROOT info\nio.heliograph.topology debug", commands.loglevel());
            assertTrue(commands.loglevel("io.heliograph.topology", "loud").startsWith("level must be one of"));
            assertEquals("ROOT info\nio.heliograph.topology debug", commands.loglevel());
            assertEquals("io.heliograph.topology info (inherited)", commands.loglevel("io.heliograph.topology", "Reset"));
            assertEquals("ROOT info", commands.loglevel());
        } finally {
            context.stop();
        }
    }
}
