package io.heliograph.circuit.engine;

/**
 * Demand from the ToRs' virtual output queues (spec §2.4, §2.7 "Without ADUs"), from either of two
 * observations, the latest one deciding:
 * <ul>
 * <li>{@link #observeQueues}: each VOQ(i, j)'s current occupancy in bytes is the demand, as Etalon's
 * estimator reads {@code q.bytes};</li>
 * <li>{@link #observeCounters}: cumulative byte counters per rack pair (flow statistics of the ToRs),
 * taken at a time in microseconds: the demand is the bytes of the last interval, scaled to one week. A
 * counter that went back (a switch restarted) counts its new value as the interval's bytes. The first
 * counters give no estimate yet (zero), only a baseline.</li>
 * </ul>
 * Bad observations (not N x N, negative, from a rack to itself, time not moving forward) are refused
 * naming the entry, and the estimate and baseline stay as they were.
 */
public final class VoqEstimator implements DemandEstimator {

    private final int racks;
    private final long weekMicros;
    private double[][] estimate;
    private long[][] lastCounters;
    private long lastMicros;

    public VoqEstimator(CircuitParameters network) {
        this.racks = network.racks();
        this.weekMicros = network.weekMicros();
        this.estimate = new double[racks][racks];
    }

    @Override
    public String name() {
        return "voq";
    }

    @Override
    public int racks() {
        return racks;
    }

    /** The VOQs' occupancy in bytes, VOQ(i, j) holding rack i's traffic to rack j. */
    public synchronized void observeQueues(long[][] queueBytes) {
        check(queueBytes, "queueBytes");
        double[][] next = new double[racks][racks];
        for (int i = 0; i < racks; i++) {
            for (int j = 0; j < racks; j++) {
                next[i][j] = queueBytes[i][j];
            }
        }
        estimate = next;
    }

    /** Cumulative bytes per rack pair at {@code atMicros} (any monotonic clock, microseconds). */
    public synchronized void observeCounters(long[][] cumulativeBytes, long atMicros) {
        check(cumulativeBytes, "cumulativeBytes");
        if (lastCounters != null && atMicros <= lastMicros) {
            throw new IllegalArgumentException("atMicros " + atMicros + " is not after the last counters' " + lastMicros);
        }
        long[][] counters = new long[racks][];
        for (int i = 0; i < racks; i++) {
            counters[i] = cumulativeBytes[i].clone();
        }
        if (lastCounters != null) {
            double scale = (double) weekMicros / (atMicros - lastMicros);
            double[][] next = new double[racks][racks];
            for (int i = 0; i < racks; i++) {
                for (int j = 0; j < racks; j++) {
                    long delta = counters[i][j] >= lastCounters[i][j] ? counters[i][j] - lastCounters[i][j] : counters[i][j];
                    next[i][j] = delta * scale;
                }
            }
            estimate = next;
        }
        lastCounters = counters;
        lastMicros = atMicros;
    }

    @Override
    public synchronized double[][] estimate() {
        double[][] copy = new double[racks][];
        for (int i = 0; i < racks; i++) {
            copy[i] = estimate[i].clone();
        }
        return copy;
    }

    private void check(long[][] bytes, String name) {
        if (bytes == null || bytes.length != racks) {
            throw new IllegalArgumentException(name + " must have " + racks + " rows, one per source rack");
        }
        for (int i = 0; i < racks; i++) {
            if (bytes[i] == null || bytes[i].length != racks) {
                throw new IllegalArgumentException(name + " row " + i + " must have " + racks + " entries");
            }
            for (int j = 0; j < racks; j++) {
                if (bytes[i][j] < 0) {
                    throw new IllegalArgumentException(name + "[" + i + "][" + j + "] must be bytes from 0, not " + bytes[i][j]);
                }
                if (i == j && bytes[i][j] != 0) {
                    throw new IllegalArgumentException(name + "[" + i + "][" + i + "]: a rack has no VOQ to itself, not "
                            + bytes[i][j]);
                }
            }
        }
    }
}
