package io.heliograph.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class LaunchOptionsTest {

    @Test
    void defaultsWithoutArguments() throws Exception {
        LaunchOptions o = LaunchOptions.parse();
        assertEquals(6653, o.openflowPort());
        assertEquals(8080, o.httpPort());
        assertEquals(Optional.empty(), o.dataDir());
        assertEquals(Optional.empty(), o.logLevel());
        assertFalse(o.console());
        assertFalse(o.help());
        assertEquals(Profile.FULL, o.profile());
        assertEquals(0, o.ioThreads(), "the openflow component's default");
    }

    @Test
    void benchProfileAndIoThreads() throws Exception {
        LaunchOptions o = LaunchOptions.parse("--profile", "bench", "--io-threads", "2");
        assertEquals(Profile.BENCH, o.profile());
        assertEquals(2, o.ioThreads());
        LaunchOptions inline = LaunchOptions.parse("--profile=FULL", "--io-threads=1");
        assertEquals(Profile.FULL, inline.profile());
        assertEquals(1, inline.ioThreads());
    }

    @Test
    void everyOptionWithSeparateAndInlineValues() throws Exception {
        LaunchOptions o = LaunchOptions.parse("--openflow-port", "16653", "--http-port=18080",
                "--data-dir", "/tmp/x", "--console", "--log-level=DEBUG");
        assertEquals(16653, o.openflowPort());
        assertEquals(18080, o.httpPort());
        assertEquals(Optional.of(Path.of("/tmp/x")), o.dataDir());
        assertTrue(o.console());
        assertEquals(Optional.of("debug"), o.logLevel());
    }

    @Test
    void helpIsRecognised() throws Exception {
        assertTrue(LaunchOptions.parse("--help").help());
        assertTrue(LaunchOptions.parse("-h").help());
    }

    @Test
    void badValuesNameTheOption() {
        assertError("--openflow-port must be a TCP port number (1-65535), got 'six'", "--openflow-port", "six");
        assertError("--http-port must be a TCP port number (1-65535), got 70000", "--http-port", "70000");
        assertError("--openflow-port must be a TCP port number (1-65535), got 0", "--openflow-port=0");
        assertError("--data-dir needs a value", "--data-dir");
        assertError("--http-port needs a value", "--http-port", "--console");
        assertError("--data-dir needs a directory, got an empty value", "--data-dir=");
        assertError("--log-level must be one of trace, debug, info, warn, error; got 'loud'", "--log-level", "loud");
        assertError("--console takes no value, got 'yes'", "--console=yes");
        assertError("unknown option '--opneflow-port'", "--opneflow-port", "6653");
        assertError("unknown option 'run'", "run");
        assertError("--profile must be one of full, bench; got 'fast'", "--profile", "fast");
        assertError("--profile needs a value", "--profile");
        assertError("--io-threads must be a number of threads (1-1024), got '0'", "--io-threads", "0");
        assertError("--io-threads must be a number of threads (1-1024), got 'two'", "--io-threads=two");
        assertError("--io-threads must be a number of threads (1-1024), got '5000'", "--io-threads", "5000");
        assertError("--openflow-port and --http-port must differ, both are 9000",
                "--openflow-port", "9000", "--http-port", "9000");
    }

    private static void assertError(String message, String... args) {
        LaunchOptions.UsageException e = assertThrows(LaunchOptions.UsageException.class,
                () -> LaunchOptions.parse(args));
        assertEquals(message, e.getMessage());
    }
}
