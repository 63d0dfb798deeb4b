package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Solstice's event-driven water-filling against the plain one: every open entry one step a round. */
class WaterFillingTest {

    /** The spec's NORM_DOWN as written (§2.3), O(N^2) a round. */
    private static double[][] rounds(double[][] demand, double budget) {
        int n = demand.length;
        double[][] left = new double[n][];
        for (int i = 0; i < n; i++) {
            left[i] = demand[i].clone();
        }
        double[][] fitted = new double[n][n];
        double[] row = new double[n];
        double[] column = new double[n];
        Arrays.fill(row, budget);
        Arrays.fill(column, budget);
        double tiny = budget * 1e-12;
        while (true) {
            int[] inRow = new int[n];
            int[] inColumn = new int[n];
            double step = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (left[i][j] > tiny && row[i] > tiny && column[j] > tiny) {
                        inRow[i]++;
                        inColumn[j]++;
                        step = Math.min(step, left[i][j]);
                    }
                }
            }
            if (Double.isInfinite(step)) {
                return fitted;
            }
            for (int k = 0; k < n; k++) {
                step = inRow[k] > 0 ? Math.min(step, row[k] / inRow[k]) : step;
                step = inColumn[k] > 0 ? Math.min(step, column[k] / inColumn[k]) : step;
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (left[i][j] > tiny && row[i] > tiny && column[j] > tiny) {
                        left[i][j] -= step;
                        fitted[i][j] += step;
                        row[i] -= step;
                        column[j] -= step;
                    }
                }
            }
            for (int k = 0; k < n; k++) {
                row[k] = row[k] <= tiny ? 0 : row[k];
                column[k] = column[k] <= tiny ? 0 : column[k];
                for (int j = 0; j < n; j++) {
                    left[k][j] = left[k][j] <= tiny ? 0 : left[k][j];
                }
            }
        }
    }

    @Test
    void eventsGiveWhatRoundsGiveOnRandomMatrices() {
        SplittableRandom random = new SplittableRandom(17);
        double budget = 20e6;
        for (int trial = 0; trial < 500; trial++) {
            int n = 2 + random.nextInt(24);
            double density = random.nextDouble();
            double[][] demand = new double[n][n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (i != j && random.nextDouble() < density) {
                        // Some equal sizes, as stuffed or synthetic demand has, and some far above the budget.
                        demand[i][j] = random.nextInt(4) == 0 ? 1e6 : random.nextDouble() * 2 * budget;
                    }
                }
            }
            double[][] expected = rounds(demand, budget);
            double[][] actual = Solstice.fitWeek(demand, budget);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    assertEquals(expected[i][j], actual[i][j], budget * 1e-9, "trial " + trial + " (" + i + "," + j + ")");
                }
            }
        }
    }
}
