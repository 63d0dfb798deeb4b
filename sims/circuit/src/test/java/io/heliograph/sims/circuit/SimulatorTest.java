package io.heliograph.sims.circuit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.circuit.engine.CircuitParameters;
import org.junit.jupiter.api.Test;

/** The network and the schedule's execution on cases worked out by hand. */
class SimulatorTest {

    @Test
    void theStrobeGivesEachPairOneDayAWeekAndTheCircuitCarriesItsVoq() {
        Simulator sim = new Simulator(Config.etalon().withStaticBuffers(128));
        // 10 weeks of 1,400 us, measured from the first week's end
        sim.run(1_400_000, 15_400_000);
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 8; j++) {
                assertEquals(i == j ? 0 : 10 * 180_000, sim.circuitUpNs[i * 8 + j], i + " -> " + j);
            }
        }
        // a flow from rack 0 to rack 1: its bytes cross both switches, and the circuit at 80 Gb/s while up
        Simulator withFlow = new Simulator(Config.etalon().withStaticBuffers(128));
        int f = withFlow.addFlow(0, 16, -1, 0);
        withFlow.run(5_000_000, 50_000_000);
        assertTrue(withFlow.circuitBytes[1] > 0 && withFlow.packetBytes[1] > 0);
        assertTrue(withFlow.circuitUtilisation(0, 1) <= 1.0 + 1e-9);
        // one host's 10 Gb/s link is the bottleneck whatever the path
        assertTrue(withFlow.tcp.delivered[f] * 8 / 45e6 < 10, "goodput above the host link");
    }

    @Test
    void solsticeOnVoqOccupancyGivesTheLoadedPairMostOfTheWeek() {
        Config config = Config.etalon().withNetwork(CircuitParameters.etalon()).withScheduler("solstice")
                .withStaticBuffers(128);
        Simulator sim = new Simulator(config);
        for (int h = 0; h < 16; h++) {
            sim.addFlow(h, 16 + h, -1, 0);
        }
        sim.run(10_000_000, 50_000_000);
        // rack 0 -> 1 is the only demand: a one-entry matrix, scheduled as one day the whole week, whose
        // night is the only time the pair is off the circuit (a week behind its snapshot at the start)
        double upShare = sim.circuitUpNs[1] / 40e6;
        assertTrue(upShare > 0.9, "rack 0 -> 1 had its circuit " + upShare + " of the time");
        assertTrue(sim.circuitUtilisation(0, 1) > 0.3, "utilisation " + sim.circuitUtilisation(0, 1));
        assertTrue(sim.weeksScheduled >= 20, "weeks " + sim.weeksScheduled);
    }

    @Test
    void directAcksSkipTheVoqsThatDropThemBehindData() {
        // racks 0 and 1 send to each other from every host: each direction's ACKs share the other's
        // 16-packet VOQ with its data, unless they take a path of their own
        long[] ackDrops = new long[2];
        long[] delivered = new long[2];
        for (int direct = 0; direct < 2; direct++) {
            Simulator sim = new Simulator(Config.etalon().withDirectAcks(direct == 1));
            int[] forward = new int[16];
            for (int h = 0; h < 16; h++) {
                forward[h] = sim.addFlow(h, 16 + h, -1, 0);
                sim.addFlow(16 + h, h, -1, 0);
            }
            sim.run(2_000_000, 22_000_000);
            ackDrops[direct] = sim.drops - sim.dataDrops;
            for (int f : forward) {
                delivered[direct] += sim.tcp.delivered[f];
            }
        }
        assertTrue(ackDrops[0] > 0, "no ACK was dropped behind data");
        assertEquals(0, ackDrops[1], "ACKs on their own path were dropped");
        assertTrue(delivered[1] > delivered[0], "direct ACKs delivered " + delivered[1] + " bytes, shared " + delivered[0]);
    }

    @Test
    void reTcpJumpsAtMostOncePerCircuitDayAndOnlyWhenOn() {
        // one flow rack 0 -> 1 under the strobe: its circuit is up one 180 us day of each 1,400 us week
        for (boolean retcp : new boolean[] {false, true}) {
            Simulator sim = new Simulator(Config.etalon().withStaticBuffers(64).withRetcp(retcp));
            int f = sim.addFlow(0, 16, -1, 0);
            sim.run(0, 14_000_000); // 10 weeks
            if (retcp) {
                // the ACKs marked while the circuit is up reach the sender, and the jump happens once a day
                assertTrue(sim.tcp.jumps[f] >= 3 && sim.tcp.jumps[f] <= 10, "jumps " + sim.tcp.jumps[f]);
            } else {
                assertEquals(0, sim.tcp.jumps[f]);
            }
        }
    }

    @Test
    void aduEstimationSeesAFlowsOutstandingBytesAndForgetsItAtItsClose() {
        Config config = Config.etalon().withNetwork(CircuitParameters.etalon()).withScheduler("solstice")
                .withEstimator("adu");
        Simulator sim = new Simulator(config);
        int segments = 20_000; // 179 MB: far more than one host link sends in 10 ms
        int f = sim.addFlow(0, 16, segments, 0);
        sim.run(0, 10_000_000);
        double outstanding = sim.adu.estimate()[0][1];
        long payload = sim.tcp.payload;
        // the whole ADU less what left the VOQ by the last week's start, and the pair is on the circuit
        assertTrue(outstanding > 0 && outstanding < (long) segments * payload, "outstanding " + outstanding);
        assertEquals((long) (segments - sim.servedReported[f]) * payload, outstanding, 1e-6);
        assertEquals(1, sim.adu.openFlows());
        Simulator done = new Simulator(config);
        int g = done.addFlow(0, 16, 1_000, 0);
        done.run(0, 20_000_000);
        assertTrue(done.tcp.finished[g] > 0, "a 1,000-segment flow finishes in 20 ms");
        assertEquals(0, done.adu.openFlows());
        assertEquals(0, done.adu.estimate()[0][1], 1e-9);
    }

    @Test
    void aPipelinedFlowSendsOnlyWhatItsUpstreamDelivered() {
        Simulator sim = new Simulator(Config.etalon().withScheduler("none"));
        // host 0 (rack 0) -> host 16 (rack 1) over the 10 Gb/s packet switch, then host 16 -> 17 in rack 1
        int first = sim.addFlow(0, 16, 2_000, 0);
        int second = sim.addFlow(16, 17, 2_000, 0);
        sim.tcp.pipe(first, second);
        sim.run(0, 5_000_000);
        assertTrue(sim.tcp.sndNxt[second] > 0 && sim.tcp.sndNxt[second] <= sim.tcp.rcvNxt[first],
                sim.tcp.sndNxt[second] + " sent, " + sim.tcp.rcvNxt[first] + " delivered upstream");
        assertTrue(sim.tcp.finished[first] < 0, "2,000 segments take over 14 ms at 10 Gb/s");
        Simulator whole = new Simulator(Config.etalon().withScheduler("none"));
        int a = whole.addFlow(0, 16, 2_000, 0);
        int b = whole.addFlow(16, 17, 2_000, 0);
        whole.tcp.pipe(a, b);
        whole.run(0, 100_000_000);
        assertTrue(whole.tcp.finished[a] > 0 && whole.tcp.finished[b] > 0);
        assertEquals(whole.tcp.delivered[a], whole.tcp.delivered[b]);
    }
}
