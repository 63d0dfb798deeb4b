package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SolsticeOptionsTest {

    private static final CircuitParameters ETALON = CircuitParameters.etalon();
    private static final double WEEK_OF_CIRCUIT = ETALON.circuitBytesPerMicro() * ETALON.weekMicros();

    private static double[][] random(SplittableRandom random, double scale) {
        double[][] demand = new double[8][8];
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 8; j++) {
                demand[i][j] = i != j && random.nextDouble() < 0.3 ? random.nextDouble() * scale : 0;
            }
        }
        return demand;
    }

    @Test
    void theEntryCapAloneChangesNoSchedule() {
        SplittableRandom random = new SplittableRandom(1);
        for (int trial = 0; trial < 100; trial++) {
            double[][] demand = random(random, 4 * WEEK_OF_CIRCUIT);
            Schedule capped = new Solstice(true, false).schedule(demand, ETALON, trial);
            Schedule uncapped = new Solstice(false, false).schedule(demand, ETALON, trial);
            assertEquals(uncapped.days(), capped.days(), "water-filling gives no entry more than a week of circuit");
        }
    }

    @Test
    void theCapEntriesAreAtMostAWeekOverBothSwitches() {
        double[][] demand = new double[8][8];
        demand[0][1] = 1e15;
        double[][] prepared = new Solstice().prepare(demand, ETALON);
        assertEquals(ETALON.weekMicros() * (ETALON.circuitBytesPerMicro() + ETALON.packetBytesPerMicro()), prepared[0][1]);
        assertEquals(1e15, new Solstice(false, false).prepare(demand, ETALON)[0][1]);
    }

    @Test
    void halfWeekScalingMakesTheLargestRowOrColumnHalfAWeek() {
        SplittableRandom random = new SplittableRandom(2);
        for (int trial = 0; trial < 100; trial++) {
            double[][] demand = random(random, trial % 2 == 0 ? 1e5 : 10 * WEEK_OF_CIRCUIT);
            double[][] scaled = new Solstice(false, true).prepare(demand, ETALON);
            double largest = 0;
            for (int k = 0; k < 8; k++) {
                double row = 0;
                double column = 0;
                for (int m = 0; m < 8; m++) {
                    row += scaled[k][m];
                    column += scaled[m][k];
                }
                largest = Math.max(largest, Math.max(row, column));
            }
            assertEquals(largest == 0 ? 0 : WEEK_OF_CIRCUIT / 2, largest, 1e-6 * WEEK_OF_CIRCUIT);
        }
    }

    @Test
    void halfWeekScalingGivesSmallFlowsCircuitsAndTheCapKeepsOneHugeEntryFromShrinkingTheRest() {
        double[][] small = new double[8][8];
        for (int r = 0; r < 8; r++) {
            small[r][(r + 1) % 8] = 500_000;
        }
        Schedule plain = new Solstice().schedule(small, ETALON, 1);
        assertTrue(plain.days().stream().allMatch(day -> java.util.stream.IntStream.range(0, 8).allMatch(day::dummy)),
                "below one minimum day, every entry goes to the packet switch");
        Schedule scaled = new Solstice(true, true).schedule(small, ETALON, 1);
        assertEquals(1, scaled.days().size());
        assertTrue(!scaled.days().get(0).dummy(1), "scaled up, the ring has its circuit");
        assertEquals(500_000, scaled.circuitBytes()[0][1], 1e-6, "and carries the demand as given");

        double[][] huge = small.clone();
        for (int i = 0; i < 8; i++) {
            huge[i] = small[i].clone();
        }
        huge[0][1] = 1e15;
        huge[2][3] = 1e8;
        Schedule withCap = new Solstice(true, true).schedule(huge, ETALON, 1);
        Schedule withoutCap = new Solstice(false, true).schedule(huge, ETALON, 1);
        assertTrue(withCap.circuitBytes()[2][3] > 0, "capped, a 100 MB entry keeps its circuit");
        assertEquals(0, withoutCap.circuitBytes()[2][3], "uncapped, 1 PB shrinks it below one minimum day");
    }

    @Test
    void everyOptionKeepsTheSchedulesRules() {
        SplittableRandom random = new SplittableRandom(3);
        for (int trial = 0; trial < 100; trial++) {
            double[][] demand = random(random, trial % 2 == 0 ? 1e6 : 3 * WEEK_OF_CIRCUIT);
            Solstice solstice = new Solstice(random.nextBoolean(), random.nextBoolean());
            Schedule schedule = solstice.schedule(demand, ETALON, trial);
            assertEquals(ETALON.weekMicros(), schedule.weekMicros());
            for (Day day : schedule.days()) {
                assertTrue(day.micros() >= ETALON.shortestDay());
            }
            for (int i = 0; i < 8; i++) {
                for (int j = 0; j < 8; j++) {
                    assertEquals(demand[i][j], schedule.circuitBytes()[i][j] + schedule.leftoverBytes()[i][j],
                            1e-9 * Math.max(1, demand[i][j]));
                }
            }
        }
    }
}
