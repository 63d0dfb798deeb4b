package io.heliograph.circuit.engine;

import java.util.List;

/**
 * A week: its days in order, each followed by a night ({@link Day} lengths include it, and sum to the
 * week), the circuit rate of each rack pair while its circuit is up (bytes per microsecond; Solstice's
 * throttle), what the circuits carry of the week's demand, and the leftover that goes over the packet
 * switch. Circuit plus leftover is the demand, entry by entry.
 */
public record Schedule(List<Day> days, long nightMicros, double[][] circuitRate, double[][] circuitBytes,
                       double[][] leftoverBytes) {

    public Schedule {
        days = List.copyOf(days);
        circuitRate = copy(circuitRate);
        circuitBytes = copy(circuitBytes);
        leftoverBytes = copy(leftoverBytes);
    }

    /**
     * The schedule of {@code days} for {@code demand}: each pair's circuit time is the up time (day less
     * night) of the days that connect it and are not dummy there; at {@code rate} it carries up to that
     * much of the pair's demand, and the rest is leftover.
     */
    static Schedule of(List<Day> days, double[][] demand, CircuitParameters network, double[][] rate) {
        int n = network.racks();
        double[][] circuit = new double[n][n];
        double[][] leftover = new double[n][n];
        double[][] time = circuitMicros(days, n, network.nightMicros());
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                circuit[i][j] = Math.min(demand[i][j], time[i][j] * rate[i][j]);
                leftover[i][j] = demand[i][j] - circuit[i][j];
            }
        }
        return new Schedule(days, network.nightMicros(), rate, circuit, leftover);
    }

    /** Per rack pair, the microseconds its circuit is up in {@code days} and carries scheduled demand. */
    static double[][] circuitMicros(List<Day> days, int n, long night) {
        double[][] time = new double[n][n];
        for (Day day : days) {
            for (int j = 0; j < n; j++) {
                if (!day.dummy(j)) {
                    time[day.source(j)][j] += day.micros() - night;
                }
            }
        }
        return time;
    }

    /** The week's length: the sum of its days, nights included. */
    public long weekMicros() {
        return days.stream().mapToLong(Day::micros).sum();
    }

    @Override
    public double[][] circuitRate() {
        return copy(circuitRate);
    }

    @Override
    public double[][] circuitBytes() {
        return copy(circuitBytes);
    }

    @Override
    public double[][] leftoverBytes() {
        return copy(leftoverBytes);
    }

    private static double[][] copy(double[][] matrix) {
        double[][] copy = new double[matrix.length][];
        for (int i = 0; i < matrix.length; i++) {
            copy[i] = matrix[i].clone();
        }
        return copy;
    }
}
