package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cable;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FatTree;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.NetworkView;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.TcpTransfer;
import io.heliograph.testbed.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * Issue 3, items 1-3: the distribution's network services on a k=4 fat tree of real Open vSwitch
 * bridges (20 switches, 16 hosts, 32 cables, every switch-to-switch path redundant).
 *
 * <ul>
 *   <li>Convergence, three times (the switches are disconnected in between, which must empty the
 *       topology): the controller reports exactly the 64 directed links. The time from pointing the
 *       switches at the controller to the full link set is printed.</li>
 *   <li>Every host pings every other with no loss; the device service then places all 16 hosts at
 *       their true edge switch and port.</li>
 *   <li>No broadcast storm: every host ARPs for an address nobody has; each request reaches every
 *       other host exactly once (the flood follows a loop-free tree that spans the fabric), and the
 *       PACKET_INs it costs stay within one per switch per request.</li>
 *   <li>ECMP: 16 TCP connections between two pods cross more than one core switch.</li>
 *   <li>Failure, three times: a cable on the path of a running TCP transfer between pods is pulled;
 *       the transfer completes intact, the flows through the dead ports are gone, and the new path
 *       avoids the cable. The time from the pull to traffic flowing again is printed.</li>
 *   <li>A controller restarted on the same ports finds every switch and link again and forwards.</li>
 * </ul>
 */
@Timeout(600)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// Isolated: a k=4 fat tree (20 bridges, 16 hosts); connect, ping-all and reroute times measured
@Isolated
class FatTreeIT {

    private static final int K = 4;
    private static final Duration CONNECT = Duration.ofSeconds(60);
    private static final Duration CONVERGENCE = Duration.ofSeconds(60);
    private static final Pattern TOPOLOGY_ACTIVE = Pattern.compile("TopologyComponent - topology active");
    private static final int CONVERGENCE_ROUNDS = 3;
    /** Topology sends LLDP on every port this often (etc/io.heliograph.topology.cfg's default). */
    private static final Duration LLDP_INTERVAL = Duration.ofSeconds(5);
    private static final String NOBODY = "10.0.0.200";
    private static final Pattern ARP_FOR_NOBODY = Pattern.compile("Request who-has " + Pattern.quote(NOBODY)
            + " tell (\\d+\\.\\d+\\.\\d+\\.\\d+)");
    private static final Pattern OUTPUT = Pattern.compile("output:(\\d+)");
    private static final int IPERF_PORT = 5201;
    private static final int PARALLEL_CONNECTIONS = 16;
    private static final int FAILURE_ROUNDS = 3;
    private static final long TRANSFER_BYTES = 40L * 1024 * 1024;
    /** The senders' rate limit, so a transfer lasts seconds and a stall shows in its progress. */
    private static final String SENDER_RATE = "100mbit";
    /** Bytes the receiver must acknowledge after the pull for traffic to count as flowing again (20 ms at the rate). */
    private static final long RESUMED_BYTES = 256 * 1024;

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static FatTree tree;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("FatTreeIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        // which probe found which link when: the log explains a slow convergence
        distribution.setLogLevel("io.heliograph.topology.internal.LinkDiscovery", "debug");
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        testbed = Testbed.start("FatTreeIT");
        tree = testbed.fatTree(K, List.of("OpenFlow13"));
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("FatTreeIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    @Order(1)
    void topologyConvergesToExactlyTheFatTreesLinks() {
        List<Bridge> switches = tree.switches();
        String target = testbed.controllerTarget("tcp", controller.openflowPort());
        List<Long> connectedMs = new ArrayList<>();
        List<Long> convergedMs = new ArrayList<>();
        for (int round = 1; round <= CONVERGENCE_ROUNDS; round++) {
            if (round > 1) {
                testbed.ovs().setController(switches);
                controller.awaitSwitches(0, CONNECT);
                // switches gone: their links go at once, not at the link timeout
                Poll.until("the topology to drop every link of the disconnected switches", Duration.ofSeconds(5),
                        () -> NetworkView.links(controller), Set::isEmpty);
            }
            long start = System.nanoTime();
            testbed.ovs().setController(switches, target);
            controller.awaitSwitches(switches.size(), CONNECT);
            connectedMs.add((System.nanoTime() - start) / 1_000_000);
            Poll.until("the topology to list the fat tree's " + tree.directedLinks().size() + " directed links",
                    CONVERGENCE, () -> NetworkView.links(controller), tree.directedLinks()::equals);
            convergedMs.add((System.nanoTime() - start) / 1_000_000);
        }
        assertEquals(tree.directedLinks(), NetworkView.links(controller), "links once converged");
        System.out.printf("fat tree k=%d (%d switches, %d links): all connected after %s ms (median %d), "
                        + "all links known after %s ms (median %d)%n", K, switches.size(), tree.directedLinks().size(),
                connectedMs, median(connectedMs), convergedMs, median(convergedMs));
    }

    @Test
    @Order(2)
    void everyHostReachesEveryOtherAndIsFoundAtItsEdgePort() throws Exception {
        List<String> lost = pingAll();
        if (!lost.isEmpty()) {
            // A new flow's first packets can be lost to a stall of the shared machine (seen in CI:
            // 16 of 240 pairs, one or two pings each, towards the last hosts pinged, when a reply
            // held up for over twice the first one's round trip still counted as lost). A forwarding
            // bug loses them again; so once every path has idled out, every flow is set up afresh.
            System.out.printf("ping-all: %d of %d pairs lost pings on the first attempt, trying again with "
                    + "new flows:%n  %s%n", lost.size(), pairs(), String.join("\n  ", lost));
            for (Bridge sw : tree.switches()) {
                Poll.until("forwarding's flows on " + sw.name() + " to idle out", Duration.ofSeconds(30),
                        () -> sw.dumpFlows().stream().filter(FlowEntry::isReactive).count(), n -> n == 0);
            }
            lost = pingAll();
        }
        assertEquals(List.of(), lost, "pings lost between hosts");

        Map<String, String> truth = new TreeMap<>();
        for (Host host : tree.hosts()) {
            truth.put(host.mac(), NetworkView.attachment(host, tree.edgeOf(host), tree.portOf(host)));
        }
        Map<String, String> hosts = Poll.until("the device service to place all 16 hosts at their edge ports",
                Duration.ofSeconds(20), () -> NetworkView.hosts(controller), truth::equals);
        assertEquals(truth, hosts);
    }

    @Test
    @Order(3)
    void aBroadcastReachesEveryHostExactlyOnceWithoutAStorm() throws Exception {
        List<Process> captures = new ArrayList<>();
        Map<Host, Path> logs = new TreeMap<>((a, b) -> a.name().compareTo(b.name()));
        for (Host host : tree.hosts()) {
            Path log = testbed.workDir().resolve("arp-" + host.name() + ".txt");
            logs.put(host, log);
            captures.add(host.startBackground(log, "tcpdump", "-n", "-l", "-i", "eth0", "arp"));
        }
        for (Path log : logs.values()) {
            Poll.until("tcpdump listening (" + log.getFileName() + ")", Duration.ofSeconds(15),
                    () -> read(log).contains("listening on"));
        }
        long countingStart = System.nanoTime();
        long packetInsBefore = packetIns();
        long start = System.nanoTime();
        // One echo request (-W, not -w: with a deadline ping sends one a second until it ends, and one
        // sent as the address resolution fails starts a second resolution, a fourth ARP request that
        // may come as the captures stop). With no answer, the kernel sends three ARP requests a second
        // apart, then fails the echo, and ping exits.
        forEachHostInParallel(host -> host.exec(Duration.ofSeconds(15), "ping", "-n", "-c", "1", "-W", "4", NOBODY));

        // Each host's capture shows its own requests going out and everyone else's coming in, so all
        // sixteen captures must count the same requests from the same senders.
        Map<String, Long> sent = Poll.until("every capture to show the same requests from all hosts",
                Duration.ofSeconds(15), () -> sameInAllCaptures(logs.values()),
                counts -> counts != null && counts.size() == tree.hosts().size());
        captures.forEach(Process::destroy);
        // and still exactly once a moment later: a flood loop would keep delivering copies
        testbed.ovs().appctl("revalidator/wait");
        for (Map.Entry<Host, Path> e : logs.entrySet()) {
            assertEquals(sent, arpsFrom(read(e.getValue())), "ARP requests " + e.getKey().name() + " saw, by sender");
        }
        long requests = sent.values().stream().mapToLong(Long::longValue).sum();

        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        long packetIns = packetIns() - packetInsBefore;
        long countedMs = (System.nanoTime() - countingStart) / 1_000_000;
        // One PACKET_IN where the request enters, one at each other switch its flood copy reaches;
        // and the LLDP probes of each round that fell in the window, one per directed link. The window
        // is the time the counters counted: from the start of their first reading to the end of the
        // second, as each reading waits for the revalidators and dumps 20 bridges one after the other
        // (seconds on a loaded machine, when a third round can fall in a 4 s broadcast).
        long lldp = (long) tree.directedLinks().size() * (countedMs / LLDP_INTERVAL.toMillis() + 2);
        long bound = requests * tree.switches().size() + lldp;
        System.out.printf("broadcast: %d ARP requests, each seen once by all %d other hosts; %d PACKET_INs "
                + "in %d ms, counted over %d ms (bound %d)%n", requests, tree.hosts().size() - 1, packetIns, elapsedMs,
                countedMs, bound);
        assertTrue(packetIns >= requests, "the table-miss counters saw fewer PACKET_INs (" + packetIns
                + ") than requests entering the fabric (" + requests + ")");
        assertTrue(packetIns <= bound, packetIns + " PACKET_INs for " + requests + " broadcasts: more than one "
                + "per switch per request plus LLDP (" + bound + ")");
    }

    @Test
    @Order(4)
    void connectionsBetweenPodsSpreadOverSeveralCoreSwitches() {
        Host client = tree.hosts().get(0);
        Host server = tree.hosts().get(tree.hosts().size() - 1);
        assertTrue(tree.podOf(client) != tree.podOf(server));
        server.startBackground(testbed.workDir().resolve("iperf3-server.log"), "iperf3", "-s", "-p",
                Integer.toString(IPERF_PORT));
        Poll.until("iperf3 listening on " + server.name(), Duration.ofSeconds(10),
                () -> server.exec("ss", "-ltnH", "sport", "=", ":" + IPERF_PORT).stdout().contains(":" + IPERF_PORT));
        client.exec(Duration.ofSeconds(30), "iperf3", "-c", server.ip(), "-p", Integer.toString(IPERF_PORT),
                "-P", Integer.toString(PARALLEL_CONNECTIONS), "-t", "2").requireSuccess();

        testbed.ovs().appctl("revalidator/wait");
        Map<String, Integer> connectionsPerCore = new TreeMap<>();
        int total = 0;
        for (Bridge core : tree.cores()) {
            int carried = (int) core.dumpFlows().stream()
                    .filter(f -> f.match().contains("nw_src=" + client.ip()) && f.match().contains("tp_dst=" + IPERF_PORT))
                    .filter(f -> f.packets() > 0)
                    .count();
            connectionsPerCore.put(core.name(), carried);
            total += carried;
        }
        System.out.printf("ECMP: %d connections %s -> %s over the cores: %s%n", total, client.name(), server.name(),
                connectionsPerCore);
        // the data connections and iperf3's control connection
        assertTrue(total >= PARALLEL_CONNECTIONS, "connections seen on the cores: " + connectionsPerCore);
        long coresUsed = connectionsPerCore.values().stream().filter(n -> n > 0).count();
        assertTrue(coresUsed > 1, "all connections crossed one core switch: " + connectionsPerCore);
    }

    @Test
    @Order(5)
    void aTransferSurvivesACablePulledFromItsPath() {
        List<Long> rerouteMs = new ArrayList<>();
        for (int round = 0; round < FAILURE_ROUNDS; round++) {
            Host sender = tree.hosts().get(round);
            Host receiver = tree.hosts().get(tree.hosts().size() - 1 - round);
            sender.exec("tc", "qdisc", "replace", "dev", "eth0", "root", "tbf", "rate", SENDER_RATE,
                    "burst", "64kb", "latency", "50ms").requireSuccess();
            TcpTransfer transfer = TcpTransfer.start(sender, receiver, TRANSFER_BYTES, testbed.workDir());
            Poll.until("a tenth of the transfer " + sender.name() + " -> " + receiver.name(), Duration.ofSeconds(30),
                    transfer::received, n -> n >= TRANSFER_BYTES / 10);
            List<Cable> path = path(sender, receiver);
            // pulls a different layer's cable each round: edge-aggregation, aggregation-core, core-aggregation
            Cable pulled = path.get(round % path.size());

            long mark = transfer.acknowledged();
            long pulledAt = System.nanoTime();
            pulled.down();
            try {
                Poll.until("traffic flowing again after pulling " + pulled, Duration.ofSeconds(30),
                        Duration.ofMillis(2), transfer::acknowledged, n -> n >= mark + RESUMED_BYTES);
                rerouteMs.add((System.nanoTime() - pulledAt) / 1_000_000);

                TcpTransfer.Result result = transfer.await(Duration.ofSeconds(60));
                assertEquals(TRANSFER_BYTES, result.received(), "bytes that arrived at " + receiver.name());
                assertTrue(result.identical(), "the bytes that arrived differ from those sent");
                for (Bridge end : List.of(pulled.a(), pulled.b())) {
                    int port = pulled.portOn(end);
                    List<FlowEntry> through = end.dumpFlows().stream()
                            .filter(f -> f.match().contains("in_port=" + port + ",")
                                    || f.match().endsWith("in_port=" + port) || outputs(f).contains(port))
                            .toList();
                    assertEquals(List.of(), through, "flows through the pulled cable's port " + port + " on " + end);
                }
                List<Cable> after = path(sender, receiver);
                assertFalse(after.contains(pulled),
                        "the new path " + after + " still uses the pulled cable " + pulled);
            } finally {
                pulled.up(); // a failed round must not leave the fabric one cable short for the next test
            }
            Poll.until("the topology to list every link again", CONVERGENCE, () -> NetworkView.links(controller),
                    tree.directedLinks()::equals);
        }
        System.out.printf("reroute after a pulled cable: traffic flowing again (%d KiB more acknowledged) after %s ms "
                + "(median %d)%n", RESUMED_BYTES / 1024, rerouteMs, median(rerouteMs));
    }

    @Test
    @Order(6)
    void aRestartedControllerFindsTheWholeFabricAgain() {
        int openflowPort = controller.openflowPort();
        int httpPort = controller.httpPort();
        Path dataDir = controller.dataDir();
        controller.terminate(Duration.ofSeconds(30));

        // As after `heliograph run` with the switches already pointed at it: they reconnect on OVS's
        // own back-off schedule (1, 2, 4, 8 s between attempts), so that shows in these figures.
        long start = System.nanoTime();
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller-restarted.log"), openflowPort,
                httpPort, dataDir);
        controller.awaitHealthy(Duration.ofSeconds(60));
        long healthyMs = (System.nanoTime() - start) / 1_000_000;
        controller.awaitSwitches(tree.switches().size(), CONNECT);
        long connectedMs = (System.nanoTime() - start) / 1_000_000;
        // Health and the switches can be there before FileInstall has started the topology app (and
        // its console command) from hot/.
        controller.awaitLog(TOPOLOGY_ACTIVE, 0, CONNECT);
        Poll.until("the restarted controller to list the fat tree's links", CONVERGENCE,
                () -> NetworkView.links(controller), tree.directedLinks()::equals);
        long convergedMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("after a restart (run): healthy after %d ms, %d switches after %d ms, all %d links after %d ms%n",
                healthyMs, tree.switches().size(), connectedMs, tree.directedLinks().size(), convergedMs);

        Host first = tree.hosts().get(0);
        Host last = tree.hosts().get(tree.hosts().size() - 1);
        first.awaitReachable(last, Duration.ofSeconds(15));
        assertTrue(first.ping(last, 3).allAnswered(), "pings across the fabric after the restart");
    }

    /**
     * The cables the transfer's flows lead through, from the sender's edge switch: at each switch the
     * flow for the transfer (its source address and destination port) names the port it goes out of.
     */
    private static List<Cable> path(Host sender, Host receiver) {
        List<Cable> cables = new ArrayList<>();
        Bridge at = tree.edgeOf(sender);
        while (!at.equals(tree.edgeOf(receiver))) {
            Bridge here = at;
            FlowEntry flow = here.dumpFlows().stream()
                    .filter(f -> f.match().contains("nw_src=" + sender.ip()) && f.match().contains("nw_dst=" + receiver.ip())
                            && f.match().contains("tp_dst=" + TcpTransfer.PORT))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no flow for the transfer on " + here + ": " + here.dumpFlows()));
            List<Integer> out = outputs(flow);
            assertEquals(1, out.size(), "one output port in " + flow.line());
            Cable cable = tree.cableAt(here, out.get(0));
            assertNotNull(cable, "the flow on " + here + " leads to a host port before the receiver's edge: " + flow.line());
            assertFalse(cables.contains(cable), "the path loops: " + cables + " then " + cable);
            cables.add(cable);
            at = cable.peerOf(here);
        }
        return cables;
    }

    private static List<Integer> outputs(FlowEntry flow) {
        List<Integer> ports = new ArrayList<>();
        Matcher m = OUTPUT.matcher(flow.actions());
        while (m.find()) {
            ports.add(Integer.parseInt(m.group(1)));
        }
        return ports;
    }

    /** PACKET_INs the switches have sent for table misses: the table-miss flows' packet counters. */
    private static long packetIns() {
        testbed.ovs().appctl("revalidator/wait");
        long total = 0;
        for (Bridge bridge : tree.switches()) {
            total += bridge.dumpFlows().stream().filter(FlowEntry::isTableMiss).mapToLong(FlowEntry::packets).sum();
        }
        return total;
    }

    /** The requests every capture counts, if they all count the same; null while they differ. */
    private static Map<String, Long> sameInAllCaptures(java.util.Collection<Path> logs) {
        Map<String, Long> first = null;
        for (Path log : logs) {
            Map<String, Long> counts = arpsFrom(read(log));
            if (first == null) {
                first = counts;
            } else if (!first.equals(counts)) {
                return null;
            }
        }
        return first;
    }

    /** ARP requests for {@link #NOBODY} in a tcpdump log, counted by the asking host's address. */
    private static Map<String, Long> arpsFrom(String log) {
        Matcher m = ARP_FOR_NOBODY.matcher(log);
        List<String> senders = new ArrayList<>();
        while (m.find()) {
            senders.add(m.group(1));
        }
        return senders.stream().collect(Collectors.groupingBy(s -> s, TreeMap::new, Collectors.counting()));
    }

    private interface HostTask {
        void run(Host host) throws Exception;
    }

    /** Every host pings every other three times, all hosts at once; answers the pairs that lost a ping. */
    private static List<String> pingAll() throws Exception {
        List<String> lost = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        forEachHostInParallel(from -> {
            for (Host to : tree.hosts()) {
                if (to != from) {
                    Host.PingResult ping = from.ping(to, 3);
                    if (!ping.allAnswered()) {
                        lost.add(String.format("%s -> %s: %d/%d at %d ms: %s", from.name(), to.name(),
                                ping.received(), ping.transmitted(), (System.nanoTime() - start) / 1_000_000,
                                ping.output().replace('\n', ' ')));
                    }
                }
            }
        });
        System.out.printf("ping-all: %d pairs x 3 pings in %d ms%n", pairs(), (System.nanoTime() - start) / 1_000_000);
        return lost;
    }

    private static int pairs() {
        return tree.hosts().size() * (tree.hosts().size() - 1);
    }

    private static void forEachHostInParallel(HostTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tree.hosts().size());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (Host host : tree.hosts()) {
                running.add(pool.submit(() -> {
                    task.run(host);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
