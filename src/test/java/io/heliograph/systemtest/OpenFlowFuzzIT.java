package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.FuzzingSwitch;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.OpenFlowCorpus;
import io.heliograph.testbed.OpenFlowCorpus.Seed;
import io.heliograph.testbed.OpenFlowMutations;
import io.heliograph.testbed.OpenFlowMutations.Kind;
import io.heliograph.testbed.OpenFlowMutations.Mutant;
import io.heliograph.testbed.PingLog;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.projectfloodlight.openflow.protocol.OFVersion;

/**
 * Issue 18: malformed and hostile OpenFlow from several switch connections at once, while a healthy
 * switch (a real Open vSwitch bridge, OpenFlow 1.3, two hosts pinging through it) is served by the
 * default profile.
 *
 * <p>The messages: every message type Loxi builds in every version it has (1.0 to 1.5, 1.1 and 1.2
 * included; {@link OpenFlowCorpus}), each sent valid and mutated ({@link OpenFlowMutations}: bit flips,
 * the header's length too small, too large, zero or under 8, nested TLV/OXM/action/property lengths zero,
 * too small or too large, the version or type byte changed), messages of other versions mid-stream, and
 * byte-by-byte delivery. The connections: most do a proper HELLO/FEATURES handshake in one of the
 * versions the controller offers (1.0, 1.3, 1.4, 1.5) and answer the controller as a simple switch while
 * they fuzz; some fuzz from their first byte. A connection's last message may break the framing (a length
 * under 8, a length beyond the bytes, a message cut off).
 *
 * <p>Asserted: the controller never dies; the healthy switch is never disconnected (the controller's log
 * and OVS's), every one of its pings and of the REST reads of its flows through the fuzz is answered; a
 * fuzzing connection is closed by the controller only when its stream cannot be framed (or its handshake
 * could not be: no common version, or no handshake within the timeout), and answers an echo after every
 * batch of well-framed bad messages; its bad input is logged at most {@link #WARNINGS_PER_CONNECTION}
 * times, never with a stack trace; afterwards no thread is left spinning (the controller's CPU time over a
 * quiet 5 s is within {@link #CPU_MARGIN} cores of the quiet 5 s before the fuzz) and the heap after a GC is
 * within {@link #HEAP_MARGIN} bytes of the one before (what the fuzz may legitimately leave behind: the
 * hosts the devices app learned from fuzzed PACKET_INs).
 *
 * <p>Seeded: the seed is printed and {@code -Dfuzz.seed=N} replays each connection's mutations (which
 * connection sends which of the shared seeds is left to timing); {@code -Dfuzz.openflow.seconds} sets the
 * fuzz's duration (60 s by default), within which every seed is sent in every well-framed mutation first,
 * random ones after. A failure names the connection and the last bytes it sent, in hex.
 */
// Isolated: it measures the controller's CPU time and heap before and after the fuzz, and four
// connections fuzzing at full rate would disturb the timings of the classes beside it.
@Isolated
@Timeout(600)
class OpenFlowFuzzIT {

    private static final long SEED = Long.getLong("fuzz.seed", System.nanoTime());
    private static final Duration FUZZ = Duration.ofSeconds(Long.getLong("fuzz.openflow.seconds", 60));
    private static final int CONNECTIONS = 4;
    private static final List<OFVersion> NEGOTIATED = List.of(OFVersion.OF_10, OFVersion.OF_13, OFVersion.OF_14,
            OFVersion.OF_15);
    /** The datapath id in the corpus' messages that carry one: neither the healthy switch's nor a fuzzing connection's. */
    private static final long CORPUS_DPID = 0xfeedfeedL;
    private static final long FUZZ_DPID_BASE = 0xf0000000L;
    private static final int BATCH = 100;
    private static final int BATCHES_PER_SESSION = 3;
    /** At most this many WARN lines per fuzzing connection: once per kind of bad input, never once per message. */
    static final int WARNINGS_PER_CONNECTION = 20;
    /** Cores: the CPU the controller may use over a quiet 5 s after the fuzz beyond what it used before. */
    static final double CPU_MARGIN = 0.15;
    /** Bytes: the heap after a GC may exceed the one before the fuzz by this much. */
    static final long HEAP_MARGIN = 32L << 20;
    private static final List<Kind> WELL_FRAMED = List.of(Kind.VALID, Kind.BIT_FLIP, Kind.LENGTH_SHORT, Kind.LENGTH_LONG,
            Kind.NESTED_LENGTH_ZERO, Kind.NESTED_LENGTH_SHORT, Kind.NESTED_LENGTH_LONG, Kind.VERSION_BYTE, Kind.TYPE_BYTE);
    private static final List<Kind> FRAMING_BREAKERS = List.of(Kind.LENGTH_ZERO, Kind.LENGTH_UNDER_HEADER,
            Kind.LENGTH_OVERRUN, Kind.TRUNCATED_STREAM);
    private static final Pattern HEAP = Pattern.compile("jvm_memory_bytes_used\\{area=\"heap\"} ([0-9.eE+]+)");

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static Bridge healthy;
    private static Host h1;
    private static Host h2;
    private static RestClient rest;
    private static Map<OFVersion, List<Seed>> corpus;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("OpenFlowFuzzIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        rest = controller.rest();
        testbed = Testbed.start("OpenFlowFuzzIT");
        healthy = testbed.addSwitch(1, List.of("OpenFlow13"));
        h1 = testbed.addHost(1, healthy);
        h2 = testbed.addHost(2, healthy);
        healthy.setController(testbed.controllerTarget("tcp", controller.openflowPort()));
        controller.awaitSwitches(1, Duration.ofSeconds(60));
        h1.awaitReachable(h2, Duration.ofSeconds(30));
        corpus = new TreeMap<>();
        for (OFVersion version : OFVersion.values()) {
            corpus.put(version, OpenFlowCorpus.of(version, CORPUS_DPID));
        }
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("OpenFlowFuzzIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void fuzzingSwitchesHurtNeitherTheControllerNorAHealthySwitch() throws Exception {
        System.out.println("OpenFlowFuzzIT seed " + SEED + " (replay with -Dfuzz.seed=" + SEED + ")");
        corpus.forEach((v, seeds) -> System.out.printf("OpenFlowFuzzIT corpus: OpenFlow %s, %d messages of %d types%n",
                name(v), seeds.size(), seeds.stream().map(Seed::type).distinct().count()));
        String healthyDpid = healthy.dpid();
        Path pingFile = artifacts.resolve("ping-h1-h2.log");
        Files.deleteIfExists(pingFile);
        h1.startBackground(pingFile, "ping", "-n", "-O", "-i", "0.2", h2.ip());
        PingLog pings = new PingLog(pingFile);
        Poll.until("pings from h1 to h2 answered", Duration.ofSeconds(20), () -> pings.answered() >= 5);

        Measurement before = quietMeasurement();
        int logMark = controller.logMark();
        long ovsMark = Files.size(testbed.ovs().vswitchdLog());
        int firstSeq = pings.lastSeq() + 1;

        Fuzz fuzz = new Fuzz(new Random(SEED));
        HealthyProbe probe = new HealthyProbe(healthyDpid);
        Thread prober = new Thread(probe, "healthy-probe");
        prober.start();
        long started = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            Random random = new Random(SEED * 31 + i);   // each worker's mutations replay; who takes which seed is timing
            Thread worker = new Thread(() -> fuzz.run(random), "fuzzer-" + i);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        double fuzzSeconds = (System.nanoTime() - started) / 1e9;
        probe.stop();
        prober.join();
        int lastSeq = pings.lastSeq();

        // Every fuzzing connection is closed: only the healthy switch may still be listed.
        List<String> ghosts = List.of();
        try {
            controller.awaitSwitches(1, Duration.ofSeconds(30));
        } catch (AssertionError | RuntimeException e) {
            ghosts = new ArrayList<>();
            for (com.fasterxml.jackson.databind.JsonNode sw : rest.get("/api/v1/switches").json()) {
                if (!sw.path("dpid").asText().equals(healthyDpid)) {
                    ghosts.add(sw.path("dpid").asText());
                }
            }
        }
        Measurement after = quietMeasurement();
        String log = controller.log().substring(logMark);
        String ovsLog = Files.readString(testbed.ovs().vswitchdLog()).substring((int) ovsMark);

        // --- What happened ---
        List<String> violations = new ArrayList<>(fuzz.violations);
        if (!ghosts.isEmpty()) {
            violations.add(ghosts.size() + " fuzzing switches still listed as connected 30 s after their connections "
                    + "closed: " + ghosts);
        }
        System.out.printf("OpenFlowFuzzIT: %d messages in %d sessions over %.1f s (seed %d)%n", fuzz.sent.get(),
                fuzz.sessions.size(), fuzzSeconds, SEED);
        fuzz.counts.forEach((version, kinds) -> System.out.printf("  OpenFlow %s: %s%n", version, kinds));
        System.out.printf("  well-framed coverage: %d of %d (seed, mutation) pairs of the negotiated versions sent%n",
                fuzz.systematicSent.get(), fuzz.systematicTotal);
        Map<String, Integer> errors = new TreeMap<>();
        fuzz.sessions.forEach(s -> s.errors.forEach((k, n) -> errors.merge(k, n, Integer::sum)));
        System.out.println("  errors the controller answered with: " + errors);

        Map<String, Integer> closeReasons = new TreeMap<>();
        Map<Integer, Integer> warningsPerConnection = new TreeMap<>();
        Map<String, Integer> warningKinds = new TreeMap<>();
        List<String> flooded = new ArrayList<>();
        for (Session s : fuzz.sessions) {
            // The connection's lines: its port, and its datapath id once it has one (ports are reused)
            String dpid = org.projectfloodlight.openflow.types.DatapathId.of(s.dpid).toString();
            List<String> lines = linesOf(log, "/127.0.0.1:" + s.localPort + "\\b").stream()
                    .filter(l -> l.contains("switch at /") || l.contains(dpid)).toList();
            long warnings = lines.stream().filter(l -> l.contains(" WARN ")).count();
            warningsPerConnection.merge((int) warnings, 1, Integer::sum);
            lines.stream().filter(l -> l.contains(" WARN ")).map(OpenFlowFuzzIT::kindOf)
                    .forEach(k -> warningKinds.merge(k, 1, Integer::sum));
            if (warnings > WARNINGS_PER_CONNECTION) {
                flooded.add(s + ": " + warnings + " WARN lines, e.g. "
                        + lines.stream().filter(l -> l.contains(" WARN ")).limit(2).toList());
            }
            if (s.closedByController != null) {
                String reason = closeReason(lines);
                closeReasons.merge(s.kind + ": " + reason, 1, Integer::sum);
                // A first-byte session sends garbage from its first byte: a garbage message that happens to
                // carry the xid of the controller's FEATURES_REQUEST is that request's answer, and an
                // answer that cannot be decoded fails the handshake, as it should.
                boolean allowed = reason.equals("input cannot be framed") || (s.kind.equals("first-byte")
                        && (reason.equals("handshake timed out") || reason.equals("no common version")
                        || reason.equals("handshake request answered undecodably")));
                if (!allowed && !s.expectClose) {
                    violations.add(s + " was closed by the controller (" + reason + ", " + s.closedByController
                            + ") after: " + s.lastSent());
                }
            }
        }
        if (!flooded.isEmpty()) {
            violations.add(flooded.size() + " of " + fuzz.sessions.size() + " fuzzing connections logged more than "
                    + WARNINGS_PER_CONNECTION + " WARN lines (a log flood), the first: " + flooded.get(0));
        }
        System.out.println("  connections closed by the controller, by session kind and reason: " + closeReasons);
        System.out.println("  WARN lines per fuzzing connection (lines: connections): " + warningsPerConnection);
        System.out.println("  WARN lines by kind: " + warningKinds);

        List<String> traces = linesOf(log, "^\\s+at \\S+\\(|^Caused by: |\\] ERROR |^Exception in thread");
        System.out.println("  stack trace or ERROR lines in the controller log: " + traces.size());
        if (!traces.isEmpty()) {
            violations.add(traces.size() + " stack trace or ERROR lines in the controller log, the first: "
                    + traces.subList(0, Math.min(8, traces.size())));
        }

        List<String> healthyDrops = linesOf(log, "switch " + Pattern.quote(healthyDpid) + " .*(disconnect|closing|not reading)");
        List<String> ovsDrops = linesOf(ovsLog, "connection (dropped|closed)|disconnected|rconn.*(failed|dropped)");
        List<Integer> lost = pings.lost(firstSeq);
        System.out.printf("  healthy switch: %d of %d REST reads of its flows answered; pings %d-%d, %d lost; "
                + "controller log lines about its disconnection: %d; OVS log: %d%n", probe.answered.get(), probe.asked.get(),
                firstSeq, lastSeq, lost.size(), healthyDrops.size(), ovsDrops.size());
        if (probe.answered.get() != probe.asked.get()) {
            violations.add("healthy switch: REST reads of its flows not answered: " + probe.failures);
        }
        if (!lost.isEmpty()) {
            violations.add("healthy switch: pings lost: " + lost);
        }
        if (!healthyDrops.isEmpty() || !ovsDrops.isEmpty()) {
            violations.add("healthy switch disconnected: " + healthyDrops + " " + ovsDrops);
        }
        System.out.printf("  controller CPU over a quiet 5 s: %.3f cores before, %.3f after (margin %.2f)%n",
                before.cores, after.cores, CPU_MARGIN);
        System.out.printf("  heap after a GC: %.1f MiB before, %.1f MiB after (margin %d MiB); hosts tracked %s%n",
                before.heap / 1048576.0, after.heap / 1048576.0, HEAP_MARGIN >> 20,
                rest.get("/api/v1/hosts?limit=1").json().path("total"));
        if (after.cores > before.cores + CPU_MARGIN) {
            violations.add(String.format("a thread left spinning: %.3f cores used over a quiet 5 s after the fuzz, "
                    + "%.3f before", after.cores, before.cores));
        }
        if (after.heap > before.heap + HEAP_MARGIN) {
            violations.add(String.format("heap not back to baseline: %.1f MiB after a GC, %.1f MiB before",
                    after.heap / 1048576.0, before.heap / 1048576.0));
        }

        assertTrue(controller.isAlive(), "the controller is alive");
        assertTrue(healthy.isConnected(), "the healthy switch is connected");
        assertTrue(violations.isEmpty(), violations.size() + " violations (seed " + SEED + "):\n"
                + String.join("\n", violations.subList(0, Math.min(30, violations.size()))));
    }

    // --- The fuzz ----------------------------------------------------------------------------------

    /** One connection's life: how it began, what it sent last, how it ended. */
    static final class Session {
        final String kind;
        final OFVersion version;
        final long dpid;
        int localPort;
        volatile String closedByController;
        volatile boolean expectClose;
        Map<String, Integer> errors = Map.of();
        private final List<String> recent = new ArrayList<>();

        Session(String kind, OFVersion version, long dpid) {
            this.kind = kind;
            this.version = version;
            this.dpid = dpid;
        }

        void sent(String what, byte[] bytes) {
            if (recent.size() == 3) {
                recent.remove(0);
            }
            recent.add(what + " " + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 96))
                    + (bytes.length > 96 ? "... (" + bytes.length + " bytes)" : ""));
        }

        String lastSent() {
            return String.join(" | ", recent);
        }

        @Override
        public String toString() {
            return kind + " connection " + Long.toHexString(dpid) + " (OpenFlow " + name(version) + ", port " + localPort + ")";
        }
    }

    /** A well-framed message to send: a seed and how to mutate it. */
    record Item(Seed seed, Kind kind, boolean systematic) {
    }

    /** The work the fuzzing connections share, and what they found. */
    final class Fuzz {
        final long deadline = System.nanoTime() + FUZZ.toNanos();
        final Map<OFVersion, ConcurrentLinkedQueue<Item>> work = new ConcurrentHashMap<>();
        final int systematicTotal;
        final AtomicInteger systematicSent = new AtomicInteger();
        final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger sessionNumber = new AtomicInteger();
        final List<Session> sessions = new CopyOnWriteArrayList<>();
        final List<String> violations = new CopyOnWriteArrayList<>();
        final Map<String, Map<String, Integer>> counts = new ConcurrentHashMap<>();

        Fuzz(Random random) {
            int total = 0;
            List<Seed> strangers = new ArrayList<>();
            corpus.forEach((version, seeds) -> {
                if (!NEGOTIATED.contains(version)) {
                    strangers.addAll(seeds);
                }
            });
            for (OFVersion version : NEGOTIATED) {
                List<Item> items = new ArrayList<>();
                for (Seed seed : corpus.get(version)) {
                    for (Kind kind : WELL_FRAMED) {
                        items.add(new Item(seed, kind, true));
                    }
                }
                Collections.shuffle(items, random);
                work.put(version, new ConcurrentLinkedQueue<>(items));
                total += items.size();
            }
            // Every seed of every version also goes, valid and bit-flipped, over a connection of another version.
            int i = 0;
            for (OFVersion version : corpus.keySet()) {
                for (Seed seed : corpus.get(version)) {
                    OFVersion on = NEGOTIATED.get(i++ % NEGOTIATED.size());
                    if (on == version) {
                        on = NEGOTIATED.get(i++ % NEGOTIATED.size());
                    }
                    work.get(on).add(new Item(seed, Kind.VALID, true));
                    work.get(on).add(new Item(seed, Kind.BIT_FLIP, true));
                    total += 2;
                }
            }
            this.systematicTotal = total;
        }

        void run(Random r) {
            while (System.nanoTime() < deadline) {
                int n = sessionNumber.incrementAndGet();
                OFVersion version = NEGOTIATED.get(n % NEGOTIATED.size());
                Session session = new Session(n % 8 == 0 ? "first-byte" : n % 8 == 1 ? "byte-by-byte" : "handshake",
                        version, FUZZ_DPID_BASE + n);
                sessions.add(session);
                try {
                    switch (session.kind) {
                        case "first-byte" -> firstByte(session, r);
                        case "byte-by-byte" -> handshakeThen(session, r, true);
                        default -> handshakeThen(session, r, false);
                    }
                } catch (RuntimeException | AssertionError e) {
                    violations.add(session + ": " + e);
                }
            }
        }

        private void handshakeThen(Session s, Random r, boolean byteByByte) {
            try (FuzzingSwitch sw = FuzzingSwitch.connect(controller.openflowPort(), s.dpid, s.version, true)) {
                s.localPort = sw.localPort();
                boolean announced = awaitAnnounced(sw);
                if (!announced) {
                    violations.add(s + ": not served after a proper handshake within 20 s (closed: "
                            + sw.closedByController() + ")");
                    s.closedByController = sw.closedByController();
                    s.errors = sw.errors();
                    return;
                }
                int batches = byteByByte ? 1 : BATCHES_PER_SESSION;
                for (int b = 0; b < batches && System.nanoTime() < deadline; b++) {
                    for (int i = 0; i < (byteByByte ? 15 : BATCH); i++) {
                        Item item = next(s.version, r, byteByByte);
                        Mutant mutant = OpenFlowMutations.mutate(item.seed().bytes(), item.kind(), r);
                        if (byteByByte && mutant.bytes().length > 600) {
                            continue;
                        }
                        s.sent(label(item, mutant, s.version), mutant.bytes());
                        count(item.seed().version(), label(item, mutant, s.version) + (byteByByte ? " (byte by byte)" : ""));
                        boolean ok = byteByByte ? sw.sendByteByByte(mutant.bytes()) : sw.send(mutant.bytes());
                        if (item.systematic()) {
                            systematicSent.incrementAndGet();
                        }
                        if (!ok || sw.closedByController() != null) {
                            break;
                        }
                    }
                    if (!sw.echo(0xec40_0000L + b, Duration.ofSeconds(10))) {
                        if (sw.closedByController() == null) {
                            violations.add(s + ": no answer to an ECHO_REQUEST after a batch of well-framed messages; "
                                    + "last sent: " + s.lastSent());
                        }
                        break;
                    }
                }
                if (sw.closedByController() == null && !byteByByte) {
                    breakFraming(s, sw, r);
                }
                s.closedByController = sw.closedByController();
                s.errors = sw.errors();
            }
        }

        /** The session's last message: one after which the stream cannot be framed, or is framed wrongly. */
        private void breakFraming(Session s, FuzzingSwitch sw, Random r) {
            Kind kind = FRAMING_BREAKERS.get(r.nextInt(FRAMING_BREAKERS.size()));
            Seed seed = pick(r, corpus.get(s.version));
            Mutant mutant = OpenFlowMutations.mutate(seed.bytes(), kind, r);
            s.expectClose = kind == Kind.LENGTH_ZERO || kind == Kind.LENGTH_UNDER_HEADER || kind == Kind.LENGTH_OVERRUN;
            s.sent(kind + " " + seed.type(), mutant.bytes());
            count(s.version, kind.toString());
            sw.send(mutant.bytes());
            if (kind == Kind.LENGTH_OVERRUN) {
                for (int i = 0; i < 20; i++) {   // framed from the wrong place from here on
                    sw.send(pick(r, corpus.get(s.version)).bytes());
                }
                sw.awaitClosedByController(Duration.ofSeconds(2));
            } else if (kind != Kind.TRUNCATED_STREAM) {
                if (!sw.awaitClosedByController(Duration.ofSeconds(10))) {
                    violations.add(s + ": still open 10 s after a header declaring a length under 8: " + s.lastSent());
                }
            }
        }

        private void firstByte(Session s, Random r) {
            try (FuzzingSwitch sw = FuzzingSwitch.connect(controller.openflowPort(), s.dpid, s.version, false)) {
                s.localPort = sw.localPort();
                for (int i = 0; i < 30; i++) {
                    OFVersion version = pick(r, new ArrayList<>(corpus.keySet()));
                    Seed seed = pick(r, corpus.get(version));
                    Kind kind = pick(r, WELL_FRAMED);
                    Mutant mutant = OpenFlowMutations.mutate(seed.bytes(), kind, r);
                    s.sent(mutant.kind() + " " + seed.type() + " " + name(version), mutant.bytes());
                    count(version, mutant.kind() + " (first bytes)");
                    if (!sw.send(mutant.bytes())) {
                        break;
                    }
                }
                sw.awaitClosedByController(Duration.ofSeconds(1));
                s.closedByController = sw.closedByController();
                s.errors = sw.errors();
            }
        }

        private boolean awaitAnnounced(FuzzingSwitch sw) {
            String path = "/api/v1/switches/" + org.projectfloodlight.openflow.types.DatapathId.of(sw.datapathId());
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < until) {
                if (sw.closedByController() != null) {
                    return false;
                }
                if (rest.get(path).status() == 200) {
                    return true;
                }
                sleepMillis(50);
            }
            return false;
        }

        /** The next systematic item for this version, or a random one once they are all sent. */
        private Item next(OFVersion version, Random r, boolean small) {
            if (!small) {
                Item item = work.get(version).poll();
                if (item != null) {
                    return item;
                }
            }
            OFVersion from = r.nextInt(10) == 0 ? pick(r, new ArrayList<>(corpus.keySet())) : version;
            return new Item(pick(r, corpus.get(from)), pick(r, WELL_FRAMED), false);
        }

        private String label(Item item, Mutant mutant, OFVersion connection) {
            return mutant.kind() + (item.seed().version() == connection ? "" : " on a " + name(connection) + " connection");
        }

        private void count(OFVersion version, String label) {
            sent.incrementAndGet();
            counts.computeIfAbsent(name(version), k -> new ConcurrentHashMap<>()).merge(label, 1, Integer::sum);
        }
    }

    /** Reads the healthy switch's flows over REST once a second: every read must be answered. */
    static final class HealthyProbe implements Runnable {
        final String dpid;
        final AtomicInteger asked = new AtomicInteger();
        final AtomicInteger answered = new AtomicInteger();
        final List<String> failures = new CopyOnWriteArrayList<>();
        volatile boolean stopped;

        HealthyProbe(String dpid) {
            this.dpid = dpid;
        }

        @Override
        public void run() {
            while (!stopped) {
                asked.incrementAndGet();
                RestClient.Response flows = rest.get("/api/v1/switches/" + dpid + "/flows");
                if (flows.status() == 200) {
                    answered.incrementAndGet();
                } else {
                    failures.add(flows.status() + " " + flows.body());
                }
                if (!controller.isAlive()) {
                    failures.add("the controller died");
                    return;
                }
                sleepMillis(1_000);
            }
        }

        void stop() {
            stopped = true;
        }
    }

    // --- Measurements ------------------------------------------------------------------------------

    record Measurement(double cores, long heap) {
    }

    /** The controller's CPU over a quiet 5 s (from /proc/PID/stat), then its heap right after a full GC. */
    private static Measurement quietMeasurement() {
        sleepMillis(3_000);   // let the last requests and disconnections settle
        long ticks = cpuTicks();
        long start = System.nanoTime();
        sleepMillis(5_000);
        double cores = (cpuTicks() - ticks) / (double) clockTicksPerSecond() / ((System.nanoTime() - start) / 1e9);
        Command.of("jcmd", Long.toString(controller.pid()), "GC.run").timeout(Duration.ofSeconds(60)).check();
        Matcher heap = HEAP.matcher(rest.get("/metrics").body());
        assertTrue(heap.find(), "the heap in /metrics");
        return new Measurement(cores, (long) Double.parseDouble(heap.group(1)));
    }

    /** utime + stime of the controller JVM, in clock ticks: fields 14 and 15 of /proc/PID/stat. */
    private static long cpuTicks() {
        try {
            String stat = Files.readString(Path.of("/proc/" + controller.pid() + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long clockTicksPerSecond() {
        return Long.parseLong(Command.of("getconf", "CLK_TCK").check().stdout().strip());
    }

    // --- Small things ------------------------------------------------------------------------------

    private static List<String> linesOf(String log, String regex) {
        Pattern pattern = Pattern.compile(regex);
        List<String> lines = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (pattern.matcher(line).find()) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** Why the controller's log says it closed a connection. */
    private static String closeReason(List<String> lines) {
        for (String line : lines) {
            if (line.contains("cannot be framed")) {
                return "input cannot be framed";
            }
            if (line.contains("handshake timed out")) {
                return "handshake timed out";
            }
            if (line.contains("version negotiation failed")) {
                return "no common version";
            }
            if (line.contains("not reading")) {
                return "not reading";
            }
            if (line.contains("ECHO")) {
                return "keepalive";
            }
            if (line.contains("handshake failed") && line.contains("answered with a message that cannot be decoded")) {
                return "handshake request answered undecodably";
            }
            if (line.contains("handshake failed")) {
                return "handshake failed";
            }
        }
        return "not said in the log";
    }

    /** A WARN line without what changes from one occurrence to the next (addresses, ids, numbers, hex). */
    private static String kindOf(String line) {
        int at = line.indexOf(" WARN ");
        String text = line.substring(at + 6).replaceAll("switch [0-9a-f:]+ at /[0-9.:]+|switch at /[0-9.:]+", "SWITCH")
                .replaceAll("0x[0-9a-fA-F]+|\\b\\d+\\b", "N");
        return text.length() > 110 ? text.substring(0, 110) : text;
    }

    private static String name(OFVersion version) {
        return switch (version) {
            case OF_10 -> "1.0";
            case OF_11 -> "1.1";
            case OF_12 -> "1.2";
            case OF_13 -> "1.3";
            case OF_14 -> "1.4";
            case OF_15 -> "1.5";
        };
    }

    private static <T> T pick(Random random, List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
