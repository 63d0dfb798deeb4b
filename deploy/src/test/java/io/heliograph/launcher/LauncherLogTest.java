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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.launcher.LaunchOptions.LogFormat;

/**
 * The distribution's etc/log4j2.xml as the launcher loads it: lines go to the file in the data directory's
 * log folder, the command line's level and format win, and a file Log4j cannot use stops the start.
 */
class LauncherLogTest {

    /** The size at which the shipped file rolls the log over. */
    private static final String SIZE = "heliograph.log.size";

    /** The file the distribution ships. */
    private static final Path SHIPPED = Path.of("src/main/dist/etc/log4j2.xml");

    @TempDir
    Path dataDir;

    private Properties saved;

    @BeforeEach
    void saveSystemProperties() {
        saved = (Properties) System.getProperties().clone();
        for (String key : List.of(LauncherLog.LEVEL, LauncherLog.FORMAT, LauncherLog.DIR, LauncherLog.NAME, SIZE)) {
            System.clearProperty(key);
        }
    }

    @AfterEach
    void restoreSystemProperties() {
        System.setProperties(saved);
    }

    private Path logFile() {
        return dataDir.resolve("log").resolve("heliograph.log");
    }

    @Test
    void textLinesGoToTheFileInTheDataDirectory() throws IOException {
        LauncherLog log = LauncherLog.configure(SHIPPED, dataDir, "heliograph", Optional.empty(), LogFormat.TEXT);
        assertEquals(List.of(logFile().toString()), log.files());
        assertTrue(log.isEnabled("info"));
        assertFalse(log.isEnabled("debug"), "the file's default root level is info");
        log.info("text line one");
        log.debug("not written");
        log.log("warn", "org.eclipse.jetty.server.Server", "jetty's warning", null);
        log.log("info", "org.eclipse.jetty.server.Server", "jetty's chatter", null);

        String text = Files.readString(logFile());
        assertTrue(text.matches("(?s)\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[[^]]+] INFO launcher - text line one\\n.*"),
                text);
        assertTrue(text.contains("WARN Server - jetty's warning"), text);
        assertFalse(text.contains("not written"), text);
        assertFalse(text.contains("jetty's chatter"), "the file keeps Jetty at warn: " + text);
    }

    @Test
    void theCommandLineLevelBeatsTheFileAndMinusD() throws IOException {
        System.setProperty(LauncherLog.LEVEL, "error");
        LauncherLog log = LauncherLog.configure(SHIPPED, dataDir, "heliograph", Optional.of("debug"), LogFormat.TEXT);
        assertTrue(log.isEnabled("debug"));
        assertFalse(log.isEnabled("trace"));
    }

    @Test
    void minusDMovesTheFile() throws IOException {
        Path elsewhere = dataDir.resolve("elsewhere");
        System.setProperty(LauncherLog.DIR, elsewhere.toString());
        LauncherLog log = LauncherLog.configure(SHIPPED, dataDir, "zookeeper", Optional.empty(), LogFormat.TEXT);
        log.info("moved");
        assertTrue(Files.readString(elsewhere.resolve("zookeeper.log")).contains("moved"));
    }

    @Test
    void jsonLinesAreOneObjectALineWithTheFieldsShippersWant() throws IOException {
        LauncherLog log = LauncherLog.configure(SHIPPED, dataDir, "heliograph", Optional.empty(), LogFormat.JSON);
        log.info("json \"quoted\" line");
        log.error("it broke", new IllegalStateException("the cause"));

        List<String> lines = Files.readAllLines(logFile());
        ObjectMapper json = new ObjectMapper();
        JsonNode info = json.readTree(lines.get(lines.size() - 2));
        assertEquals("INFO", info.get("level").asText());
        assertEquals("io.heliograph.launcher", info.get("logger").asText());
        assertEquals(Thread.currentThread().getName(), info.get("thread").asText());
        assertEquals("json \"quoted\" line", info.get("message").asText());
        assertTrue(info.get("time").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"), info.toString());
        assertFalse(info.has("exception"), info.toString());

        JsonNode error = json.readTree(lines.get(lines.size() - 1));
        assertEquals("ERROR", error.get("level").asText());
        assertTrue(error.get("exception").asText().startsWith("java.lang.IllegalStateException: the cause"),
                error.toString());
    }

    @Test
    void theFileRollsOverAtItsSizeIntoACompressedFile() throws IOException, InterruptedException {
        System.setProperty(SIZE, "2 KB");
        LauncherLog log = LauncherLog.configure(SHIPPED, dataDir, "heliograph", Optional.empty(), LogFormat.TEXT);
        for (int i = 0; i < 100; i++) {
            log.info("line " + i + " " + "x".repeat(60));
        }
        assertTrue(Files.size(logFile()) < 4096, "the current file was started again: " + Files.size(logFile()));
        assertTrue(Files.readString(logFile()).contains("line 99 "));
        // compression runs on Log4j's own thread once the file is rolled
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<Path> rolled;
        do {
            try (var files = Files.list(logFile().getParent())) {
                rolled = files.filter(f -> f.getFileName().toString().matches("heliograph-\\d{4}-\\d\\d-\\d\\d-\\d+\\.log\\.gz"))
                        .toList();
            }
            if (rolled.isEmpty()) {
                Thread.sleep(20);
            }
        } while (rolled.isEmpty() && System.nanoTime() < deadline);
        assertFalse(rolled.isEmpty(), "a compressed heliograph-<date>-<n>.log.gz next to the file");
    }

    @Test
    void aMissingOrBrokenFileStopsTheStart() throws IOException {
        IOException e = assertThrows(IOException.class, () -> LauncherLog.configure(dataDir.resolve("log4j2.xml"),
                dataDir, "heliograph", Optional.empty(), LogFormat.TEXT));
        assertTrue(e.getMessage().startsWith("no logging configuration "), e.getMessage());

        Path broken = Files.writeString(dataDir.resolve("broken.xml"), "<Configuration><Appenders><Console");
        e = assertThrows(IOException.class,
                () -> LauncherLog.configure(broken, dataDir, "heliograph", Optional.empty(), LogFormat.TEXT));
        assertTrue(e.getMessage().startsWith(broken + ": "), e.getMessage());
    }
}
