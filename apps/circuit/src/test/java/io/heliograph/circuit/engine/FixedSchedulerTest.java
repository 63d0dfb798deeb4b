package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FixedSchedulerTest {

    private static final CircuitParameters ETALON = CircuitParameters.etalon();

    @Test
    void theStrobeIsTheThesisWeek() {
        FixedScheduler strobe = FixedScheduler.strobe(ETALON);
        WeekPlan week = strobe.week();
        assertEquals(7, week.days().size());
        assertEquals(1_400, week.weekMicros(), "7 days of 180 us and their 20 us nights");
        int[] rackOneSendsTo = new int[7];
        for (int k = 0; k < 7; k++) {
            int[] sourceOf = week.days().get(k).sourceOf();
            for (int j = 0; j < 8; j++) {
                if (sourceOf[j] == 0) {
                    rackOneSendsTo[k] = j + 1;
                }
            }
        }
        assertEquals(List.of(3, 4, 5, 6, 7, 8, 2), java.util.Arrays.stream(rackOneSendsTo).boxed().toList(),
                "rack 1 (1-based) connects to 3, 4, 5, 6, 7, 8, 2");
    }

    @Test
    void theWeekIsTheOperatorsWhateverTheDemandWhichOnlyDecidesTheBytes() {
        FixedScheduler fixed = FixedScheduler.strobe(ETALON);
        SplittableRandom random = new SplittableRandom(3);
        double upBytes = 180 * ETALON.circuitBytesPerMicro();
        for (int trial = 0; trial < 50; trial++) {
            double[][] demand = new double[8][8];
            for (int i = 0; i < 8; i++) {
                for (int j = 0; j < 8; j++) {
                    demand[i][j] = i == j ? 0 : random.nextDouble() * 2 * upBytes;
                }
            }
            Schedule schedule = fixed.schedule(demand, ETALON, trial);
            assertEquals(fixed.week().days(), schedule.days());
            for (int i = 0; i < 8; i++) {
                for (int j = 0; j < 8; j++) {
                    if (i != j) {
                        assertEquals(Math.min(demand[i][j], upBytes), schedule.circuitBytes()[i][j], 1e-6);
                        assertEquals(demand[i][j], schedule.circuitBytes()[i][j] + schedule.leftoverBytes()[i][j], 1e-6);
                    }
                }
            }
        }
    }

    @Test
    void aWeekThatDoesNotFitTheNetworkIsRefused() {
        double[][] demand = new double[8][8];
        FixedScheduler strobe = FixedScheduler.strobe(ETALON);
        CircuitParameters fourRacks = new CircuitParameters(4, 10_000, 1_250, 2_000, 20, 200);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> strobe.schedule(new double[4][4], fourRacks, 0))
                .getMessage().contains("8 ports; the network has 4 racks"));
        CircuitParameters longerMinimum = new CircuitParameters(8, 10_000, 1_250, 2_000, 20, 250);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> strobe.schedule(demand, longerMinimum, 0))
                .getMessage().contains("day 0 lasts 200 us with its night, shorter than the minimum day of 250 us"));
        CircuitParameters shortWeek = new CircuitParameters(8, 10_000, 1_250, 1_000, 20, 200);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> strobe.schedule(demand, shortWeek, 0))
                .getMessage().contains("1400 us, longer than the network's week of 1000 us"));
        CircuitParameters otherNight = new CircuitParameters(8, 10_000, 1_250, 2_000, 30, 200);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> strobe.schedule(demand, otherNight, 0))
                .getMessage().contains("not the network's night"));
        double[][] negative = new double[8][8];
        negative[1][2] = -1;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> strobe.schedule(negative, ETALON, 0))
                .getMessage().contains("demand[1][2]"));
    }
}
