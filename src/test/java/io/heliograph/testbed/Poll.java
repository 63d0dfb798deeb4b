package io.heliograph.testbed;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waiting for a condition with a deadline. The short sleep between probes is the polling interval,
 * never the wait itself: a condition that holds early returns early.
 */
public final class Poll {

    private static final Duration INTERVAL = Duration.ofMillis(100);

    private Poll() {
    }

    /**
     * Probes until {@code done} accepts the probed value and returns that value; after {@code timeout}
     * throws an {@link AssertionError} naming what was awaited and the last value seen.
     */
    public static <T> T until(String what, Duration timeout, Supplier<T> probe, Predicate<? super T> done) {
        return until(what, timeout, INTERVAL, probe, done);
    }

    /** As {@link #until(String, Duration, Supplier, Predicate)}, probing every {@code interval}: for timing an event. */
    public static <T> T until(String what, Duration timeout, Duration interval, Supplier<T> probe,
                              Predicate<? super T> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = null;
        RuntimeException lastFailure = null;
        while (true) {
            try {
                last = probe.get();
                lastFailure = null;
                if (done.test(last)) {
                    return last;
                }
            } catch (RuntimeException e) {
                lastFailure = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                AssertionError error = new AssertionError("timed out after " + timeout + " waiting for " + what
                        + (lastFailure == null ? "; last seen: " + last : "; last probe failed: " + lastFailure));
                if (lastFailure != null) {
                    error.initCause(lastFailure);
                }
                throw error;
            }
            pause(interval);
        }
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(what, timeout, condition::getAsBoolean, Boolean::booleanValue);
    }

    private static void pause(Duration interval) {
        try {
            Thread.sleep(interval.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while polling", e);
        }
    }
}
