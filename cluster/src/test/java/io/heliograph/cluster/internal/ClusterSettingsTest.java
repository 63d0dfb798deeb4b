package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterSettingsTest {

    @TempDir
    Path dataDir;

    private final Map<String, String> frameworkProperties = new HashMap<>();

    /** etc/io.heliograph.cluster.cfg as FileInstall hands it over when the launcher set no cluster properties. */
    private static Map<String, Object> shippedFileUnsubstituted() {
        Map<String, Object> config = new HashMap<>();
        config.put("zookeeper", "${heliograph.zookeeper}");
        config.put("instanceId", "${heliograph.instance.id}");
        config.put("embedded.port", "0");
        config.put("embedded.dir", "${heliograph.data.dir}/zookeeper");
        config.put("connectionTimeoutMs", "5000");
        return config;
    }

    @Test
    void blankOrUnsubstitutedValuesMeanTheEmbeddedServerAndTheInstanceIdOfTheDataDirectory() throws IOException {
        frameworkProperties.put("heliograph.data.dir", dataDir.toString());
        frameworkProperties.put("heliograph.openflow.port", "16653");
        frameworkProperties.put("heliograph.http.port", "18080");
        frameworkProperties.put("heliograph.zookeeper", "");
        ClusterSettings settings = from(shippedFileUnsubstituted());

        assertTrue(settings.embedded());
        assertNull(settings.connectString());
        assertEquals(dataDir.resolve("zookeeper"), settings.embeddedDir());
        assertEquals(0, settings.embeddedPort());
        assertEquals(10_000, settings.sessionTimeoutMs(), "a cluster of one rides out stalls");
        assertEquals(5000, settings.connectionTimeoutMs());
        assertEquals("127.0.0.1:16653", settings.openflowAddress());
        assertEquals("127.0.0.1:18080", settings.httpAddress());
        String id = Files.readString(dataDir.resolve("instance-id"), StandardCharsets.UTF_8).strip();
        assertEquals(id, settings.instanceId(), "the id made once and kept in <data-dir>/instance-id");
        UUID.fromString(id);

        assertEquals(id, from(Map.of("instanceId", " ")).instanceId(), "the same id at the next start");
    }

    @Test
    void theIdTheWebBundleWroteIsTheOneUsed() throws IOException {
        frameworkProperties.put("heliograph.data.dir", dataDir.toString());
        Files.writeString(dataDir.resolve("instance-id"), "4f1c2d3e-0000-4000-8000-000000000001\n");
        assertEquals("4f1c2d3e-0000-4000-8000-000000000001", from(Map.of()).instanceId());
    }

    @Test
    void theLaunchersPropertiesApplyWhereTheFileLeavesThemOut() throws IOException {
        frameworkProperties.put("heliograph.data.dir", dataDir.toString());
        frameworkProperties.put("heliograph.zookeeper", "zk1:2181,zk2:2181,zk3:2181");
        frameworkProperties.put("heliograph.instance.id", "c1");
        ClusterSettings settings = from(Map.of());
        assertEquals("zk1:2181,zk2:2181,zk3:2181", settings.connectString());
        assertEquals("c1", settings.instanceId());
        assertTrue(Files.notExists(dataDir.resolve("instance-id")), "no id file when the id is given");
        assertEquals(ClusterSettings.firstHostAddress() + ":6653", settings.openflowAddress(),
                "with an ensemble, the host's address (6653 without a port property)");
    }

    @Test
    void theFileWinsOverTheLaunchersProperties() throws IOException {
        frameworkProperties.put("heliograph.zookeeper", "zk1:2181");
        frameworkProperties.put("heliograph.instance.id", "c1");
        ClusterSettings settings = from(Map.of("zookeeper", "[::1]:2181,10.0.0.2:2181/heliograph-prod",
                "instanceId", "edge-1", "openflowAddress", "10.0.0.9:6653", "sessionTimeoutMs", 2500));
        assertEquals("[::1]:2181,10.0.0.2:2181/heliograph-prod", settings.connectString());
        assertEquals("edge-1", settings.instanceId());
        assertEquals("10.0.0.9:6653", settings.openflowAddress());
        assertEquals(2500, settings.sessionTimeoutMs());
    }

    @Test
    void badValuesAreRefusedNamingTheProperty() {
        frameworkProperties.put("heliograph.instance.id", "c1");
        assertRefused(Map.of("sessionTimeoutMs", "-5"), "sessionTimeoutMs must be at least 100 ms, got -5");
        assertRefused(Map.of("sessionTimeoutMs", "1s"), "sessionTimeoutMs must be a whole number, got '1s'");
        assertRefused(Map.of("connectionTimeoutMs", "0"), "connectionTimeoutMs must be a positive number of milliseconds, got 0");
        assertRefused(Map.of("embedded.port", "70000"), "embedded.port must be 0 (a free port) or 1-65535, got 70000");
        assertRefused(Map.of("livenessPort", "-1"), "livenessPort must be 0 (a free port) or 1-65535, got -1");
        assertRefused(Map.of("livenessPort", "many"), "livenessPort must be a whole number, got 'many'");
        assertRefused(Map.of("zookeeper", "zk1"), "zookeeper: 'zk1' is not host:port,host:port,...: 'zk1' has no port");
        assertRefused(Map.of("zookeeper", "zk1:2181,,zk2:2181"), "an empty server");
        assertRefused(Map.of("zookeeper", "zk1:99999"), "'zk1:99999' has port 99999 (1-65535)");
        assertRefused(Map.of("zookeeper", "zk1:abc"), "'zk1:abc' has port 'abc', not a number");
        assertRefused(Map.of("zookeeper", "::1:2181"), "write an IPv6 host in brackets");
        assertRefused(Map.of("zookeeper", "zk1:2181/a//b"), "zookeeper: 'zk1:2181/a//b' has a bad chroot");
        assertRefused(Map.of("zookeeper", "/chroot"), "names no server");
        assertRefused(Map.of("instanceId", "my controller"), "instanceId 'my controller': segment 'my controller' has");
        assertRefused(Map.of("instanceId", "a/b"), "instanceId 'a/b': segment 'a/b' has '/'");
        assertRefused(Map.of("httpAddress", "localhost"), "httpAddress: 'localhost' is not host:port");
    }

    @Test
    void aBadFrameworkPropertyIsNamedToo() {
        frameworkProperties.put("heliograph.instance.id", "c1");
        frameworkProperties.put("heliograph.zookeeper", "zk1:2181;zk2:2181");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> from(Map.of()));
        assertTrue(e.getMessage().startsWith("zookeeper: 'zk1:2181;zk2:2181'"), e.getMessage());
        frameworkProperties.put("heliograph.zookeeper", "zk1:2181");
        frameworkProperties.put("heliograph.openflow.port", "six");
        e = assertThrows(IllegalArgumentException.class, () -> from(Map.of()));
        assertEquals("heliograph.openflow.port must be a port number, got 'six'", e.getMessage());
    }

    @Test
    void twoBundlesMakingTheIdAtOnceAgreeOnIt() throws Exception {
        String[] ids = new String[8];
        Thread[] threads = new Thread[ids.length];
        for (int i = 0; i < ids.length; i++) {
            int n = i;
            threads[i] = new Thread(() -> {
                try {
                    ids[n] = InstanceIdFile.readOrCreate(dataDir);
                } catch (IOException e) {
                    ids[n] = e.toString();
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        String kept = Files.readString(dataDir.resolve("instance-id")).strip();
        for (String id : ids) {
            assertEquals(kept, id);
        }
        try (var files = Files.list(dataDir)) {
            assertEquals(1, files.count(), "no temporary file left");
        }
    }

    private ClusterSettings from(Map<String, ?> config) throws IOException {
        return ClusterSettings.from(config, frameworkProperties::get);
    }

    private void assertRefused(Map<String, ?> config, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> from(config));
        assertTrue(e.getMessage().contains(message), "'" + e.getMessage() + "' says: " + message);
    }
}
