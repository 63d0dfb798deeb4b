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
        assertEquals(LaunchOptions.LogFormat.TEXT, o.logFormat());
        assertFalse(o.console());
        assertFalse(o.help());
        assertEquals(Profile.FULL, o.profile());
        assertEquals(0, o.ioThreads(), "the openflow component's default");
        assertEquals(Optional.empty(), o.zookeeper(), "the embedded ZooKeeper");
        assertEquals(Optional.empty(), o.instanceId(), "the one kept in the data directory");
    }

    @Test
    void zooKeeperEnsembleAndInstanceId() throws Exception {
        LaunchOptions o = LaunchOptions.parse("--zookeeper", "zk1.example.org:2181,10.0.0.2:2182,[::1]:2183",
                "--instance-id", "c-1_east.2");
        assertEquals(Optional.of("zk1.example.org:2181,10.0.0.2:2182,[::1]:2183"), o.zookeeper());
        assertEquals(Optional.of("c-1_east.2"), o.instanceId());
        LaunchOptions inline = LaunchOptions.parse("--zookeeper=127.0.0.1:2181", "--instance-id=" + "x".repeat(64));
        assertEquals(Optional.of("127.0.0.1:2181"), inline.zookeeper());
        assertEquals(Optional.of("x".repeat(64)), inline.instanceId());
    }

    @Test
    void badZooKeeperAddressesNameTheBadPart() {
        assertError("--zookeeper: 'b:abc' in 'a:2181,b:abc' needs a port number 1-65535, got 'abc'",
                "--zookeeper", "a:2181,b:abc");
        assertError("--zookeeper: 'a:0' in 'a:0' needs a port number 1-65535, got '0'", "--zookeeper=a:0");
        assertError("--zookeeper: 'a:65536' in 'a:65536' needs a port number 1-65535, got '65536'",
                "--zookeeper", "a:65536");
        assertError("--zookeeper: 'a:' in 'a:' needs a port number 1-65535, got ''", "--zookeeper", "a:");
        assertError("--zookeeper takes HOST:PORT[,HOST:PORT...]; 'zk2' in 'zk1:2181,zk2' is not HOST:PORT",
                "--zookeeper", "zk1:2181,zk2");
        assertError("--zookeeper takes HOST:PORT[,HOST:PORT...]; '' in 'zk1:2181,,zk2:2181' is not HOST:PORT",
                "--zookeeper", "zk1:2181,,zk2:2181");
        assertError("--zookeeper takes HOST:PORT[,HOST:PORT...]; ':2181' in ':2181' is not HOST:PORT",
                "--zookeeper", ":2181");
        assertError("--zookeeper takes HOST:PORT[,HOST:PORT...]; 'zk 1:2181' in 'zk 1:2181' is not HOST:PORT",
                "--zookeeper", "zk 1:2181");
        assertError("--zookeeper: 'zk1:2181/chroot' in 'zk1:2181/chroot' needs a port number 1-65535, got"
                + " '2181/chroot'", "--zookeeper", "zk1:2181/chroot");
        assertError("--zookeeper needs HOST:PORT[,HOST:PORT...], got an empty value", "--zookeeper=");
        assertError("--zookeeper needs a value", "--zookeeper");
    }

    @Test
    void badInstanceIdsAreRefused() {
        String rule = "--instance-id must be 1-64 letters, digits, '.', '_' or '-' (not '.' or '..' alone); got '";
        assertError(rule + "c 1'", "--instance-id", "c 1");
        assertError(rule + "c/1'", "--instance-id", "c/1");
        assertError(rule + "'", "--instance-id=");
        assertError(rule + "x".repeat(65) + "'", "--instance-id", "x".repeat(65));
        assertError(rule + "..'", "--instance-id", "..");
        assertError(rule + "ünïcode'", "--instance-id", "ünïcode");
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
    void logFormat() throws Exception {
        assertEquals(LaunchOptions.LogFormat.JSON, LaunchOptions.parse("--log-format", "json").logFormat());
        assertEquals(LaunchOptions.LogFormat.JSON, LaunchOptions.parse("--log-format=JSON").logFormat());
        assertEquals(LaunchOptions.LogFormat.TEXT, LaunchOptions.parse("--log-format=text").logFormat());
    }

    @Test
    void helpIsRecognised() throws Exception {
        assertTrue(LaunchOptions.parse("--help").help());
        assertTrue(LaunchOptions.parse("-h").help());
    }

    @Test
    void versionIsRecognisedAndTakesNoValue() throws Exception {
        assertTrue(LaunchOptions.parse("--version").version());
        assertFalse(LaunchOptions.parse("--console").version());
        LaunchOptions.UsageException e = assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("--version=2"));
        assertTrue(e.getMessage().contains("--version takes no value"), e.getMessage());
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
        assertError("--log-format must be text or json; got 'xml'", "--log-format", "xml");
        assertError("--log-format needs a value", "--log-format");
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
