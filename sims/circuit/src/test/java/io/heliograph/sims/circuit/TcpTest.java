package io.heliograph.sims.circuit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** TCP and the network on cases worked out by hand. */
class TcpTest {

    /** No circuit: every packet crosses the 10 Gb/s packet switch. */
    private static Config packetOnly(int voq) {
        return Config.etalon().withScheduler("none").withStaticBuffers(voq);
    }

    @Test
    void oneFlowFillsTheTenGigabitPath() {
        Simulator sim = new Simulator(packetOnly(64));
        int f = sim.addFlow(0, 16, -1, 0);
        sim.run(10_000_000, 60_000_000);
        double goodput = sim.tcp.delivered[f] * 8 / 50e6;
        double line = 10 * 8960 / 9000.0;
        assertTrue(goodput > 0.97 * line && goodput <= line * 1.0001, "goodput " + goodput + " of " + line);
        // the host's own 10 Gb/s link is as slow as the packet switch: the queue is the host's, no VOQ drops
        assertEquals(0, sim.dataDrops);
        assertEquals(0, sim.tcp.timeouts[f] + sim.tcp.fastRetransmits[f]);
    }

    @Test
    void sixteenFlowsShareTheUplinkAndRenoRecoversFromTailDrops() {
        // 16 hosts of rack 0 to rack 1: the ToR's 10 Gb/s up-link is the bottleneck, a 32-packet VOQ drops
        Simulator sim = new Simulator(packetOnly(32));
        int[] flows = new int[16];
        for (int h = 0; h < 16; h++) {
            flows[h] = sim.addFlow(h, 16 + h, -1, h * 1_000L);
        }
        sim.run(20_000_000, 120_000_000);
        long delivered = 0;
        int fast = 0;
        for (int f : flows) {
            delivered += sim.tcp.delivered[f];
            fast += sim.tcp.fastRetransmits[f];
        }
        double goodput = delivered * 8 / 100e6;
        assertTrue(goodput > 0.9 * 10 * 8960 / 9000.0, "goodput " + goodput);
        assertTrue(sim.dataDrops > 0 && fast > 0, "drops " + sim.dataDrops + ", fast retransmits " + fast);
    }

    @Test
    void aSingleLossIsRepairedByFastRetransmit() {
        Simulator sim = new Simulator(packetOnly(1_000));
        int f = sim.addFlow(0, 16, 300, 0);
        sim.tcp.dropOnce[f] = 100;
        sim.run(0, 50_000_000);
        assertEquals(1, sim.tcp.fastRetransmits[f]);
        assertEquals(0, sim.tcp.timeouts[f]);
        assertEquals(300, sim.tcp.rcvNxt[f]);
        assertTrue(sim.tcp.finished[f] > 0);
        // halved at the loss: the window after recovery is half the flight at the third duplicate ACK
        assertTrue(sim.tcp.ssthresh[f] >= 2 && sim.tcp.ssthresh[f] < 300, "ssthresh " + sim.tcp.ssthresh[f]);
    }

    @Test
    void aLostLastSegmentWaitsForTheTimeout() {
        // no later segment, so no duplicate ACK: only the retransmission timer can repair it
        Simulator sim = new Simulator(packetOnly(1_000).withMinRto(2_000_000));
        int f = sim.addFlow(0, 16, 5, 0);
        sim.tcp.dropOnce[f] = 4;
        sim.run(0, 50_000_000);
        assertEquals(0, sim.tcp.fastRetransmits[f]);
        assertEquals(1, sim.tcp.timeouts[f]);
        assertEquals(5, sim.tcp.rcvNxt[f]);
        assertTrue(sim.tcp.finished[f] >= 2_000_000, "finished at " + sim.tcp.finished[f]);
        assertTrue(sim.tcp.finished[f] < 2_500_000, "finished at " + sim.tcp.finished[f]);
    }

    @Test
    void aLosslessFlowTakesItsSizeOverTheLineRate() {
        Simulator sim = new Simulator(packetOnly(1_000));
        int f = sim.addFlow(0, 16, 1_000, 0);
        sim.run(0, 100_000_000);
        assertEquals(1_000, sim.tcp.rcvNxt[f]);
        // 1,000 segments at 7.2 us each take at least 7.2 ms at line rate; slow start adds a few RTTs only
        assertTrue(sim.tcp.finished[f] > 7_200_000 && sim.tcp.finished[f] < 8_000_000, "FCT " + sim.tcp.finished[f]);
        assertEquals(0, sim.tcp.timeouts[f] + sim.tcp.fastRetransmits[f]);
    }
}
