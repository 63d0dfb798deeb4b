package io.heliograph.stats.internal;

import java.time.Instant;

/** Time for sampling: a monotonic clock to time intervals, a wall clock to stamp rates. Tests inject their own. */
interface StatsClock {

    long nanoTime();

    Instant now();

    StatsClock SYSTEM = new StatsClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public Instant now() {
            return Instant.now();
        }
    };
}
