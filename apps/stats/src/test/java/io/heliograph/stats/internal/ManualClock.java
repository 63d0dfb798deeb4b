package io.heliograph.stats.internal;

import java.time.Duration;
import java.time.Instant;

/** A clock that moves only when the test says. */
final class ManualClock implements StatsClock {

    private long nanos = 1_000_000_000L;
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration by) {
        nanos += by.toNanos();
        now = now.plus(by);
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public Instant now() {
        return now;
    }
}
