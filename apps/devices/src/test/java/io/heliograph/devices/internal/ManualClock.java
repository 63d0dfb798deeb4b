package io.heliograph.devices.internal;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand, so timeouts are tested without sleeping. */
final class ManualClock extends Clock {

    private Instant now;

    ManualClock(Instant start) {
        this.now = start;
    }

    void advanceMillis(long ms) {
        now = now.plusMillis(ms);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }
}
