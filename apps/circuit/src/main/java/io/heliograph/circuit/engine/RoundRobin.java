package io.heliograph.circuit.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * The fixed all-to-all rotation (Solstice's {@code sols_roundrobin}, spec §2.3): N - 1 days of equal
 * length, output j taking from rack (j + 1 + k) mod N on day k, so every pair of distinct racks has one
 * day a week whatever the demand. The week's remainder after equal division goes to the first days, one
 * microsecond each.
 */
public final class RoundRobin implements Scheduler {

    @Override
    public String name() {
        return "roundRobin";
    }

    @Override
    public Schedule schedule(double[][] demand, CircuitParameters network, long seed) {
        Scheduler.check(demand, network);
        int n = network.racks();
        long each = network.weekMicros() / (n - 1);
        long extra = network.weekMicros() % (n - 1);
        if (each < network.minDayMicros()) {
            throw new IllegalArgumentException("a week of " + network.weekMicros() + " us cannot hold " + (n - 1)
                    + " days of at least " + network.minDayMicros() + " us");
        }
        List<Day> days = new ArrayList<>();
        for (int k = 0; k < n - 1; k++) {
            int[] sourceOf = new int[n];
            boolean[] dummy = new boolean[n];
            for (int j = 0; j < n; j++) {
                sourceOf[j] = (j + 1 + k) % n;
            }
            days.add(new Day(each + (k < extra ? 1 : 0), sourceOf, dummy));
        }
        double[][] rate = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                rate[i][j] = i == j ? 0 : network.circuitBytesPerMicro();
            }
        }
        return Schedule.of(days, demand, network, rate);
    }
}
