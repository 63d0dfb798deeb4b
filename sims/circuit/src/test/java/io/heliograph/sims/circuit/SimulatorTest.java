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
}
