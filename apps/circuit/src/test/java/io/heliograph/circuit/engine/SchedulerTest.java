package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SchedulerTest {

    private static final CircuitParameters ETALON = CircuitParameters.etalon();
    private static final double CIRCUIT = ETALON.circuitBytesPerMicro();

    /** A random demand of {@code n} racks: sparse and skewed (a few big entries) or dense, as drawn. */
    private static double[][] randomDemand(int n, SplittableRandom random) {
        double[][] demand = new double[n][n];
        double week = CIRCUIT * ETALON.weekMicros();
        boolean skewed = random.nextBoolean();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i != j && random.nextDouble() < (skewed ? 2.0 / n : 0.8)) {
                    demand[i][j] = random.nextDouble() * (skewed ? 1.5 : 0.3) * week;
                }
            }
        }
        return demand;
    }

    /** What every schedule of every scheduler must be, whatever the demand. */
    private static void assertValid(Schedule schedule, double[][] demand, CircuitParameters network, long shortest) {
        int n = network.racks();
        assertEquals(network.weekMicros(), schedule.weekMicros(), "days and nights sum to the week");
        for (Day day : schedule.days()) {
            boolean[] seen = new boolean[n];
            for (int j = 0; j < n; j++) {
                assertTrue(!seen[day.source(j)], "a perfect matching: " + day);
                seen[day.source(j)] = true;
            }
            assertTrue(day.micros() >= shortest, "no day shorter than " + shortest + ": " + day);
        }
        double[][] time = Schedule.circuitMicros(schedule.days(), n, network.nightMicros());
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double circuit = schedule.circuitBytes()[i][j];
                double leftover = schedule.leftoverBytes()[i][j];
                assertTrue(circuit >= 0 && leftover >= 0, "(" + i + "," + j + ")");
                assertEquals(demand[i][j], circuit + leftover, 1e-9 * Math.max(1, demand[i][j]),
                        "circuit plus leftover is the demand at (" + i + "," + j + ")");
                assertTrue(circuit <= time[i][j] * schedule.circuitRate()[i][j] * (1 + 1e-12) + 1e-9,
                        "a circuit carries no more than its up time at its rate");
                double rate = schedule.circuitRate()[i][j];
                if (time[i][j] > 0) {
                    assertTrue(rate >= network.circuitBytesPerMicro() - network.packetBytesPerMicro() - 1e-9
                            && rate <= network.circuitBytesPerMicro() + 1e-9, "throttled within the circuit's rate: " + rate);
                }
            }
        }
    }

    @Test
    void solsticeSchedulesAreValidOnRandomDemand() {
        SplittableRandom random = new SplittableRandom(42);
        for (int round = 0; round < 300; round++) {
            int n = 2 + random.nextInt(15);
            CircuitParameters network = new CircuitParameters(n, CIRCUIT, ETALON.packetBytesPerMicro(),
                    ETALON.weekMicros(), ETALON.nightMicros(), ETALON.minDayMicros());
            double[][] demand = randomDemand(n, random);
            Schedule schedule = new Solstice().schedule(demand, network, round);
            assertValid(schedule, demand, network, network.shortestDay());
            assertTrue(schedule.days().size() <= network.weekMicros() / network.shortestDay(), "at most a week of shortest days");
            assertEquals(schedule.days(), new Solstice().schedule(demand, network, round).days(), "the same seed, the same week");
        }
    }

    @Test
    void aPermutationOfBigFlowsIsOneDay() {
        int n = ETALON.racks();
        double[][] demand = new double[n][n];
        int[] to = {3, 0, 5, 1, 7, 2, 4, 6};
        for (int i = 0; i < n; i++) {
            demand[i][to[i]] = CIRCUIT * ETALON.weekMicros();
        }
        Schedule schedule = new Solstice().schedule(demand, ETALON, 1);
        assertEquals(1, schedule.days().size(), schedule.days().toString());
        Day day = schedule.days().get(0);
        for (int i = 0; i < n; i++) {
            assertEquals(i, day.source(to[i]));
            assertTrue(!day.dummy(to[i]));
        }
        // the circuit is up all week but the night: the night's worth goes over the packet switch
        assertEquals(CIRCUIT * (ETALON.weekMicros() - ETALON.nightMicros()), schedule.circuitBytes()[0][3], 1e-6);
        assertEquals(CIRCUIT * ETALON.nightMicros(), schedule.leftoverBytes()[0][3], 1e-6);
    }

    @Test
    void skewedSparseDemandTakesFewerDaysThanUniformDemand() {
        int n = ETALON.racks();
        double week = CIRCUIT * ETALON.weekMicros();
        double[][] skewed = new double[n][n];
        double[][] uniform = new double[n][n];
        for (int i = 0; i < n; i++) {
            skewed[i][(i + 1) % n] = 0.7 * week;
            skewed[i][(i + 2) % n] = 0.3 * week;
            for (int j = 0; j < n; j++) {
                uniform[i][j] = i == j ? 0 : week / (n - 1);
            }
        }
        int few = new Solstice().schedule(skewed, ETALON, 1).days().size();
        int many = new Solstice().schedule(uniform, ETALON, 1).days().size();
        assertEquals(2, few, "two permutations, two days");
        assertTrue(many >= n - 1, "all-to-all needs a day per peer at least: " + many);
    }

    @Test
    void waterFillingSharesARowsWeekFairly() {
        // a week of 2 a row: row 0 asks 3 and 1; both grow together by 1, which serves the 1 and fills the row
        double[][] fitted = Solstice.fitWeek(new double[][] {{0, 3, 1}, {0, 0, 0}, {0, 0, 0}}, 2);
        assertArrayEquals(new double[] {0, 1, 1}, fitted[0], 1e-12);
        // two rows into one column share the column's week
        fitted = Solstice.fitWeek(new double[][] {{0, 0, 5}, {0, 0, 5}, {0, 0, 0}}, 2);
        assertEquals(1, fitted[0][2], 1e-12);
        assertEquals(1, fitted[1][2], 1e-12);
    }

    @Test
    void stuffingMakesEveryRowAndColumnTheLargest() {
        long[][] stuffed = Solstice.stuff(new long[][] {{0, 5, 0}, {2, 0, 0}, {0, 1, 0}}, new SplittableRandom(3));
        for (int k = 0; k < 3; k++) {
            long row = 0;
            long column = 0;
            for (int m = 0; m < 3; m++) {
                row += stuffed[k][m];
                column += stuffed[m][k];
            }
            assertEquals(6, row, "row " + k);
            assertEquals(6, column, "column " + k);
        }
        assertTrue(stuffed[0][1] >= 5 && stuffed[1][0] >= 2 && stuffed[2][1] >= 1, "nothing shrinks");
    }

    @Test
    void noDemandIsOneIdleDay() {
        Schedule schedule = new Solstice().schedule(new double[8][8], ETALON, 1);
        assertEquals(1, schedule.days().size());
        for (int j = 0; j < 8; j++) {
            assertTrue(schedule.days().get(0).dummy(j));
        }
    }

    @Test
    void roundRobinGivesEveryPairOneEqualDay() {
        SplittableRandom random = new SplittableRandom(7);
        double[][] demand = randomDemand(8, random);
        Schedule schedule = new RoundRobin().schedule(demand, ETALON, 0);
        assertEquals(7, schedule.days().size());
        for (int k = 0; k < 7; k++) {
            Day day = schedule.days().get(k);
            assertTrue(day.micros() == 285 || day.micros() == 286, day.toString());
            for (int j = 0; j < 8; j++) {
                assertEquals((j + 1 + k) % 8, day.source(j));
            }
        }
        assertValid(schedule, demand, ETALON, ETALON.minDayMicros());
    }

    @Test
    void badDemandIsRefusedNamingTheEntry() {
        double[][] negative = new double[8][8];
        negative[2][5] = -1;
        assertEquals("demand[2][5] must be a finite number of bytes from 0, not -1.0",
                assertThrows(IllegalArgumentException.class, () -> new Solstice().schedule(negative, ETALON, 1)).getMessage());
        double[][] nan = new double[8][8];
        nan[1][0] = Double.NaN;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RoundRobin().schedule(nan, ETALON, 1))
                .getMessage().startsWith("demand[1][0] must be"));
        double[][] self = new double[8][8];
        self[3][3] = 10;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Solstice().schedule(self, ETALON, 1))
                .getMessage().startsWith("demand[3][3]: a rack's traffic to itself"));
        assertEquals("demand has 7 rows for 8 racks",
                assertThrows(IllegalArgumentException.class, () -> new Solstice().schedule(new double[7][8], ETALON, 1)).getMessage());
    }

    @Test
    void badNetworksAndDaysAreRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CircuitParameters(8, 10_000, 1_250, 10, 20, 200))
                .getMessage().startsWith("weekMicros (10) must hold one day"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CircuitParameters(8, 10_000, 1_250, 2_000, 20, 20))
                .getMessage().startsWith("minDayMicros (20) includes its night"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CircuitParameters(1, 10_000, 1_250, 2_000, 20, 200))
                .getMessage().startsWith("racks:"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Day(100, new int[] {0, 0}, new boolean[2]))
                .getMessage().startsWith("not a perfect matching"));
        // a week that cannot hold N - 1 minimum days cannot run the rotation
        CircuitParameters short8 = new CircuitParameters(8, 10_000, 1_250, 1_000, 20, 200);
        assertThrows(IllegalArgumentException.class, () -> new RoundRobin().schedule(new double[8][8], short8, 0));
        assertTrue(List.of(new Solstice().schedule(new double[8][8], short8, 0)).size() == 1);
    }
}
