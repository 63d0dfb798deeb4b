package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cable;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.CommandResult;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.HostControllerLink;
import io.heliograph.testbed.Iperf;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.Testbed;

/**
 * Issue 23's live test: the circuit app in the real distribution drives a circuit bridge and four ToR
 * bridges of real Open vSwitch at scaled time (x1000: 2 s weeks, 20 ms nights), Solstice scheduling,
 * with ring traffic (rack i's two hosts each send iperf3 TCP to a host of rack i + 1) whose senders run
 * under libadu and report their bytes to the app.
 *
 * <p>The network: rack r's ToR (OpenFlow 1.3) has its two hosts (10.0.r.1 and 10.0.r.2, one /16), a
 * packet uplink to a packet bridge, rate-limited by a token bucket to {@value #PACKET_RATE}, and a circuit
 * uplink to the circuit bridge (OpenFlow 1.4: the executor commits each day as a bundle) limited to
 * {@value #CIRCUIT_RATE}. The executor's ToR entries (10.0.d.0/24 per destination rack, priority 1000)
 * send each rack pair out of one uplink or the other; the rest of the wiring is fixed and written by the
 * test with ovs-ofctl once the bridges are connected: each ToR delivers its own hosts' /32s (priority
 * 1500), the packet bridge delivers each rack's /24 to its ToR. (Not the forwarding app: it would learn
 * paths over the circuit bridge's links too and install entries there, and the assertion is that the
 * circuit bridge holds the schedule's matchings only; it is removed from the distribution, as are
 * learningswitch and virtue. Not static flows through REST either: this wiring is the testbed, not
 * under test, and the executor's delete-on-first-contact is cookie-masked, so it leaves them alone;
 * clearFlowsOnConnect is off so that a reconnect under load does not flush them.) Hosts have static
 * ARP entries, so every frame is IPv4 and meets an entry: nothing goes to the controller. Each host
 * sets {@code rto_min 5ms} on its route, so TCP recovers within a scaled day, and reaches the
 * controller's REST API over a link of its own ({@link HostControllerLink}), beside the data plane.
 *
 * <p>What it shows, in order:
 * <ol>
 * <li>With the VOQ estimator and no traffic yet, the ToR pair counters are all zero, so the demand is
 *     zero and Solstice's week is its empty-demand week: one day whose every circuit is a dummy. The
 *     published weeks say so, and the circuit bridge holds no executor entry for a whole week of
 *     samples; every ring pair then reaches its peer over the packet path.</li>
 * <li>{@code PUT /scheduler} chooses the ADU estimator; the ring starts under libadu; within a few
 *     weeks a week estimated from ADUs has demand on the four ring pairs and nowhere else, and gives
 *     each ring pair circuit time for more than half the week.</li>
 * <li>For about five weeks the circuit bridge is sampled (ovs-ofctl dump-flows, between two reads of
 *     {@code GET /schedule}): every sample is empty (a night) or part of a day of the current or next
 *     week reported just before or after it; the full ring is seen.</li>
 * <li>Over the same time the bytes the circuit bridge received from the ToRs, against those the packet
 *     bridge received from them, are more than half over the circuit, and of the ring's direction
 *     (counted on entries of their own on the packet bridge) more than 80% (conservative bounds: a ring
 *     week leaves the circuit up for all but its night and the executor's change; the ACKs, whose
 *     reverse pairs get no circuit in a ring, are all on the packet path, about 4.5% of all bytes).</li>
 * </ol>
 * Buffer resizing (tau 100 us, 16 and 128 packets) runs on each ToR's circuit uplink queue (a pfifo
 * inside its rate limit): in the all-dummy weeks every queue is set to 16 packets, in the ring weeks,
 * where every source rack has a circuit all day, to 128, and no resize command fails.
 * It prints the circuit share, the executor's late and skipped days, errors, commit and day-up
 * latencies. About 50 s. Isolated: it runs a controller, six bridges of 24 ports at tens of Mb/s
 * and eight TCP flows at scaled time, and measures how late days start.
 */
@Isolated
@Timeout(240)
class CircuitLiveIT {

    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
    private static final String BASE = "/api/v1/circuit";
    private static final int RACKS = 4;
    private static final int HOSTS_PER_RACK = 2;
    private static final String PACKET_RATE = "20mbit";
    private static final String CIRCUIT_RATE = "100mbit";
    private static final long WEEK_MICROS = 2000;
    private static final Duration WEEK = Duration.ofSeconds(2);
    private static final Duration TRAFFIC = Duration.ofSeconds(30);
    /** Buffer resizing's sizes (the thesis's s and b), and the queue's size before the app sets it. */
    private static final int SMALL = 16;
    private static final int BIG = 128;
    private static final int UNSET = 1000;
    private static final Pattern PFIFO_LIMIT = Pattern.compile("qdisc pfifo 10: parent 1:1 limit (\\d+)p");
    private static final Duration MEASURED = Duration.ofSeconds(10);
    private static final int IPERF_PORT = 5201;
    /** The packet bridge's entries of the ring's direction, counted apart. */
    private static final String RING_COOKIE = "0x7e57";
    private static final Pattern IN_PORT = Pattern.compile("in_port=(\\d+)");
    private static final Pattern OUTPUT = Pattern.compile("^output:(\\d+)$");
    private static final Pattern IPERF_RECEIVER = Pattern.compile("([\\d.]+) Kbits/sec\\s+receiver");

    @Test
    void theCircuitBridgeFollowsTheScheduleAndTheRingRidesTheCircuitOnceAduEstimatesIt() throws Exception {
        Testbed.requireRoot();
        Iperf.requireInstalled();
        Path artifacts = ArtifactDirectory.forTest("CircuitLiveIT");
        Path work = Files.createTempDirectory("circuit-live-");
        Cleanup cleanup = new Cleanup("CircuitLiveIT");
        ControllerDistribution distribution = null;
        ControllerProcess controller = null;
        Testbed testbed = null;
        List<HostControllerLink> links = new ArrayList<>();
        try {
            CommandResult built = Command.of("bash", ROOT.resolve("deploy/heliograph").toString(), "libadu", "--out",
                    work.toString()).timeout(Duration.ofSeconds(60)).check();
            String libadu = built.stdout().strip();

            testbed = Testbed.start("CircuitLiveIT");
            Network net = network(testbed);
            String switchNamespace = testbed.switchNamespace();

            distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
            for (String app : List.of("heliograph-forwarding", "heliograph-learningswitch", "heliograph-virtue")) {
                distribution.removeApp(app);
            }
            distribution.configure("io.heliograph.openflow", Map.of("clearFlowsOnConnect", "false"));
            distribution.configure("io.heliograph.circuit", Map.of("fabric", net.fabric, "timeScale", "1000",
                    "weekMicros", Long.toString(WEEK_MICROS), "scheduler", "solstice", "estimator", "voq",
                    "resizeTauMicros", "100", "resizeSmallPackets", Integer.toString(SMALL),
                    "resizeBigPackets", Integer.toString(BIG),
                    "resizeDevices", String.join(",", net.circuitUplinks.stream().map(Cable::aDevice).toList()),
                    "resizeCommand", "ip netns exec " + testbed.switchNamespace()
                            + " tc qdisc change dev {dev} parent 1:1 handle 10: pfifo limit {packets}"));
            controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
            controller.awaitHealthy(Duration.ofSeconds(60));
            RestClient rest = controller.rest();
            Response created = rest.post("/api/v1/auth/tokens", Map.of("name", "CircuitLiveIT libadu"));
            assertEquals(201, created.status(), created.toString());
            String token = created.json().get("token").asText();

            List<Bridge> controlled = new ArrayList<>(net.tors);
            controlled.add(net.circuit);
            controlled.add(net.packet);
            testbed.ovs().setController(controlled, testbed.controllerTarget("tcp", controller.openflowPort()));
            controller.awaitSwitches(controlled.size(), Duration.ofSeconds(30));
            wire(net);
            for (int i = 0; i < net.hosts.size(); i++) {
                links.add(HostControllerLink.create(testbed, net.hosts.get(i), "a" + i));
            }

            // 1. VOQ, no traffic: zero demand, Solstice's empty week (one all-dummy day), no circuit entry.
            JsonNode executing = Poll.until("the app executing weeks on the fabric", Duration.ofSeconds(30),
                    () -> json(rest.get(BASE + "/scheduler")),
                    s -> s.path("executing").asBoolean() && s.at("/executor/daysInstalled").asLong() > 0);
            assertEquals("bundles", executing.at("/executor/mode").asText(), executing.toString());
            JsonNode voqWeeks = Poll.until("a current and next week of the VOQ estimator", Duration.ofSeconds(15),
                    () -> json(rest.get(BASE + "/schedule")),
                    s -> s.at("/current/estimator").asText().equals("voq") && s.at("/next/estimator").asText().equals("voq"));
            for (String which : List.of("current", "next")) {
                JsonNode week = voqWeeks.get(which);
                assertTrue(allZero(week.get("demand")), "no IPv4 through the ToRs yet, so no VOQ demand: " + week);
                assertEquals(List.of(), circuits(week), "the empty-demand week has dummy circuits only: " + week);
            }
            // Every VOQ small in an all-dummy week: the app set each circuit uplink's queue.
            Poll.until("every circuit uplink's queue resized to " + SMALL + " packets", Duration.ofSeconds(15),
                    () -> queueLimits(switchNamespace, net), limits -> limits.values().stream().allMatch(l -> l == SMALL));
            long voqSamples = 0;
            long until = System.nanoTime() + WEEK.toNanos();
            while (System.nanoTime() < until) {
                assertEquals(Map.of(), executorEntries(net), "no circuit in an all-dummy week");
                voqSamples++;
            }
            for (int r = 0; r < RACKS; r++) {
                for (int h = 0; h < HOSTS_PER_RACK; h++) {
                    Host from = net.host(r, h);
                    String to = net.ip((r + 1) % RACKS, h);
                    Poll.until(from.name() + " reaching " + to + " over the packet path", Duration.ofSeconds(15),
                            () -> from.exec("ping", "-n", "-c", "1", "-W", "1", to).succeeded());
                }
            }

            // 2. ADU: the ring under libadu; a week from ADUs serves exactly the ring.
            JsonNode chosen = ok(rest.put(BASE + "/scheduler", Map.of("scheduler", "solstice", "estimator", "adu")));
            assertEquals("adu", chosen.get("estimator").asText(), chosen.toString());
            List<Process> clients = new ArrayList<>();
            for (int r = 0; r < RACKS; r++) {
                for (int h = 0; h < HOSTS_PER_RACK; h++) {
                    Host receiver = net.host((r + 1) % RACKS, h);
                    receiver.startBackground(artifacts.resolve("iperf3-server-" + receiver.name() + ".log"),
                            "iperf3", "--server", "--one-off", "--port", Integer.toString(IPERF_PORT));
                }
            }
            for (int r = 0; r < RACKS; r++) {
                for (int h = 0; h < HOSTS_PER_RACK; h++) {
                    Host receiver = net.host((r + 1) % RACKS, h);
                    Poll.until("iperf3 listening on " + receiver.name(), Duration.ofSeconds(10),
                            () -> receiver.exec("ss", "-ltnH", "sport", "=", ":" + IPERF_PORT).stdout()
                                    .contains(":" + IPERF_PORT));
                }
            }
            for (int r = 0; r < RACKS; r++) {
                for (int h = 0; h < HOSTS_PER_RACK; h++) {
                    Host sender = net.host(r, h);
                    String url = "http://" + links.get(r * HOSTS_PER_RACK + h).controllerAddress() + ":"
                            + controller.httpPort() + BASE + "/adus";
                    clients.add(sender.startBackground(artifacts.resolve("iperf3-client-" + sender.name() + ".log"),
                            "env", "LD_PRELOAD=" + libadu, "ADU_URL=" + url, "ADU_TOKEN=" + token, "ADU_DEBUG=1",
                            "iperf3", "--client", net.ip((r + 1) % RACKS, h), "--port", Integer.toString(IPERF_PORT),
                            "--time", Long.toString(TRAFFIC.toSeconds()), "--format", "k"));
                }
            }
            long trafficStarted = System.nanoTime();
            JsonNode ringWeek = Poll.until("a week estimated from ADUs that serves the ring", Duration.ofSeconds(20),
                    () -> json(rest.get(BASE + "/schedule")).path("current"),
                    w -> w.path("estimator").asText().equals("adu") && servesRing(w));
            double[][] demand = matrix(ringWeek.get("demand"));
            for (int i = 0; i < RACKS; i++) {
                for (int j = 0; j < RACKS; j++) {
                    if (j == (i + 1) % RACKS) {
                        assertTrue(demand[i][j] > 0, "ADUs of ring pair " + i + "->" + j + ": " + ringWeek);
                    } else {
                        assertEquals(0.0, demand[i][j], "no ADUs off the ring, " + i + "->" + j + ": " + ringWeek);
                    }
                }
            }
            long[][] ringMicros = circuitMicros(ringWeek);
            // A ring week gives every source rack a circuit all day: its queue grows to the big size.
            Map<String, Integer> ringLimits = Poll.until("every circuit uplink's queue resized to " + BIG
                    + " packets for the ring", Duration.ofSeconds(15), () -> queueLimits(switchNamespace, net),
                    limits -> limits.values().stream().allMatch(l -> l == BIG));

            // 3 and 4. Samples of the circuit bridge against the reported weeks; bytes over each path.
            long[] before = bytesFromTors(net);
            JsonNode statusBefore = ok(rest.get(BASE + "/scheduler")).get("executor");
            int samples = 0;
            int wholeRing = 0;
            int nights = 0;
            List<String> wrong = new ArrayList<>();
            long measureUntil = System.nanoTime() + MEASURED.toNanos();
            while (System.nanoTime() < measureUntil) {
                JsonNode s1 = ok(rest.get(BASE + "/schedule"));
                Map<Integer, Integer> sample = executorEntries(net);
                JsonNode s2 = ok(rest.get(BASE + "/schedule"));
                List<Map<Integer, Integer>> days = new ArrayList<>();
                for (JsonNode s : List.of(s1, s2)) {
                    for (String which : List.of("current", "next")) {
                        if (s.hasNonNull(which)) {
                            days.addAll(matchings(s.get(which)));
                        }
                    }
                }
                samples++;
                if (sample.isEmpty()) {
                    nights++;
                } else if (days.stream().noneMatch(d -> d.entrySet().containsAll(sample.entrySet()))) {
                    wrong.add(sample + " not in " + days);
                }
                if (sample.equals(ring())) {
                    wholeRing++;
                }
            }
            long[] after = bytesFromTors(net);
            JsonNode status = ok(rest.get(BASE + "/scheduler")).get("executor");
            long circuitBytes = after[0] - before[0];
            long packetBytes = after[1] - before[1];
            long ringPacketBytes = after[2] - before[2];
            double share = (double) circuitBytes / (circuitBytes + packetBytes);
            // Only ring circuits are up, so every byte over the circuit is the ring's.
            double ringShare = (double) circuitBytes / (circuitBytes + ringPacketBytes);
            double measuredSeconds = (System.nanoTime() - (measureUntil - MEASURED.toNanos())) / 1e9;

            List<String> rates = new ArrayList<>();
            for (int i = 0; i < clients.size(); i++) {
                Process client = clients.get(i);
                boolean ended = client.waitFor(TRAFFIC.toSeconds() + 15
                        - (System.nanoTime() - trafficStarted) / 1_000_000_000L, java.util.concurrent.TimeUnit.SECONDS);
                Host sender = net.hosts.get(i);
                String log = read(artifacts.resolve("iperf3-client-" + sender.name() + ".log"));
                Matcher m = IPERF_RECEIVER.matcher(log);
                rates.add(sender.name() + " " + (ended && m.find() ? String.format("%.1f Mb/s", Double.parseDouble(m.group(1)) / 1e3)
                        : "(no summary)"));
            }
            JsonNode demandNow = ok(rest.get(BASE + "/demand"));

            System.out.printf("CircuitLiveIT: VOQ phase: %d samples of the circuit bridge in one week, all empty%n",
                    voqSamples);
            System.out.printf("CircuitLiveIT: ADU ring week %d, circuit micros per ring pair %s (week %d us)%n",
                    ringWeek.get("week").asLong(), ringPairs(ringMicros), WEEK_MICROS);
            System.out.printf("CircuitLiveIT: %d samples in %.1f s: %d whole ring, %d empty (nights), %d wrong%n",
                    samples, measuredSeconds, wholeRing, nights, wrong.size());
            System.out.printf("CircuitLiveIT: bytes from the ToRs in %.1f s: circuit %d, packet %d (of which the ring's"
                    + " direction %d): circuit share %.1f%% of all bytes, %.1f%% of the ring's%n", measuredSeconds,
                    circuitBytes, packetBytes, ringPacketBytes, 100 * share, 100 * ringShare);
            System.out.printf("CircuitLiveIT: iperf3 receivers: %s%n", rates);
            System.out.printf("CircuitLiveIT: executor before %s%nCircuitLiveIT: executor after %s%n", statusBefore, status);
            System.out.printf("CircuitLiveIT: ADU open flows %d, evictions %d%n", demandNow.path("aduOpenFlows").asLong(),
                    demandNow.path("aduEvictions").asLong());
            JsonNode resizing = ok(rest.get(BASE + "/scheduler")).get("resizing");
            System.out.printf("CircuitLiveIT: queues in the ring weeks %s; resizing %s%n", ringLimits, resizing);
            assertEquals(0, resizing.path("failures").asLong(), "no resize command failed: " + resizing);

            assertEquals(List.of(), wrong, "samples that are no part of a day of the reported weeks");
            assertTrue(wholeRing > 0, "the ring's matching seen whole on the circuit bridge");
            assertTrue(circuitBytes + packetBytes > 5_000_000L, "traffic flowed: " + circuitBytes + " + " + packetBytes);
            assertTrue(share > 0.5, String.format("circuit share of all bytes %.3f", share));
            assertTrue(ringShare > 0.8, String.format("circuit share of the ring's bytes %.3f", ringShare));
        } finally {
            for (HostControllerLink link : links) {
                cleanup.close("host controller link", link);
            }
            cleanup.close("testbed", testbed);
            cleanup.close("controller", controller);
            cleanup.close("distribution copy", distribution);
            cleanup.run("delete " + work, () -> Command.of("rm", "-rf", work.toString()).check());
            cleanup.finish();
        }
    }

    /** The bridges, hosts and the fabric string (datapath ids in decimal) of the test's network. */
    private static final class Network {
        final List<Bridge> tors = new ArrayList<>();
        final List<Host> hosts = new ArrayList<>();
        final List<Cable> circuitUplinks = new ArrayList<>();
        final List<Cable> packetUplinks = new ArrayList<>();
        final Map<Integer, Integer> rackOfCircuitPort = new HashMap<>();
        Bridge circuit;
        Bridge packet;
        String fabric;

        Host host(int rack, int h) {
            return hosts.get(rack * HOSTS_PER_RACK + h);
        }

        /** The app's default circuit groups: rack r's hosts are 10.0.r.1, 10.0.r.2. */
        String ip(int rack, int h) {
            return "10.0." + rack + "." + (h + 1);
        }
    }

    /** Each circuit uplink's queue limit now, in packets, by device (-1 when tc shows none). */
    private static Map<String, Integer> queueLimits(String switchNamespace, Network net) {
        Map<String, Integer> limits = new java.util.TreeMap<>();
        for (Cable uplink : net.circuitUplinks) {
            String shown = Command.of("ip", "netns", "exec", switchNamespace, "tc", "qdisc", "show", "dev",
                    uplink.aDevice()).check().stdout();
            Matcher m = PFIFO_LIMIT.matcher(shown);
            limits.put(uplink.aDevice(), m.find() ? Integer.parseInt(m.group(1)) : -1);
        }
        return limits;
    }

    private static Network network(Testbed testbed) {
        Network net = new Network();
        net.circuit = testbed.addSwitch(9, List.of("OpenFlow14"));
        net.packet = testbed.addSwitch(8, List.of("OpenFlow13"));
        StringBuilder fabric = new StringBuilder("circuit=9");
        for (int r = 0; r < RACKS; r++) {
            Bridge tor = testbed.addSwitch(r + 1, List.of("OpenFlow13"));
            net.tors.add(tor);
            for (int h = 0; h < HOSTS_PER_RACK; h++) {
                net.hosts.add(testbed.addHost(r * HOSTS_PER_RACK + h + 1, tor)); // ports 1 and 2
            }
            Cable toCircuit = testbed.link(tor, net.circuit);
            Cable toPacket = testbed.link(tor, net.packet);
            net.circuitUplinks.add(toCircuit);
            net.packetUplinks.add(toPacket);
            net.rackOfCircuitPort.put(toCircuit.portOn(net.circuit), r);
            fabric.append("; rack").append(r).append('=').append(r + 1).append('/').append(toCircuit.portOn(net.circuit))
                    .append('/').append(toPacket.portOn(tor)).append('/').append(toCircuit.portOn(tor));
            for (var limit : Map.of(toPacket.aDevice(), PACKET_RATE, toCircuit.aDevice(), CIRCUIT_RATE).entrySet()) {
                Command.of("ip", "netns", "exec", testbed.switchNamespace(), "tc", "qdisc", "add", "dev", limit.getKey(),
                        "root", "handle", "1:", "tbf", "rate", limit.getValue(), "burst", "32kbit", "latency", "50ms")
                        .check();
            }
            // The circuit uplink's queue, which the app resizes: a FIFO inside the rate limit, at first of a
            // size the app never sets.
            Command.of("ip", "netns", "exec", testbed.switchNamespace(), "tc", "qdisc", "add", "dev",
                    toCircuit.aDevice(), "parent", "1:1", "handle", "10:", "pfifo", "limit", Integer.toString(UNSET))
                    .check();
        }
        net.fabric = fabric.toString();
        // Rack addresses (the app's default groups and the executor's 10.0.r.0/24 entries), one /16 so that
        // every host is on-link; static ARP; TCP's minimum RTO within a scaled day.
        for (int r = 0; r < RACKS; r++) {
            for (int h = 0; h < HOSTS_PER_RACK; h++) {
                Host host = net.host(r, h);
                host.exec("ip", "addr", "flush", "dev", "eth0").requireSuccess();
                host.exec("ip", "addr", "add", net.ip(r, h) + "/16", "dev", "eth0").requireSuccess();
                host.exec("ip", "route", "replace", "10.0.0.0/16", "dev", "eth0", "src", net.ip(r, h), "rto_min", "5ms",
                        "quickack", "1").requireSuccess();
                for (int r2 = 0; r2 < RACKS; r2++) {
                    for (int h2 = 0; h2 < HOSTS_PER_RACK; h2++) {
                        if (r2 != r || h2 != h) {
                            host.exec("ip", "neigh", "replace", net.ip(r2, h2), "lladdr", net.host(r2, h2).mac(), "dev",
                                    "eth0", "nud", "permanent").requireSuccess();
                        }
                    }
                }
            }
        }
        return net;
    }

    /** The fixed entries: each ToR delivers its hosts, the packet bridge delivers each rack to its ToR. */
    private static void wire(Network net) {
        for (int r = 0; r < RACKS; r++) {
            Bridge tor = net.tors.get(r);
            for (int h = 0; h < HOSTS_PER_RACK; h++) {
                tor.ofctl("add-flow", "priority=1500,ip,nw_dst=" + net.ip(r, h) + ",actions=output:" + (h + 1));
            }
            net.packet.ofctl("add-flow", "priority=1500,ip,nw_dst=10.0." + r + ".0/24,actions=output:"
                    + net.packetUplinks.get(r).portOn(net.packet));
            // The ring's direction on its own entry, so its bytes over the packet path are told from the ACKs.
            int next = (r + 1) % RACKS;
            net.packet.ofctl("add-flow", "priority=1600,cookie=" + RING_COOKIE + ",ip,nw_src=10.0." + r
                    + ".0/24,nw_dst=10.0." + next + ".0/24,actions=output:" + net.packetUplinks.get(next).portOn(net.packet));
        }
    }

    /**
     * Bytes the circuit bridge and the packet bridge received from the ToRs so far, and of the latter those
     * of the ring's direction (rack r to rack r + 1): {circuit, packet, ring over packet}.
     */
    private static long[] bytesFromTors(Network net) {
        long circuit = 0;
        long packet = 0;
        for (int r = 0; r < RACKS; r++) {
            circuit += net.circuit.portCounters(Integer.toString(net.circuitUplinks.get(r).portOn(net.circuit))).rxBytes();
            packet += net.packet.portCounters(Integer.toString(net.packetUplinks.get(r).portOn(net.packet))).rxBytes();
        }
        long ring = net.packet.dumpFlows().stream().filter(e -> e.line().contains("cookie=" + RING_COOKIE + ","))
                .mapToLong(FlowEntry::bytes).sum();
        return new long[] {circuit, packet, ring};
    }

    /** The circuit bridge's executor entries as racks, input -> output. */
    private static Map<Integer, Integer> executorEntries(Network net) {
        Map<Integer, Integer> m = new TreeMap<>();
        for (FlowEntry e : net.circuit.dumpFlows()) {
            if (!e.line().contains("cookie=0xc1c0")) {
                continue;
            }
            Matcher in = IN_PORT.matcher(e.match());
            Matcher out = OUTPUT.matcher(e.actions());
            if (!in.find() || !out.find()) {
                throw new AssertionError("not an in_port -> output entry: " + e.line());
            }
            Integer before = m.put(net.rackOfCircuitPort.get(Integer.parseInt(in.group(1))),
                    net.rackOfCircuitPort.get(Integer.parseInt(out.group(1))));
            if (before != null) {
                throw new AssertionError("two entries for one input: " + e.line());
            }
        }
        return m;
    }

    private static Map<Integer, Integer> ring() {
        Map<Integer, Integer> m = new TreeMap<>();
        for (int r = 0; r < RACKS; r++) {
            m.put(r, (r + 1) % RACKS);
        }
        return m;
    }

    /** Each day's real circuits (input rack -> output rack), as the executor installs them. */
    private static List<Map<Integer, Integer>> matchings(JsonNode week) {
        List<Map<Integer, Integer>> days = new ArrayList<>();
        for (JsonNode day : week.at("/plan/days")) {
            Map<Integer, Integer> m = new TreeMap<>();
            JsonNode sourceOf = day.get("sourceOf");
            for (int j = 0; j < sourceOf.size(); j++) {
                int src = sourceOf.get(j).asInt();
                if (!day.path("dummy").path(j).asBoolean(false) && src != j) {
                    m.put(src, j);
                }
            }
            days.add(m);
        }
        return days;
    }

    /** Every real circuit of a week, "src->dst", one per day it is up. */
    private static List<String> circuits(JsonNode week) {
        List<String> all = new ArrayList<>();
        for (Map<Integer, Integer> day : matchings(week)) {
            day.forEach((src, dst) -> all.add(src + "->" + dst));
        }
        return all;
    }

    /** Microseconds of circuit each pair (src, dst) gets in a week. */
    private static long[][] circuitMicros(JsonNode week) {
        long[][] micros = new long[RACKS][RACKS];
        JsonNode days = week.at("/plan/days");
        List<Map<Integer, Integer>> matchings = matchings(week);
        for (int k = 0; k < days.size(); k++) {
            long up = days.get(k).get("upMicros").asLong();
            matchings.get(k).forEach((src, dst) -> micros[src][dst] += up);
        }
        return micros;
    }

    /** Every ring pair has a circuit for more than half the week. */
    private static boolean servesRing(JsonNode week) {
        long[][] micros = circuitMicros(week);
        for (int r = 0; r < RACKS; r++) {
            if (micros[r][(r + 1) % RACKS] * 2 <= WEEK_MICROS) {
                return false;
            }
        }
        return true;
    }

    private static String ringPairs(long[][] micros) {
        List<String> pairs = new ArrayList<>();
        for (int r = 0; r < RACKS; r++) {
            pairs.add(r + "->" + (r + 1) % RACKS + " " + micros[r][(r + 1) % RACKS]);
        }
        return String.join(", ", pairs);
    }

    private static double[][] matrix(JsonNode json) {
        double[][] m = new double[json.size()][];
        for (int i = 0; i < json.size(); i++) {
            m[i] = new double[json.get(i).size()];
            for (int j = 0; j < m[i].length; j++) {
                m[i][j] = json.get(i).get(j).asDouble();
            }
        }
        return m;
    }

    private static boolean allZero(JsonNode matrix) {
        for (JsonNode row : matrix) {
            for (JsonNode v : row) {
                if (v.asDouble() != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static JsonNode ok(Response response) {
        assertEquals(200, response.status(), response.toString());
        return response.json();
    }

    /** A 200's body, else a missing node: for polls while the app starts. */
    private static JsonNode json(Response response) {
        return response.status() == 200 ? response.json() : com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
