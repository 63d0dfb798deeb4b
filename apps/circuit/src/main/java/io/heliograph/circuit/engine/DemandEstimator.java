package io.heliograph.circuit.engine;

/**
 * Estimates next week's rack-to-rack demand (spec §2.4's estimator element, pluggable as in Etalon): an
 * N x N matrix of bytes, source rack i by destination rack j, the diagonal 0, finite and non-negative,
 * what {@link Scheduler#schedule} takes. Implementations: {@link VoqEstimator} (ToR VOQ occupancy or
 * byte counters) and {@link AduEstimator} (application demand units reported by the hosts). An
 * observation that is refused leaves the estimator as it was.
 */
public interface DemandEstimator {

    String name();

    int racks();

    /** The current estimate, a fresh matrix the caller may keep. */
    double[][] estimate();
}
