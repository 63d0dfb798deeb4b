package io.heliograph.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The launcher's options reach etc/ through the {@code heliograph.*} framework properties. */
class FrameworkPropertiesTest {

    private static final Distribution DIST = new Distribution(Path.of("/opt/heliograph"));
    private static final List<String> HOT = List.of("heliograph-learningswitch.jar", "heliograph-topology.jar",
            "heliograph-devices.jar", "heliograph-stats.jar", "heliograph-routing.jar", "heliograph-staticflows.jar",
            "heliograph-forwarding.jar");

    @Test
    void defaultsRunEveryAppWithTheComponentsOwnThreadCount() throws Exception {
        Map<String, String> p = FrameworkProperties.of(DIST, Path.of("/data"), "c1", LaunchOptions.parse());
        assertEquals("0", p.get(FrameworkProperties.OPENFLOW_IO_THREADS));
        Pattern hot = Pattern.compile(p.get(FrameworkProperties.HOT_FILTER));
        for (String jar : HOT) {
            assertTrue(hot.matcher(jar).matches(), jar + " is installed from hot/");
        }
        assertFalse(hot.matcher("notes.txt").matches());
        assertFalse(hot.matcher("app.jar.part").matches());
        assertFalse(p.containsKey(FrameworkProperties.PACKET_IN_RATE), "the packet-in rate of etc/ applies");
    }

    @Test
    void benchProfileInstallsOnlyTheLearningSwitchAndSetsTheThreads() throws Exception {
        Map<String, String> p = FrameworkProperties.of(DIST, Path.of("/data"), "c1",
                LaunchOptions.parse("--profile", "bench", "--io-threads", "2"));
        assertEquals("2", p.get(FrameworkProperties.OPENFLOW_IO_THREADS));
        Pattern hot = Pattern.compile(p.get(FrameworkProperties.HOT_FILTER));
        for (String jar : HOT) {
            assertEquals(jar.equals("heliograph-learningswitch.jar"), hot.matcher(jar).matches(), jar);
        }
        assertFalse(hot.matcher("heliograph-learningswitchXjar").matches(), "the dot is a dot");
        assertEquals("0", p.get(FrameworkProperties.PACKET_IN_RATE), "no packet-in rate: the generator floods");
    }

    @Test
    void withoutZooKeeperTheClusterGetsAnEmptyConnectStringAndTheResolvedInstanceId() throws Exception {
        Map<String, String> p = FrameworkProperties.of(DIST, Path.of("/data"), "kept-in-data-dir",
                LaunchOptions.parse());
        assertEquals("", p.get(FrameworkProperties.ZOOKEEPER), "empty: the embedded server");
        assertEquals("kept-in-data-dir", p.get(FrameworkProperties.INSTANCE_ID));
    }

    @Test
    void zooKeeperEnsembleAndInstanceIdFromTheCommandLine() throws Exception {
        LaunchOptions options = LaunchOptions.parse("--zookeeper", "10.0.0.1:2181,10.0.0.2:2182", "--instance-id", "c2");
        Map<String, String> p = FrameworkProperties.of(DIST, Path.of("/data"), options.instanceId().orElseThrow(),
                options);
        assertEquals("10.0.0.1:2181,10.0.0.2:2182", p.get(FrameworkProperties.ZOOKEEPER));
        assertEquals("c2", p.get(FrameworkProperties.INSTANCE_ID));
    }

    @Test
    void filtersHaveNoBackslashForFileInstallToUnescape() {
        for (Profile profile : Profile.values()) {
            assertFalse(profile.hotFilter().contains("\\"), profile.hotFilter());
        }
    }
}
