package io.heliograph.circuit.engine;

/**
 * Turns a week's rack-to-rack demand (bytes, source rack i by destination rack j, the diagonal 0) into
 * a week of days; what the days do not carry goes over the packet switch. The same demand and seed give
 * the same schedule. Bad demand (not N x N, negative, not finite, a rack to itself) is refused with
 * {@link IllegalArgumentException} naming the entry.
 */
public interface Scheduler {

    String name();

    Schedule schedule(double[][] demand, CircuitParameters network, long seed);

    /** Checks a demand matrix against the network; the first problem, by entry. */
    static void check(double[][] demand, CircuitParameters network) {
        int n = network.racks();
        if (demand.length != n) {
            throw new IllegalArgumentException("demand has " + demand.length + " rows for " + n + " racks");
        }
        for (int i = 0; i < n; i++) {
            if (demand[i] == null || demand[i].length != n) {
                throw new IllegalArgumentException("demand row " + i + " must have " + n + " entries");
            }
            for (int j = 0; j < n; j++) {
                double value = demand[i][j];
                if (!(value >= 0) || Double.isInfinite(value)) {
                    throw new IllegalArgumentException("demand[" + i + "][" + j + "] must be a finite number of bytes"
                            + " from 0, not " + value);
                }
                if (i == j && value != 0) {
                    throw new IllegalArgumentException("demand[" + i + "][" + i + "]: a rack's traffic to itself never"
                            + " leaves its ToR, not " + value);
                }
            }
        }
    }
}
