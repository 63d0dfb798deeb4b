package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerCluster;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.ControllerRoles;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.MastershipTimeline;
import io.heliograph.testbed.MastershipTimeline.Interval;
import io.heliograph.testbed.PingLog;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RoleRecorder;
import io.heliograph.testbed.RoleRecorder.Reading;
import io.heliograph.testbed.TcpProxy;
import io.heliograph.testbed.Testbed;
import io.heliograph.testbed.ZooKeeperEnsemble;
import io.heliograph.testbed.ZooKeeperServerProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 6, item 4: ZooKeeper faults under a running cluster. Three controller JVMs on a three-server
 * ZooKeeper ensemble (each server a JVM of its own) and a line of Open vSwitch bridges whose every
 * switch connects to all three. Instance c1 reaches each ZooKeeper server through a {@link TcpProxy}
 * of its own, so its path to ZooKeeper can be cut while its switches and the other instances keep
 * theirs.
 *
 * <p>Two views of mastership: the switches' ({@code ovs-vsctl list controller}, read throughout by a
 * {@link RoleRecorder}; OVS refreshes that column only every 5 s or so) for the states the cluster
 * settles in, and the instances' own logs ({@link MastershipTimeline}) for when each instance took
 * and gave up each switch. At no point of the run may two instances act as master of one switch at
 * once, nor a bridge show two masters.
 *
 * <ul>
 *   <li>The ZooKeeper leader stopped: every session is suspended while the other two servers elect a
 *       leader (each instance gives up its switches for that long), then the cluster carries on: no
 *       session is lost, every switch has its master again, hosts keep pinging over the flows in
 *       place, and with the server still down a mastership moves through REST, the masterships are
 *       re-balanced, and a switch that connects gets a master (all ZooKeeper writes). The server is
 *       started again.</li>
 *   <li>c1 cut off from ZooKeeper (its proxies close their connections and black-hole new ones), and
 *       again with its connections silenced (open, carrying nothing: a pulled cable): c1 stops acting
 *       as master within the session timeout, by itself and before anyone else takes its switches;
 *       its log says its session was suspended, its REST API that it has none; once its session
 *       expires the others see it leave (their {@code /api/v1/cluster}) and take its switches. Healed,
 *       it joins again and, after re-balancing, masters switches again.</li>
 * </ul>
 */
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Isolated: controller JVMs and a ZooKeeper ensemble behind TCP proxies; fault and fail-over times measured
@Isolated
class ZooKeeperFaultsIT {

    private static final int INSTANCES = 3;
    /** With the switch added later, six: two for each instance once balanced (the balancer moves nothing
     * while no instance masters more than ceil(switches / instances), so with four a returning instance
     * could stay with none). */
    private static final int LINE = 5;
    /**
     * The session timeout the instances ask for. It bounds how long a cut-off instance's switches wait
     * for a new master, and it must outlast a ZooKeeper leader change: while the remaining servers
     * elect a leader every client is disconnected, and a client reconnects only after random pauses of
     * up to a second per server it tries (1 to 3 s in all here). With a shorter timeout (the
     * distribution's 1000 ms) stopping the leader expires every instance's session, and every switch
     * is elected again.
     */
    static final int SESSION_TIMEOUT_MS = 5000;
    /**
     * How long each candidate in line waits for the one before it to take a masterless switch (default
     * 200 ms): on a loaded two-core machine running seven JVMs, the preferred instance can take longer
     * than that to hear of a hand-over, and the next in line would take the switch instead.
     */
    private static final int TAKEOVER_GRACE_MS = 1000;
    /** Scheduling on a loaded two-core machine: how late a log line may be after the event it reports. */
    private static final Duration MARGIN = Duration.ofSeconds(2);
    /** OVS refreshes the role column every 5 s or so; more on a loaded machine. */
    private static final Duration OVS_REFRESH = Duration.ofSeconds(20);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final List<String> OPENFLOW13 = List.of("OpenFlow13");
    private static final Pattern SUSPENDED_LINE = Pattern.compile(
            "^(\\S+ \\S+) .*ZooKeeper session suspended: no longer master of (\\d+) switch", Pattern.MULTILINE);
    private static final Pattern SESSION_STATE = Pattern.compile(
            "^(\\S+ \\S+) .*cluster: ZooKeeper (CONNECTED|RECONNECTED|SUSPENDED|LOST)", Pattern.MULTILINE);

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ZooKeeperEnsemble zookeeper;
    private static final List<TcpProxy> proxies = new ArrayList<>();
    private static ControllerCluster cluster;
    private static Testbed testbed;
    private static Testbed.LinearTopology line;
    private static final List<Bridge> switches = new ArrayList<>();
    private static RoleRecorder recorder;
    private static long recordingSince;

    @BeforeAll
    static void start() {
        Testbed.requireRoot();
        long started = System.nanoTime();
        artifacts = ArtifactDirectory.forTest("ZooKeeperFaultsIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        distribution.configure("io.heliograph.cluster", Map.of("sessionTimeoutMs", Integer.toString(SESSION_TIMEOUT_MS),
                "mastership.takeoverGraceMs", Integer.toString(TAKEOVER_GRACE_MS)));
        zookeeper = ZooKeeperEnsemble.start(distribution, artifacts, 3);
        zookeeper.awaitQuorum(SETTLE);
        for (ZooKeeperServerProcess server : zookeeper.servers()) {
            proxies.add(TcpProxy.start("c1-to-zookeeper-" + server.clientPort(), "127.0.0.1", server.clientPort()));
        }
        String throughProxies = proxies.stream().map(TcpProxy::address).collect(Collectors.joining(","));
        List<String> connects = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            connects.add(i == 0 ? throughProxies : zookeeper.connectString());
        }
        cluster = ControllerCluster.start(distribution, artifacts, connects);
        testbed = Testbed.start("ZooKeeperFaultsIT");
        line = testbed.linear(LINE, OPENFLOW13, targets());
        switches.addAll(line.switches());
        reconnectQuickly(switches);
        recordingSince = System.nanoTime();
        recorder = RoleRecorder.start(testbed.ovs(), Duration.ofMillis(200));
        System.out.printf("ZooKeeperFaultsIT: ensemble, 3 instances and %d switches up in %d ms%n", LINE,
                (System.nanoTime() - started) / 1_000_000);
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("ZooKeeperFaultsIT");
        cleanup.close("role recorder", recorder);
        cleanup.close("testbed", testbed);
        cleanup.close("controllers", cluster);
        proxies.forEach(p -> cleanup.close(p.toString(), p));
        cleanup.close("ZooKeeper ensemble", zookeeper);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    @Order(1)
    void withItsLeaderStoppedTheEnsembleCarriesTheClusterOn() throws Exception {
        ControllerRoles before = awaitBalanced("the line connected to all three instances");
        Host from = line.first();
        Host to = line.last();
        from.awaitReachable(to, Duration.ofSeconds(30));
        Path pingLog = testbed.workDir().resolve("ping-leader-stopped.txt");
        Process ping = from.startBackground(pingLog, "ping", "-n", "-O", "-i", "0.05", to.ip());
        // until the topology is known, forwarding floods through the controller instead of installing flows
        for (Bridge b : line.switches()) {
            Poll.until("forwarding flows for the ping both ways on " + b.name(), SETTLE, b::dumpFlows,
                    flows -> carries(flows, to) && carries(flows, from));
        }
        long answeredBefore = new PingLog(pingLog).answered();
        Poll.until("the ping under way", Duration.ofSeconds(10), () -> new PingLog(pingLog).answered() > answeredBefore + 5);
        int firstSeq = new PingLog(pingLog).lastSeq() + 1;

        List<Integer> marks = marks();
        ZooKeeperServerProcess leader = zookeeper.leader().orElseThrow(() -> new AssertionError("no ZooKeeper leader"));
        long stoppedAt = System.currentTimeMillis();
        assertEquals(143, leader.stop(Duration.ofSeconds(30)), "the leader stops cleanly on SIGTERM");
        zookeeper.awaitQuorum(SETTLE);
        long quorumMs = System.currentTimeMillis() - stoppedAt;
        // every client is disconnected while the two servers left elect a leader (its server stops serving)
        Map<String, long[]> disconnected = new TreeMap<>(); // instance -> {suspended, back} (log times, epoch ms)
        for (int i = 0; i < INSTANCES; i++) {
            ControllerProcess c = cluster.get(i);
            int mark = marks.get(i);
            disconnected.put(id(i), Poll.until(id(i) + "'s ZooKeeper session suspended and up again", SETTLE,
                    () -> disconnection(c.log(), mark).orElse(null), Objects::nonNull));
        }
        long sessionsUpMs = disconnected.values().stream().mapToLong(d -> d[1]).max().orElseThrow() - stoppedAt;
        Map<String, Long> disconnectedMs = new TreeMap<>();
        disconnected.forEach((id, d) -> disconnectedMs.put(id, d[1] - d[0]));
        // each instance takes its switches back (same master nodes, same session) once the switch confirms
        Map<String, String> mastersBefore = timeline().mastersAt(stoppedAt);
        Map<String, String> mastersAfter = Poll.until("every switch mastered again after the leader stopped", SETTLE,
                () -> timeline().mastersAt(System.currentTimeMillis()), m -> m.size() == switches.size());
        long settled = System.nanoTime();
        Reading again = recorder.awaitFirst("OVS to show one master per switch after the leader stopped", settled,
                OVS_REFRESH, r -> r.oneMasterEach(INSTANCES) && r.roles().size() == switches.size());

        // Moving a switch, re-balancing and a switch connecting all take ZooKeeper writes.
        Bridge moving = line.switches().get(0);
        String from0 = byBridge(mastersAfter).get(moving.name());
        String to0 = from0.equals("c2") ? "c3" : "c2";
        long moveStarted = System.nanoTime();
        RestClient.Response moved = cluster.get(1).rest().put("/api/v1/cluster/masterships/" + moving.dpid(),
                Map.of("master", to0));
        long moveMs = (System.nanoTime() - moveStarted) / 1_000_000;
        assertEquals(200, moved.status(), moved.toString());
        assertEquals(to0, moved.json().get("master").asText(), moved.toString());
        RestClient.Response rebalanced = cluster.get(2).rest().post("/api/v1/cluster/rebalance", Map.of());
        assertEquals(200, rebalanced.status(), rebalanced.toString());

        // A switch connecting now needs ZooKeeper writes (its candidates, its master node) to get a master.
        Bridge late = testbed.addSwitch(LINE + 1, OPENFLOW13);
        long pointedAt = System.currentTimeMillis();
        late.setController(targets());
        reconnectQuickly(List.of(late));
        switches.add(late);
        String lateDpid = MastershipTimeline.dpid(late.datapathId());
        Interval lateMaster = Poll.until("the switch that connected with the leader stopped to get a master", SETTLE,
                () -> timeline().firstMasterAfter(lateDpid, pointedAt, "").orElse(null), Objects::nonNull);
        recorder.awaitFirst("OVS to show the new switch with one master", System.nanoTime(), OVS_REFRESH,
                r -> r.oneMasterEach(INSTANCES) && r.roles().containsKey(late.name()));

        long answeredSoFar = new PingLog(pingLog).answered();
        Poll.until("pings still answered", Duration.ofSeconds(10), () -> new PingLog(pingLog).answered(), n -> n > answeredSoFar + 5);
        ping.destroy();
        ping.waitFor();

        MastershipTimeline timeline = timeline();
        long now = System.currentTimeMillis();
        Map<String, Long> withoutMaster = new TreeMap<>();
        for (Bridge b : line.switches()) {
            withoutMaster.put(b.name(), timeline.longestWithoutMaster(MastershipTimeline.dpid(b.datapathId()), stoppedAt, now));
        }
        Map<String, Long> sessionsLost = new TreeMap<>();
        for (int i = 0; i < INSTANCES; i++) {
            sessionsLost.put(id(i), SESSION_STATE.matcher(cluster.get(i).log().substring(marks.get(i))).results()
                    .filter(m -> m.group(2).equals("LOST")).count());
        }
        List<Integer> lost = new PingLog(pingLog).lost(firstSeq);
        System.out.printf("ZooKeeperFaultsIT leader stopped (session timeout %d ms): a quorum of two %d ms after the "
                        + "stop; each instance without its session (suspended to reconnected, from its log) %s ms, "
                        + "every session up %d ms after the stop (sessions lost: %s); longest without a master, "
                        + "from the logs: %s ms; masters before %s, after %s (logs), %s (OVS); %s moved from %s to "
                        + "%s by REST in %d ms; the new switch mastered by %s %d ms after it was pointed at the "
                        + "cluster; pings from the stop on: %d sent, lost %s%n",
                SESSION_TIMEOUT_MS, quorumMs, disconnectedMs, sessionsUpMs, sessionsLost, withoutMaster,
                byBridge(mastersBefore), byBridge(mastersAfter), masters(again.roles()), moving.name(), from0, to0,
                moveMs, lateMaster.instance(), lateMaster.start() - pointedAt, new PingLog(pingLog).lastSeq() - firstSeq + 1, lost);
        assertEquals(List.of(), lost, "established flows keep forwarding while ZooKeeper elects a leader");
        assertEquals(Map.of("c1", 0L, "c2", 0L, "c3", 0L), sessionsLost,
                "no instance lost its session to a leader change shorter than the session timeout");
        assertEquals(mastersBefore, mastersAfter, "the same masters, from the logs: nothing failed over");
        assertEquals(masters(before), masters(again.roles()), "the same masters, as OVS shows them");

        leader.restart();
        leader.awaitServing(SETTLE);
        Poll.until("all three servers serving again", SETTLE, zookeeper::modes,
                modes -> modes.stream().allMatch(Optional::isPresent));
        assertNoSplitBrain();
    }

    @Test
    @Order(2)
    void anInstanceCutOffFromZooKeeperStopsActingAsMasterAndRejoinsWhenHealed() {
        cutOffAndHeal("cut off (connections closed, new ones black-holed)", TcpProxy::cut);
    }

    @Test
    @Order(3)
    void anInstanceWhoseZooKeeperConnectionsGoSilentStopsActingAsMasterWithinTheSessionTimeout() {
        cutOffAndHeal("silenced (connections open, carrying nothing)", TcpProxy::silence);
    }

    /**
     * Applies {@code fault} to every proxy between c1 and ZooKeeper, checks c1 lets go of its switches
     * and the others take them, lets its session expire, heals, and checks it joins and masters
     * switches again.
     */
    private void cutOffAndHeal(String what, Consumer<TcpProxy> fault) {
        ControllerRoles before = awaitBalanced("balanced before c1 is " + what);
        ControllerProcess c1 = cluster.get(0);
        ControllerProcess c2 = cluster.get(1);
        String c1Target = cluster.target(testbed, 0);
        Map<String, String> itsSwitches = new TreeMap<>(); // dpid -> bridge
        for (Bridge b : switches) {
            if (c1Target.equals(before.masterOf(b.name()))) {
                itsSwitches.put(MastershipTimeline.dpid(b.datapathId()), b.name());
            }
        }
        assertFalse(itsSwitches.isEmpty(), "c1 masters a switch before the fault: " + before.roles());
        List<Integer> marks = marks();

        long cutAt = System.currentTimeMillis();
        long cutNanos = System.nanoTime();
        proxies.forEach(fault);

        // c1 lets go of every switch it masters, by itself, within the session timeout
        Matcher suspended = c1.awaitLog(SUSPENDED_LINE, marks.get(0), Duration.ofMillis(SESSION_TIMEOUT_MS).plus(MARGIN));
        long demotedMs = MastershipTimeline.epochMillis(suspended.group(1)) - cutAt;
        assertEquals(itsSwitches.size(), Integer.parseInt(suspended.group(2)),
                "c1 gave up every switch it mastered when its session was suspended:\n" + suspended.group());
        assertTrue(demotedMs <= SESSION_TIMEOUT_MS + MARGIN.toMillis(),
                "c1 stopped acting as master " + demotedMs + " ms after the fault, not within the session timeout");

        // the others take its switches once its session has expired
        Map<String, Interval> takeovers = Poll.until("c1's switches " + itsSwitches.values() + " mastered by the others",
                SETTLE, () -> {
                    MastershipTimeline timeline = timeline();
                    Map<String, Interval> found = new TreeMap<>();
                    itsSwitches.keySet().forEach(dpid -> timeline.firstMasterAfter(dpid, cutAt, "c1")
                            .ifPresent(i -> found.put(dpid, i)));
                    return found;
                }, found -> found.size() == itsSwitches.size());
        long movedMs = takeovers.values().stream().mapToLong(Interval::start).max().orElseThrow() - cutAt;
        Matcher left = c2.awaitLog(Pattern.compile("^(\\S+ \\S+) .*cluster: instance c1 left", Pattern.MULTILINE),
                marks.get(1), SETTLE);
        long leftMs = MastershipTimeline.epochMillis(left.group(1)) - cutAt;
        assertEquals(List.of("c2", "c3"), instances(c2), "the members c2 sees with c1's session expired");
        assertFalse(c1.rest().get("/api/v1/cluster").json().get("connected").asBoolean(),
                "c1 says it has no ZooKeeper session");
        Reading ovsMoved = recorder.awaitFirst("OVS to show c1's switches mastered by the others", cutNanos,
                OVS_REFRESH, r -> itsSwitches.values().stream().allMatch(b -> r.masterOf(b) != null
                        && !c1Target.equals(r.masterOf(b))) && !r.mastersByTarget().containsKey(c1Target));

        long healedAt = System.currentTimeMillis();
        proxies.forEach(TcpProxy::heal);
        Matcher joined = c2.awaitLog(Pattern.compile("^(\\S+ \\S+) .*cluster: instance c1 joined", Pattern.MULTILINE),
                marks.get(1), SETTLE);
        long joinedMs = MastershipTimeline.epochMillis(joined.group(1)) - healedAt;
        assertEquals(List.of("c1", "c2", "c3"), instances(c2), "the members c2 sees once c1 is back");
        Poll.until("c1 to say it has a ZooKeeper session again", SETTLE,
                () -> c1.rest().get("/api/v1/cluster").json().get("connected").asBoolean());
        Interval mastersAgain = Poll.until("c1 master of a switch again after re-balancing", SETTLE,
                () -> timeline().startedAfter("c1", healedAt).stream().findFirst().orElse(null), Objects::nonNull);
        Reading ovsBalanced = recorder.awaitFirst("OVS to show one master per switch, c1 among them", System.nanoTime(),
                OVS_REFRESH.plus(SETTLE), r -> r.oneMasterEach(INSTANCES) && r.mastersByTarget().containsKey(c1Target));

        assertEquals(List.of(), timeline().startedAfter("c1", cutAt).stream().filter(i -> i.start() < healedAt).toList(),
                "c1 acts as master of nothing while it has no ZooKeeper session");
        System.out.printf("ZooKeeperFaultsIT c1 %s (session timeout %d ms, %d switch(es) of its own): it stopped "
                        + "acting as master %d ms after the fault; its switches mastered by the others %d ms after it "
                        + "(OVS showed it by %d ms); the others saw c1 leave %d ms after it; healed, c1 joined again "
                        + "%d ms and mastered a switch again %d ms after the heal (OVS: %d switch(es) by %d ms)%n",
                what, SESSION_TIMEOUT_MS, itsSwitches.size(), demotedMs, movedMs, ovsMoved.millisAfter(cutNanos), leftMs,
                joinedMs, mastersAgain.start() - healedAt, ovsBalanced.roles().mastersByTarget().get(c1Target),
                System.currentTimeMillis() - healedAt);
        assertNoSplitBrain();
    }

    // ---- mastership ----

    private static MastershipTimeline timeline() {
        Map<String, String> logs = new LinkedHashMap<>();
        for (int i = 0; i < INSTANCES; i++) {
            logs.put(id(i), cluster.get(i).log());
        }
        return MastershipTimeline.fromLogs(logs);
    }

    /** No two instances ever acted as master of one switch at once, and OVS never showed two masters. */
    private static void assertNoSplitBrain() {
        MastershipTimeline timeline = timeline();
        assertEquals(List.of(), timeline.overlaps(), "two instances acting as master of one switch at once");
        Optional<Reading> two = recorder.firstDoubleMaster(recordingSince);
        assertEquals(Optional.empty(), two.map(r -> r.millisAfter(recordingSince) + " ms into the run: "
                + r.doubleMasters()), "a bridge with two masters at once");
        System.out.printf("ZooKeeperFaultsIT: %d stretches of mastership in the logs, none overlapping; %d readings "
                + "of OVS's roles, none with two masters on a bridge%n", timeline.intervals().size(),
                recorder.readings().size());
    }

    /**
     * Waits for OVS to show one master per switch, every instance mastering one, and for the instances'
     * logs to name the same masters (OVS's role column lags by seconds: a reading alone may show a
     * state the cluster has already left); returns that reading.
     */
    private static ControllerRoles awaitBalanced(String what) {
        record Seen(ControllerRoles ovs, Map<String, String> logs, boolean settled) {
        }
        long since = System.nanoTime();
        return Poll.until(what + ": one master per switch, every instance mastering one, the same in OVS and the logs",
                SETTLE.plus(OVS_REFRESH), () -> {
                    ControllerRoles r = recorder.latest(since).map(Reading::roles).orElse(null);
                    Map<String, String> logs = byBridge(timeline().mastersAt(System.currentTimeMillis()));
                    boolean balanced = r != null && r.oneMasterEach(INSTANCES) && r.roles().size() == switches.size()
                            && r.mastersByTarget().size() == Math.min(INSTANCES, switches.size());
                    return new Seen(r, logs, balanced && masters(r).equals(logs));
                }, Seen::settled).ovs();
    }

    /** The ids of the live instances {@code c} knows, from its {@code /api/v1/cluster}. */
    private static List<String> instances(ControllerProcess c) {
        RestClient.Response cluster = c.rest().get("/api/v1/cluster");
        assertEquals(200, cluster.status(), cluster.toString());
        List<String> ids = new ArrayList<>();
        cluster.json().get("instances").forEach(i -> ids.add(i.get("id").asText()));
        return ids;
    }

    /**
     * The log times (epoch ms) of the first suspension of the instance's ZooKeeper session after
     * {@code mark} in its log and of the reconnection that ended it; empty until both are logged.
     */
    static Optional<long[]> disconnection(String log, int mark) {
        Long suspended = null;
        Matcher m = SESSION_STATE.matcher(log);
        m.region(mark, log.length());
        while (m.find()) {
            boolean up = m.group(2).endsWith("CONNECTED");
            if (suspended == null && !up) {
                suspended = MastershipTimeline.epochMillis(m.group(1));
            } else if (suspended != null && up) {
                return Optional.of(new long[] {suspended, MastershipTimeline.epochMillis(m.group(1))});
            }
        }
        return Optional.empty();
    }

    /** Dpid -> instance as bridge name -> instance, for switches of this test. */
    private static Map<String, String> byBridge(Map<String, String> byDpid) {
        Map<String, String> named = new TreeMap<>();
        for (Bridge b : switches) {
            String instance = byDpid.get(MastershipTimeline.dpid(b.datapathId()));
            if (instance != null) {
                named.put(b.name(), instance);
            }
        }
        return named;
    }

    /** Bridge -> the instance mastering it. */
    private static Map<String, String> masters(ControllerRoles roles) {
        Map<String, String> masters = new TreeMap<>();
        roles.roles().keySet().forEach(b -> masters.put(b, instanceOf(roles.masterOf(b))));
        return masters;
    }

    // ---- set-up helpers ----

    /** A controller that comes back is found within a second, not after OVS's default 8 s backoff. */
    private static void reconnectQuickly(List<Bridge> bridges) {
        ControllerCluster.reconnectQuickly(testbed.ovs(), bridges);
    }

    private static List<Integer> marks() {
        return cluster.marks();
    }

    private static String[] targets() {
        return cluster.targets(testbed);
    }

    private static String instanceOf(String target) {
        return cluster.instanceOf(testbed, target);
    }

    private static String id(int i) {
        return ControllerCluster.id(i);
    }

    /** Whether a flow forwarding installed carries packets to {@code host}. */
    private static boolean carries(List<FlowEntry> flows, Host host) {
        return flows.stream().anyMatch(f -> f.isReactive() && f.match().contains("dl_dst=" + host.mac()));
    }
}
