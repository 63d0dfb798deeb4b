package io.heliograph.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** etc/logging.properties, then -D, then --log-level: each overrides the one before. */
class LauncherLogTest {

    private static final String LEVEL = LauncherLog.PREFIX + "defaultLogLevel";
    private static final String NETTY = LauncherLog.PREFIX + "log.io.netty";

    @TempDir
    Path dir;

    private Properties saved;

    @BeforeEach
    void saveSystemProperties() {
        saved = (Properties) System.getProperties().clone();
        System.clearProperty(LEVEL);
        System.clearProperty(NETTY);
    }

    @AfterEach
    void restoreSystemProperties() {
        System.setProperties(saved);
    }

    @Test
    void theFileSetsWhatNothingElseSet() throws IOException {
        LauncherLog log = LauncherLog.configure(file(LEVEL + " = warn", NETTY + " = error"), Optional.empty());
        assertEquals("warn", System.getProperty(LEVEL));
        assertEquals("error", System.getProperty(NETTY));
        assertFalse(log.isEnabled("info"));
        assertTrue(log.isEnabled("warn"));
    }

    @Test
    void aSystemPropertyBeatsTheFile() throws IOException {
        System.setProperty(NETTY, "debug");
        LauncherLog.configure(file(NETTY + " = error"), Optional.empty());
        assertEquals("debug", System.getProperty(NETTY));
    }

    @Test
    void theCommandLineBeatsBoth() throws IOException {
        System.setProperty(LEVEL, "error");
        LauncherLog log = LauncherLog.configure(file(LEVEL + " = warn"), Optional.of("debug"));
        assertEquals("debug", System.getProperty(LEVEL));
        assertTrue(log.isEnabled("debug"));
        assertFalse(log.isEnabled("trace"));
    }

    @Test
    void noFileMeansInfo() throws IOException {
        LauncherLog log = LauncherLog.configure(dir.resolve("missing.properties"), Optional.empty());
        assertTrue(log.isEnabled("info"));
        assertFalse(log.isEnabled("debug"));
    }

    @Test
    void aBadLevelInTheFileIsAClearError() throws IOException {
        Path file = file(LEVEL + " = chatty");
        IOException e = assertThrows(IOException.class, () -> LauncherLog.configure(file, Optional.empty()));
        assertTrue(e.getMessage().contains("defaultLogLevel must be one of"), e.getMessage());
        assertTrue(e.getMessage().contains("'chatty'"), e.getMessage());
    }

    private Path file(String... lines) throws IOException {
        return Files.write(dir.resolve("logging.properties"), List.of(lines));
    }
}
