package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.BenchRun;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.MastershipTimeline;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 18, "what must be shown" 1: the default profile (every app of hot/) serves switches that do
 * not answer what OpenFlow does not require. 16 emulated OpenFlow 1.0 switches of the load generator
 * answer the handshake (FEATURES), echo and barrier, and
 * <ul>
 *   <li>ignore every statistics request (the description too) and the Nicira role request; or</li>
 *   <li>answer all of them, but 20 s late.</li>
 * </ul>
 * Each kind connects and sends packet-ins for 60 s (latency mode, twelve tests of 5 s after a
 * warmup). They must stay connected the whole time (the generator stops at the first connection the
 * controller closes, and the controller's log names no switch it disconnected), every switch must
 * get answers in every test and no packet-in may wait a second or more for its answer (in latency
 * mode a packet-in the controller dropped stalls its switch until the test ends). The controller
 * must have asked for statistics (else nothing was tested). For the silent switches the static flows'
 * reconciliation must read "not possible" over REST for every one of them while they are connected,
 * for the late ones too: their replies come after the controller's 10 s request timeout and are not
 * taken for answers.
 *
 * <p>Cost: about 2 minutes 30 s (two runs of 65 s and a controller start). The REST path it assumes
 * for the reconciliation state is in {@link ControllerStateApi}.
 */
@Timeout(360)
// Isolated: 16 emulated switches for two minutes load the machine; the packet-ins' waits are checked
@Isolated
class SilentSwitchesIT {

    private static final int SWITCHES = 16;
    /** Twelve counted tests of 5 s: 60 s of packet-ins, after a warmup test. */
    private static final List<String> SIXTY_SECONDS = List.of("-s", Integer.toString(SWITCHES), "-l", "13", "-m",
            "5000", "-w", "1", "-M", "1000", "-V", "1.0");
    private static final Duration RUN = Duration.ofSeconds(150);
    private static final Duration RECONCILED = Duration.ofSeconds(55);
    /** What the controller logs when it closes a switch's connection (handshake timeout, echo, not reading...). */
    private static final Pattern DISCONNECTING = Pattern.compile(
            ".*(disconnecting|closing the connection|handshake timed out|handshake failed).*");

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static RestClient rest;

    @BeforeAll
    static void startController() {
        artifacts = ArtifactDirectory.forTest("SilentSwitchesIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        rest = controller.rest();
        // The apps are hot/ bundles that start a second or two after the controller reports UP; a
        // packet-in that came before the apps answering it were there would be counted unanswered.
        Poll.until("the default profile's PACKET_IN listeners", Duration.ofSeconds(60), () -> {
            List<String> listeners = new ArrayList<>();
            rest.get("/api/v1/pipelines/PACKET_IN").json().path("listeners").forEach(l -> listeners.add(l.asText()));
            return listeners;
        }, l -> l.containsAll(List.of("topology", "devices", "forwarding", "learningswitch")));
    }

    @AfterAll
    static void stopController() {
        Cleanup cleanup = new Cleanup("SilentSwitchesIT controller");
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void switchesThatIgnoreEveryStatisticsAndRoleRequestAreServed() {
        BenchRun run = serve(1, List.of("--stats", "ignore", "--stats-types", "all,desc", "--role", "ignore"));
        assertEquals(run.statistics().received(), run.statistics().ignored(), run.toString());
    }

    @Test
    void switchesThatAnswerTwentySecondsLateAreServed() {
        BenchRun run = serve(101, List.of("--stats-types", "all,desc", "--stats-delay", "20000", "--role-delay",
                "20000"));
        assertEquals(run.statistics().received(), run.statistics().late(), run.toString());
    }

    /**
     * Runs 16 switches with datapath ids from {@code dpidOffset} and {@code behaviour} for 60 s of
     * packet-ins; while they run, waits for the reconciliation of every one to read "not possible".
     */
    private static BenchRun serve(long dpidOffset, List<String> behaviour) {
        int mark = controller.logMark();
        List<String> args = new ArrayList<>(List.of("-p", Integer.toString(controller.openflowPort()), "-o",
                Long.toString(dpidOffset)));
        args.addAll(SIXTY_SECONDS);
        args.addAll(behaviour);
        CompletableFuture<BenchRun> running = CompletableFuture.supplyAsync(
                () -> BenchRun.run(distribution.home(), RUN, args));

        List<String> dpids = new ArrayList<>();
        for (long d = dpidOffset; d < dpidOffset + SWITCHES; d++) {
            dpids.add(MastershipTimeline.dpid(d));
        }
        Map<String, String> states = new LinkedHashMap<>();
        AssertionError notReconciled = null;
        try {
            Poll.until("the reconciliation of the " + SWITCHES + " switches to read '" + ControllerStateApi.NOT_POSSIBLE
                    + "' over REST", RECONCILED, Duration.ofSeconds(1), () -> {
                        dpids.forEach(d -> states.put(d, ControllerStateApi.reconciliationState(rest, d)));
                        return states;
                    }, s -> s.values().stream().allMatch(ControllerStateApi::notPossible));
        } catch (AssertionError e) {
            notReconciled = e;
        }
        BenchRun run = running.join();
        System.out.printf("SilentSwitchesIT %s: %s%n  %s%n  statistics requests %s, role requests %s; longest wait for"
                + " an answer %.1f ms, %d unanswered%n  reconciliation %s%n", behaviour, run.succeeded()
                ? run.resultLine() : "exit " + run.command().exitCode(), run.command().stderr().lines()
                .filter(l -> l.startsWith("controller requests")).findFirst().orElse(""),
                run.succeeded() ? run.statistics() : "?", run.succeeded() ? run.roles() : "?",
                run.succeeded() ? run.longestWaitMs() : -1, run.succeeded() ? run.unanswered() : -1, states);

        assertTrue(run.succeeded(), "the switches stayed connected for the whole run\n" + run + "\ncontroller log:\n"
                + tail(controller.log().substring(mark)));
        String log = controller.log().substring(mark);
        List<String> disconnects = log.lines().filter(l -> DISCONNECTING.matcher(l).matches())
                .filter(l -> dpids.stream().anyMatch(l::contains)).toList();
        assertEquals(List.of(), disconnects, "the controller closed none of the switches' connections");
        List<long[]> tests = run.tests();
        assertEquals(13, tests.size(), run.toString());
        for (int t = 1; t < tests.size(); t++) {
            for (int sw = 0; sw < SWITCHES; sw++) {
                assertTrue(tests.get(t)[sw] > 0, "switch " + (sw + 1) + " got answers in test " + (t + 1) + "\n" + run);
            }
        }
        assertEquals(0, run.unanswered(), "no packet-in waited a second or more for its answer\n" + run);
        assertTrue(run.statistics().received() > 0, "the controller asked the switches for statistics\n" + run);
        if (notReconciled != null) {
            throw notReconciled;
        }
        return run;
    }

    private static String tail(String log) {
        List<String> lines = log.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
