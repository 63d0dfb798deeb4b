package io.heliograph.stats.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class RatesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static CounterSample untimed(long receivedNanos, long... counters) {
        return CounterSample.untimed(receivedNanos, T0.plusNanos(receivedNanos), counters);
    }

    private static CounterSample timed(long receivedNanos, long durationSec, long durationNsec, long... counters) {
        return CounterSample.of(receivedNanos, T0.plusNanos(receivedNanos), durationSec, durationNsec, counters);
    }

    @Test
    void ratesFromReceiveTimesWhenTheSwitchGivesNoDuration() {
        double[] rates = Rates.between(untimed(0, 1_000, 10), untimed(2 * SECOND, 5_000, 30));
        assertArrayEquals(new double[] {2_000, 10}, rates, 1e-9);
    }

    @Test
    void switchDurationsTimeTheIntervalWhenPrecise() {
        // Replies arrived 3 s apart (a slow control channel), but the switch read the counters 2 s apart.
        double[] rates = Rates.between(timed(0, 10, 500, 0), timed(3 * SECOND, 12, 500, 4_000));
        assertArrayEquals(new double[] {2_000}, rates, 1e-9);
    }

    @Test
    void wholeSecondDurationsAreTooCoarseSoReceiveTimesAreUsed() {
        // The switch says 10 s then 12 s (nsec 0): the true interval may be anything from 1 to 3 s.
        double[] rates = Rates.between(timed(0, 10, 0, 0), timed(4 * SECOND, 12, 0, 4_000));
        assertArrayEquals(new double[] {1_000}, rates, 1e-9);
    }

    @Test
    void aDurationThatWentDownMeansTheEntryRestartedAndRatesCountFromTheRestart() {
        // A flow deleted and re-added between polls: 2.5 s old now, with 5000 bytes counted since.
        double[] rates = Rates.between(timed(0, 100, 1, 900_000), timed(5 * SECOND, 2, SECOND / 2, 5_000));
        assertArrayEquals(new double[] {2_000}, rates, 1e-9);
    }

    @Test
    void a32BitCounterWrapCountsTheBytesAcrossTheWrap() {
        long nearTop = (1L << 32) - 1_000;
        double[] rates = Rates.between(untimed(0, nearTop), untimed(SECOND, 3_000));
        assertArrayEquals(new double[] {4_000}, rates, 1e-9);
    }

    @Test
    void a64BitCounterWrapCountsTheBytesAcrossTheWrap() {
        long nearTop = -1_001L; // 2^64 - 1001 unsigned
        double[] rates = Rates.between(untimed(0, nearTop), untimed(SECOND, 999));
        assertArrayEquals(new double[] {2_000}, rates, 1e-9);
    }

    @Test
    void aResetFromLowValuesIsNeverANegativeRate() {
        // 32-bit range but low: not a wrap, a reset (e.g. switch restarted); 500 counted since.
        double[] rates = Rates.between(untimed(0, 1_000_000), untimed(SECOND, 500));
        assertArrayEquals(new double[] {500}, rates, 1e-9);
        // Above 2^32 a 64-bit counter cannot be near wrapping: also a reset.
        double[] big = Rates.between(untimed(0, 10L << 32), untimed(SECOND, 700));
        assertArrayEquals(new double[] {700}, big, 1e-9);
    }

    @Test
    void unavailableCountersGiveZeroNotAHugeRate() {
        double[] rates = Rates.between(untimed(0, CounterSample.UNAVAILABLE, 5), untimed(SECOND,
                CounterSample.UNAVAILABLE, 10));
        assertArrayEquals(new double[] {0, 5}, rates, 1e-9);
    }

    @Test
    void noRateWithoutElapsedTime() {
        assertNull(Rates.between(untimed(SECOND, 1), untimed(SECOND, 2)));
        assertNull(Rates.between(untimed(2 * SECOND, 1), untimed(SECOND, 2)));
        assertNull(Rates.between(timed(0, 5, 1, 10), timed(SECOND, 0, 0, 20)), "re-created 0 ns ago");
    }

    @Test
    void increaseOfAMonotoneCounterIsTheDifference() {
        assertEquals(0, Rates.increase(42, 42));
        assertEquals(0x1p63, Rates.increase(0, Long.MIN_VALUE), "unsigned difference");
    }
}
