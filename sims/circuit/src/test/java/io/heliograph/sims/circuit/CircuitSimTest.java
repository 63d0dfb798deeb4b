package io.heliograph.sims.circuit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The directions the thesis reports, at the short mode's 0.5 simulated seconds a run (the full 2 s runs
 * are {@code circuit-sim all}, quoted in the README). Directions only, never the thesis's values.
 */
class CircuitSimTest {

    private static ExecutorService pool;
    private static Experiments experiments;

    @BeforeAll
    static void start() {
        pool = Executors.newFixedThreadPool(2);
        experiments = new Experiments(pool, Config.etalon(), Experiments.SHORT_NS);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    private static String table(List<Experiments.Result> results, boolean buffers) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CircuitSim sim = new CircuitSim(new PrintStream(bytes, true, StandardCharsets.UTF_8), experiments);
        if (buffers) {
            sim.printBuffers(results);
        } else {
            sim.printResize(results);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void resizingLowersLatencyAtEqualThroughputAndRaisesCircuitUtilisation() {
        List<Experiments.Result> results = experiments.resize();
        String table = table(results, false);
        Experiments.Result tau1000 = Experiments.find(results, "tau 1000");
        Experiments.Result tau1200 = Experiments.find(results, "tau 1200");
        Experiments.Result s16 = Experiments.find(results, "static 16");
        Experiments.Result s128 = Experiments.find(results, "static 128");
        // near the throughput of the static buffer that fills the circuit, resizing halves its median latency
        assertTrue(tau1200.goodputGbps() > 0.9 * s128.goodputGbps(), table);
        assertTrue(tau1200.medianMicros() < 0.7 * s128.medianMicros(), table);
        // against static 16, the always-small buffer: more circuit utilisation
        assertTrue(tau1000.circuitUtilisation() > 1.5 * s16.circuitUtilisation(), table);
        // the earlier the VOQ grows, the more the circuit carries
        assertTrue(Experiments.find(results, "tau 1400").circuitUtilisation()
                > Experiments.find(results, "tau 0").circuitUtilisation(), table);
        // (the thesis's own pair, tau 1000 against static 64, holds only with short TCP timeouts: below)
    }

    @Test
    void withShortTimeoutsTau1000BeatsStatic64AtTheLatencyOfStatic16() {
        // a 1 ms minimum RTO instead of 10: the README's sensitivity table, where the thesis's figures reproduce
        List<Experiments.Result> results = new Experiments(pool, Config.etalon().withMinRto(1_000_000),
                Experiments.SHORT_NS).resize();
        String table = table(results, false);
        Experiments.Result tau1000 = Experiments.find(results, "tau 1000");
        Experiments.Result s16 = Experiments.find(results, "static 16");
        Experiments.Result s64 = Experiments.find(results, "static 64");
        assertTrue(tau1000.medianMicros() < 0.8 * s64.medianMicros(), table);
        assertTrue(tau1000.goodputGbps() > 0.85 * s64.goodputGbps(), table);
        assertTrue(tau1000.circuitUtilisation() > 1.5 * s16.circuitUtilisation(), table);
        assertTrue(tau1000.medianMicros() < 1.2 * s16.medianMicros(), table);
    }

    @Test
    void bigStaticBuffersRaiseUtilisationAndPacketLatency() {
        List<Experiments.Result> results = experiments.buffers();
        String table = table(results, true);
        Experiments.Result s4 = Experiments.find(results, "static 4");
        Experiments.Result s128 = Experiments.find(results, "static 128");
        assertTrue(s128.circuitUtilisation() > s4.circuitUtilisation(), table);
        assertTrue(s128.medianPacketMicros() > s4.medianPacketMicros(), table);
    }

    @Test
    void withShortTimeoutsReTcpPlusResizeRaisesCircuitUtilisationOverResizeAlone() {
        // Fig 2.9: reTCP + dynamic buffers "eek out slightly more circuit utilization for the same tau values".
        // It holds here with a 1 ms minimum RTO, over seeds 1 and 2 and in short and full runs (README, retcp);
        // under the default 10 ms it does not (within a few points either way), so the default is not asserted.
        List<Experiments.Result> results = new Experiments(pool, Config.etalon().withMinRto(1_000_000),
                Experiments.SHORT_NS).retcp();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new CircuitSim(new PrintStream(bytes, true, StandardCharsets.UTF_8), experiments).printRetcp(results);
        String table = bytes.toString(StandardCharsets.UTF_8);
        for (String tau : List.of("t600", "t1000")) {
            assertTrue(Experiments.find(results, "retcp " + tau).circuitUtilisation()
                    > Experiments.find(results, "reno " + tau).circuitUtilisation(), table);
        }
    }

    @Test
    void aduEstimationShortensBigFlowCompletionAndHugsTheFixedSchedule() {
        List<Experiments.FctResult> results = experiments.oneRing();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new CircuitSim(new PrintStream(bytes, true, StandardCharsets.UTF_8), experiments).printRing(results, 1);
        String table = bytes.toString(StandardCharsets.UTF_8);
        Experiments.FctResult voq = Experiments.findFct(results, "ToR VOQ");
        Experiments.FctResult adu = Experiments.findFct(results, "ADU");
        Experiments.FctResult fixed = Experiments.findFct(results, "Fixed");
        assertTrue(adu.medianBigMs() < 0.5 * voq.medianBigMs(), table);
        assertTrue(adu.p99BigMs() < voq.p99BigMs(), table);
        assertTrue(adu.circuitShare() > voq.circuitShare(), table);
        // ADU's schedule is (nearly) the perfect-knowledge ring
        assertTrue(adu.medianBigMs() < 1.5 * fixed.medianBigMs(), table);
        // (the thesis's halving of the small flows' 99th percentile by ADU does not hold here: README, one-ring)
    }

    @Test
    void ringPlacementShortensDfsioWrites() {
        // two of the four runs, at the short mode's 100 MB files of 32 MB blocks
        Config hdfs = experiments.solsticeBase();
        long file = Experiments.FILE_BYTES / 4;
        long block = Experiments.BLOCK_BYTES / 4;
        List<Experiments.DfsioResult> results = List.of(Experiments.dfsio("HDFS", hdfs, false, file, block),
                Experiments.dfsio("reHDFS", hdfs, true, file, block));
        String table = results.toString();
        Experiments.DfsioResult random = results.get(0);
        Experiments.DfsioResult ring = results.get(1);
        assertEquals(0, random.unfinished() + ring.unfinished(), table);
        assertTrue(ring.medianSeconds() < 0.7 * random.medianSeconds(), table);
        assertTrue(ring.maxSeconds() < random.maxSeconds(), table);
        assertTrue(ring.circuitShare() > random.circuitShare(), table);
    }

    @Test
    void everyExperimentIsAcceptedAndUnknownOnesAreRefused() {
        for (String name : List.of("buffers", "resize", "retcp", "one-ring", "two-ring", "dfsio", "all", "speed")) {
            assertEquals(name, CircuitSim.parse(name, "--short").experiment());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CircuitSim.parse("three-ring"));
        assertTrue(e.getMessage().contains("dfsio"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CircuitSim.parse("nonsense"));
        assertThrows(IllegalArgumentException.class, () -> CircuitSim.parse());
        assertEquals(Experiments.SHORT_NS, CircuitSim.parse("resize", "--short").durationNs());
        assertEquals("all", CircuitSim.parse("all").experiment());
        assertFalse(CircuitSim.parse("two-ring").directAcks());
        assertTrue(CircuitSim.parse("two-ring", "--acks", "direct").directAcks());
        assertFalse(CircuitSim.parse("two-ring", "--acks", "packet").directAcks());
        IllegalArgumentException acks = assertThrows(IllegalArgumentException.class,
                () -> CircuitSim.parse("two-ring", "--acks", "sideways"));
        assertTrue(acks.getMessage().contains("--acks") && acks.getMessage().contains("sideways"), acks.getMessage());
    }
}
