package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.BundleJar;
import io.heliograph.testbed.BundleList;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 2, item 4: the learning switch is a hot-swappable bundle of a running controller connected
 * to real switches. Stopping it stops learning, starting it restores forwarding, and replacing its
 * jar in hot/ runs the new version, all in the same controller JVM. The deployment is the learning
 * switch's own (forwarding taken out of hot/), so the learning switch is what forwards.
 */
@Timeout(300)
class HotSwapIT {

    private static final String LEARNING_SWITCH = "learning switch";
    private static final Duration CONSOLE = Duration.ofSeconds(15);
    private static final Duration FORWARDING = Duration.ofSeconds(20);

    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static Testbed.LinearTopology line;

    @BeforeAll
    static void start() {
        Path artifacts = ArtifactDirectory.forTest("HotSwapIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        distribution.removeApp("heliograph-forwarding");
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        testbed = Testbed.start("HotSwapIT-switches");
        line = testbed.linear(2, List.of("OpenFlow13"),
                testbed.controllerTarget("tcp", controller.openflowPort()));
        controller.awaitSwitches(2, Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("HotSwapIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void stopStartAndReplaceTheLearningSwitchInARunningController() {
        Host h1 = line.first();
        Host h2 = line.last();
        long pid = controller.pid();
        assertForwardingLearned(h1, h2);

        BundleList.Row app = learningSwitch();
        assertEquals("Active", app.state(), "learning switch at start: " + app);

        // stop: the switches still send table misses to the controller, but nobody learns or forwards
        controller.console("stop " + app.id());
        Poll.until("learning switch stopped", CONSOLE, this::learningSwitch, r -> r.state().equals("Resolved"));
        assertEquals(2, controller.health().orElseThrow().switches(), "switches dropped when the app stopped");
        forgetLearnedFlows();
        long missesBefore = tableMissPackets();
        Host.PingResult whileStopped = h1.ping(h2, 5);
        assertEquals(0, whileStopped.received(), "pings answered with the learning switch stopped: " + whileStopped);
        assertTrue(tableMissPackets() > missesBefore, "the pings never reached the controller as table misses");
        for (Bridge bridge : line.switches()) {
            List<FlowEntry> learned = bridge.dumpFlows().stream().filter(FlowEntry::isReactive).toList();
            assertTrue(learned.isEmpty(), "flows learned on " + bridge.name() + " with the app stopped: " + learned);
        }

        // start: forwarding comes back
        controller.console("start " + app.id());
        Poll.until("learning switch active again", CONSOLE, this::learningSwitch, r -> r.state().equals("Active"));
        assertForwardingLearned(h1, h2);

        // replace the jar in hot/ with a rebuilt bundle of another version
        Path hotJar = hotJar();
        String oldVersion = BundleJar.version(hotJar);
        String newVersion = BundleJar.nextMicro(oldVersion, "hotswap");
        Path rebuilt = distribution.home().resolve("learningswitch-rebuilt.jar");
        BundleJar.rebuildWithVersion(hotJar, rebuilt, newVersion);
        int mark = controller.logMark();
        try {
            // one rename: FileInstall never sees a half-written jar
            Files.move(rebuilt, hotJar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        controller.awaitLog(Pattern.compile("learningswitch " + Pattern.quote(newVersion) + " active"), mark,
                Duration.ofSeconds(30));
        BundleList.Row updated = Poll.until("lb to list the learning switch at " + newVersion, CONSOLE,
                this::learningSwitch, r -> r.version().equals(newVersion) && r.state().equals("Active"));
        assertEquals(app.id(), updated.id(), "the jar replacement installed a second bundle instead of updating");
        assertNotEquals(oldVersion, updated.version());
        assertEquals(pid, controller.pid());
        assertTrue(controller.isAlive(), "the controller JVM did not survive the update");
        assertEquals(2, controller.health().orElseThrow().switches(), "switches dropped during the update");

        forgetLearnedFlows();
        assertForwardingLearned(h1, h2);
    }

    private BundleList.Row learningSwitch() {
        return controller.bundles(CONSOLE).find(LEARNING_SWITCH)
                .orElseThrow(() -> new AssertionError("no learning switch bundle in lb"));
    }

    private Path hotJar() {
        try (var jars = Files.list(distribution.hot())) {
            List<Path> learning = jars.filter(p -> p.getFileName().toString().contains("learningswitch")).toList();
            assertEquals(1, learning.size(), "learning switch jars in hot/: " + learning);
            return learning.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertForwardingLearned(Host a, Host b) {
        a.awaitReachable(b, FORWARDING);
        Host.PingResult pings = a.ping(b, 3);
        assertTrue(pings.allAnswered(), pings.output());
        for (Bridge bridge : line.switches()) {
            Poll.until("learned flows on " + bridge.name(), Duration.ofSeconds(5), bridge::dumpFlows,
                    flows -> flows.stream().anyMatch(FlowEntry::isReactive));
        }
    }

    /**
     * Deletes the learned flows (those towards a host's MAC) and keeps the table-miss flow; again while
     * a packet-in the controller had not yet answered when they went has a flow learned back.
     */
    private static void forgetLearnedFlows() {
        for (Bridge bridge : line.switches()) {
            Poll.until("no learned flow left on " + bridge.name(), Duration.ofSeconds(10), () -> {
                for (Host host : line.hosts()) {
                    bridge.deleteFlows("dl_dst=" + host.mac());
                    bridge.deleteFlows("dl_src=" + host.mac());
                }
                return bridge.dumpFlows().stream().filter(FlowEntry::isReactive).toList();
            }, List::isEmpty);
        }
    }

    private static long tableMissPackets() {
        return line.switches().stream().flatMap(b -> b.dumpFlows().stream())
                .filter(FlowEntry::isTableMiss).mapToLong(FlowEntry::packets).sum();
    }
}
