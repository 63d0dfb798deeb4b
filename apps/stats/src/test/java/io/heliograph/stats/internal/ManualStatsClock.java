package io.heliograph.stats.internal;

import java.time.Duration;
import java.time.Instant;

import io.heliograph.core.testing.ManualClock;

/** The shared manual clock as sampling reads time: its monotonic nanoTime moves with it. */
final class ManualStatsClock extends ManualClock implements StatsClock {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    /** Not zero, as System.nanoTime need not be: nothing may read zero as "never". */
    private static final long START_NANOS = 1_000_000_000L;

    ManualStatsClock() {
        super(START);
    }

    @Override
    public long nanoTime() {
        return START_NANOS + Duration.between(START, instant()).toNanos();
    }

    @Override
    public Instant now() {
        return instant();
    }
}
