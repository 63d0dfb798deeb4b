package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.Testbed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 3, item 4: static flows on two real Open vSwitch bridges (OpenFlow 1.3) and one controller.
 * An entry pushed through the Java API is on the switch with its match, priority and actions once
 * the push reports INSTALLED; an entry lacking a match prerequisite is refused at once with a message
 * naming it, and nothing reaches the switch; a deleted entry leaves the switch. When a switch
 * reconnects, reconciliation puts back the entries missing on it, removes a stale flow carrying the
 * static-flows cookie, and leaves the entries in place alone; after a controller restart on the same
 * data directory, the entries kept in the cluster's store (here the embedded ZooKeeper, whose data
 * lives in the data directory) are put back on the switch.
 *
 * <p>The entries go through the Java API of the real controller JVM: the console's {@code staticadd},
 * {@code staticflows} and {@code staticdel} (StaticFlowsCommands) are thin Gogo commands that call
 * {@code StaticFlowService} directly and print its {@code Result} or listing.
 *
 * <p>The controller runs with {@code clearFlowsOnConnect=false}: with the default, the handshake empties
 * the flow table before reconciliation reads it, and the flush, not reconciliation, would be what
 * removes a stale flow.
 *
 * <p>Each test uses entries of its own names, so their order does not matter. The reconnect test owns
 * switch 2 alone, since it checks reconciliation's counts for the whole switch.
 */
@Timeout(180)
class StaticFlowsIT {

    private static final Duration COMMAND = Duration.ofSeconds(10);
    private static final Duration CONNECT = Duration.ofSeconds(30);
    /** The top 16 bits of every static flow's cookie ("SF"). */
    private static final long STATIC_COOKIE = 0x5346L << 48;
    private static final String STATIC_COOKIE_MATCH = "cookie=0x5346000000000000/0xffff000000000000";
    /** The one-line answer of staticadd and staticdel: a Result's outcome and its problems. */
    private static final Pattern RESULT = Pattern.compile(
            "^(?:g! )?((?:INSTALLED|STORED|DELETED|REFUSED|FAILED|NOT_FOUND)\\b.*)$", Pattern.MULTILINE);
    /** staticflows DPID: the switch's line, one line per entry (details indented further), the next prompt. */
    private static final Pattern LISTING_DONE = Pattern.compile(
            "(no static entries|\\p{XDigit}{2}(?::\\p{XDigit}{2}){7}\\n(?: {2}.*\\n)+)g! ");
    /** "  INSTALLED  flow sf-web table=0 priority=100 ..." */
    private static final Pattern LISTED = Pattern.compile("^ {2}([A-Z]+) {2}(?:flow|group|meter) (\\S+)(.*)$",
            Pattern.MULTILINE);
    private static final Pattern COOKIE = Pattern.compile("\\bcookie=0x(\\p{XDigit}+)");

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static Bridge s1;
    private static Bridge s2;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("StaticFlowsIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        // By default the handshake deletes every flow before the switch initializers run, so there would
        // be nothing for reconciliation to keep, re-add or remove: keep the switches' flows on connect.
        distribution.configure("io.heliograph.openflow", Map.of("clearFlowsOnConnect", "false"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        testbed = Testbed.start("StaticFlowsIT");
        // s1: h1 on port 1, s2 on port 2; s2: h2 on port 1, s1 on port 2
        Testbed.LinearTopology line = testbed.linear(2, List.of("OpenFlow13"),
                testbed.controllerTarget("tcp", controller.openflowPort()));
        s1 = line.switches().get(0);
        s2 = line.switches().get(1);
        controller.awaitSwitches(2, CONNECT);
        // the app is a hot/ bundle: its commands may come a little after the controller reports UP
        Poll.until("the staticflows command to answer", CONNECT,
                () -> controller.console("staticflows", Pattern.compile("no static entries|Command not found"), COMMAND),
                out -> out.contains("no static entries"));
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("StaticFlowsIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void anAddedEntryIsOnTheSwitchWithItsMatchPriorityAndActions() {
        assertEquals("INSTALLED", shell("staticadd 1 sf-web priority=100 eth_type=0x0800 ip_proto=6 tcp_dst=5001 actions=output=2"));
        assertEquals("INSTALLED", shell("staticadd 1 sf-to-h2 priority=110 eth_type=0x0800 ipv4_dst=10.0.0.2 actions=output=2"));

        // INSTALLED means the switch confirmed the flow (barrier): it is there now, without waiting
        FlowEntry web = onlyStaticFlow(s1, "tcp,tp_dst=5001");
        assertEquals(100, web.priority(), web.line());
        assertEquals("output:2", web.actions(), web.line());
        FlowEntry toH2 = onlyStaticFlow(s1, "ip,nw_dst=10.0.0.2");
        assertEquals(110, toH2.priority(), toH2.line());
        assertEquals("output:2", toH2.actions(), toH2.line());

        Map<String, String> listed = listing(1);
        assertEquals("INSTALLED", state(listed, "sf-web"), listed.toString());
        assertEquals("INSTALLED", state(listed, "sf-to-h2"), listed.toString());
        assertTrue(listed.get("sf-web").contains("priority=100") && listed.get("sf-web").contains("tcp_dst=5001"),
                listed.get("sf-web"));
        // kept in the cluster's shared store (the embedded ZooKeeper), not in a file of the data directory
        assertFalse(Files.exists(controller.dataDir().resolve("staticflows").resolve("entries.json")));
    }

    @Test
    void anEntryLackingMatchPrerequisitesIsRefusedAndNothingReachesTheSwitch() {
        assertEquals("INSTALLED", shell("staticadd 1 sf-dns priority=100 eth_type=0x0800 ip_proto=17 udp_dst=53 actions=output=2"));
        List<String> before = controlledFlows(s1);

        long started = System.nanoTime();
        String noEthType = shell("staticadd 1 sf-bad priority=100 tcp_dst=8080 actions=output=2");
        String noIpProto = shell("staticadd 1 sf-bad priority=100 eth_type=0x0800 tcp_dst=8080 actions=output=2");
        // a refused replacement: sf-dns as defined stays in force
        String badReplacement = shell("staticadd 1 sf-dns priority=100 eth_type=0x0800 udp_dst=53 actions=output=1");
        System.out.printf("three refusals answered in %d ms%n", (System.nanoTime() - started) / 1_000_000);

        assertTrue(noEthType.startsWith("REFUSED: ") && noEthType.contains("tcp_dst")
                && noEthType.contains("eth_type=0x0800"), noEthType);
        assertTrue(noIpProto.startsWith("REFUSED: ") && noIpProto.contains("tcp_dst")
                && noIpProto.contains("ip_proto=6"), noIpProto);
        assertTrue(badReplacement.startsWith("REFUSED: ") && badReplacement.contains("udp_dst")
                && badReplacement.contains("ip_proto=17"), badReplacement);

        assertEquals(before, controlledFlows(s1), "the flow table after the refusals");
        assertTrue(s1.dumpFlows().stream().noneMatch(f -> f.match().contains("tp_dst=8080")), s1.dumpFlows().toString());
        FlowEntry dns = onlyStaticFlow(s1, "udp,tp_dst=53");
        assertEquals("output:2", dns.actions(), dns.line());
        Map<String, String> listed = listing(1);
        assertFalse(listed.containsKey("sf-bad"), listed.toString());
        assertEquals("INSTALLED", state(listed, "sf-dns"), listed.toString());
        assertTrue(listed.get("sf-dns").contains("ip_proto=17"), listed.get("sf-dns"));
    }

    @Test
    void aDeletedEntryLeavesTheSwitch() {
        assertEquals("INSTALLED", shell("staticadd 1 sf-temp priority=130 eth_type=0x0800 ip_proto=17 udp_dst=6000 actions=output=2"));
        onlyStaticFlow(s1, "udp,tp_dst=6000");
        List<String> others = staticShapes(s1).stream().filter(f -> !f.contains(" udp,tp_dst=6000 ")).toList();

        // DELETED is answered once the switch confirmed the removal
        assertEquals("DELETED", shell("staticdel 1 sf-temp"));
        assertEquals(others, staticShapes(s1));
        assertFalse(listing(1).containsKey("sf-temp"));

        String again = shell("staticdel 1 sf-temp");
        assertTrue(again.startsWith("NOT_FOUND") && again.contains("sf-temp"), again);
    }

    @Test
    void aReconnectingSwitchGetsMissingEntriesBackAndLosesStaleOnes() {
        assertEquals("INSTALLED", shell("staticadd 2 rc-kept priority=100 eth_type=0x0800 ipv4_dst=10.0.0.1 actions=output=2"));
        assertEquals("INSTALLED", shell("staticadd 2 rc-lost priority=100 eth_type=0x0800 ip_proto=17 udp_dst=5353 actions=output=1"));
        List<String> defined = staticShapes(s2);
        assertEquals(2, defined.size(), defined.toString());

        // Disconnect by pointing the bridge where nothing listens: OVS flushes every flow when a bridge
        // goes from no controller to one (del-controller, then set-controller), which would do
        // reconciliation's work for it. Changing the target keeps the flows.
        s2.setController(testbed.controllerTarget("tcp", ControllerProcess.freePort()));
        controller.awaitSwitches(1, CONNECT);
        s2.deleteFlows("udp,tp_dst=5353");
        s2.ofctl("add-flow", "cookie=0x53460000000000ff,priority=90,tcp,tp_dst=9999,actions=drop");
        // not a static flow: reconciliation must leave it alone
        s2.ofctl("add-flow", "cookie=0x1,priority=80,udp,tp_dst=7777,actions=drop");
        List<String> whileAway = staticShapes(s2);
        assertTrue(whileAway.stream().anyMatch(f -> f.contains("tp_dst=9999")), whileAway.toString());
        assertTrue(whileAway.stream().noneMatch(f -> f.contains("tp_dst=5353")), whileAway.toString());

        int mark = controller.logMark();
        s2.setController(testbed.controllerTarget("tcp", controller.openflowPort()));
        controller.awaitSwitches(2, CONNECT);
        Poll.until("s2's static flows to be the defined ones again", CONNECT,
                () -> staticShapes(s2), defined::equals);
        // the kept entry was left alone, not pushed again
        controller.awaitLog(Pattern.compile("Static entries on " + s2.dpid()
                + ": 1 in place, 1 pushed, 1 stale removed, 0 failed"), mark, COMMAND);
        assertTrue(s2.dumpFlows().stream().anyMatch(f -> cookie(f) == 1 && f.match().equals("udp,tp_dst=7777")),
                "another app's flow was removed: " + s2.dumpFlows());
        Map<String, String> listed = listing(2);
        assertEquals("INSTALLED", state(listed, "rc-kept"), listed.toString());
        assertEquals("INSTALLED", state(listed, "rc-lost"), listed.toString());
    }

    @Test
    void aRestartedControllerPutsThePersistedEntriesBack() {
        assertEquals("INSTALLED", shell("staticadd 1 sf-persist priority=120 eth_type=0x0800 ip_proto=6 tcp_src=22 actions=output=1"));
        List<String> defined = staticShapes(s1);
        Map<String, String> listedBefore = listing(1);
        assertTrue(defined.stream().anyMatch(f -> f.contains("tcp,tp_src=22")), defined.toString());

        ControllerProcess first = controller;
        first.terminate(Duration.ofSeconds(30));
        first.close();
        // the bridge keeps its controller target, so OVS keeps the flows: remove ours by hand
        s1.deleteFlows(STATIC_COOKIE_MATCH);
        assertEquals(List.of(), staticShapes(s1));

        long started = System.nanoTime();
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller-restarted.log"),
                first.openflowPort(), first.httpPort(), first.dataDir());
        controller.awaitHealthy(Duration.ofSeconds(60));
        // the bridges were never told anything: they reconnect by themselves (OVS backs off up to 8 s)
        controller.awaitSwitches(2, CONNECT);
        Poll.until("s1's static flows to be back as defined", CONNECT,
                () -> staticShapes(s1), defined::equals);
        System.out.printf("restart: entries back on the switch %d ms after the new controller was started%n",
                (System.nanoTime() - started) / 1_000_000);

        Map<String, String> listedAfter = Poll.until("every entry of s1 to be listed INSTALLED", CONNECT,
                () -> listing(1), l -> l.values().stream().allMatch(v -> v.startsWith("INSTALLED ")));
        assertEquals(listedBefore, listedAfter);
    }

    // ---- the console ----

    /** Runs a staticadd or staticdel and returns its one-line answer. */
    private static String shell(String command) {
        String output = controller.console(command, RESULT, COMMAND);
        Matcher m = RESULT.matcher(output);
        assertTrue(m.find(), output);
        return m.group(1).strip();
    }

    /** The console's {@code staticflows DPID}: entry name -> "STATE  entry as listed". */
    private static Map<String, String> listing(int dpid) {
        String output = controller.console("staticflows " + dpid, LISTING_DONE, COMMAND);
        Matcher done = LISTING_DONE.matcher(output);
        assertTrue(done.find(), output);
        Map<String, String> entries = new TreeMap<>();
        Matcher m = LISTED.matcher(done.group(1));
        while (m.find()) {
            entries.put(m.group(2), m.group(1) + " " + m.group(3).strip());
        }
        return entries;
    }

    private static String state(Map<String, String> listing, String name) {
        String line = listing.get(name);
        return line == null ? null : line.substring(0, line.indexOf(' '));
    }

    // ---- the switch ----

    /** The flows carrying the static-flows cookie, in dump order. */
    private static List<FlowEntry> staticFlows(Bridge bridge) {
        return bridge.dumpFlows().stream().filter(f -> (cookie(f) & (0xffffL << 48)) == STATIC_COOKIE).toList();
    }

    /** The static flows of {@code bridge} as comparable text, sorted (OVS's dump order is not stable). */
    private static List<String> staticShapes(Bridge bridge) {
        return staticFlows(bridge).stream().map(StaticFlowsIT::shape).sorted().toList();
    }

    /** The one static flow on {@code bridge} with exactly this match (as ovs-ofctl prints it). */
    private static FlowEntry onlyStaticFlow(Bridge bridge, String match) {
        List<FlowEntry> found = staticFlows(bridge).stream().filter(f -> f.match().equals(match)).toList();
        assertEquals(1, found.size(), "static flows matching " + match + " on " + bridge + ": " + bridge.dumpFlows());
        return found.get(0);
    }

    /** Every flow but those forwarding installs and lets expire, as comparable text. */
    private static List<String> controlledFlows(Bridge bridge) {
        return bridge.dumpFlows().stream().filter(f -> !f.isReactive()).map(StaticFlowsIT::shape).sorted().toList();
    }

    /** What a flow is, without its counters and age. */
    private static String shape(FlowEntry f) {
        return String.format("cookie=0x%x priority=%d %s actions=%s", cookie(f), f.priority(), f.match(), f.actions());
    }

    private static long cookie(FlowEntry f) {
        Matcher m = COOKIE.matcher(f.line());
        return m.find() ? Long.parseUnsignedLong(m.group(1), 16) : 0;
    }
}
