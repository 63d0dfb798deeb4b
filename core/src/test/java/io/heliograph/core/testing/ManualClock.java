package io.heliograph.core.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that moves only when the test moves it, so timeouts are tested without sleeping. */
public class ManualClock extends Clock {

    private volatile Instant now;

    public ManualClock(Instant start) {
        this.now = start;
    }

    public synchronized void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** Only UTC: a test reading time in another zone is not what this clock is for. */
    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a ManualClock is UTC only");
    }
}
