package io.heliograph.sims.circuit;

/** Latencies in 100 ns bins up to 50 ms (one overflow bin beyond), so recording allocates nothing. */
final class LatencyHistogram {

    static final long BIN_NS = 100;
    private static final int BINS = 500_000;
    private final long[] counts = new long[BINS + 1];
    private long total;

    void add(long nanos) {
        int bin = (int) Math.min(BINS, Math.max(0, nanos / BIN_NS));
        counts[bin]++;
        total++;
    }

    long count() {
        return total;
    }

    /** The q-quantile (0..1) in microseconds, at the middle of its bin; NaN when empty. */
    double quantileMicros(double q) {
        if (total == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.ceil(q * total);
        rank = Math.max(1, rank);
        long seen = 0;
        for (int i = 0; i <= BINS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return (i + 0.5) * BIN_NS / 1_000.0;
            }
        }
        return Double.NaN;
    }
}
