package io.heliograph.stats.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class RateTrackerTest {

    private static final long SECOND = 1_000_000_000L;

    /** Keys "switch/port", owned by their switch. */
    private final RateTracker<String, String, Double> tracker =
            new RateTracker<>(3, key -> key.substring(0, key.indexOf('/')), (key, at, r) -> r[0]);

    private Double record(String key, int second, long counter) {
        return tracker.record(key, CounterSample.untimed(second * SECOND, Instant.EPOCH.plusSeconds(second), counter));
    }

    @Test
    void theFirstSampleHasNoRate() {
        assertNull(record("s1/a", 0, 100));
        assertNull(tracker.latest("s1/a"));
        assertEquals(List.of(), tracker.history("s1/a"));
    }

    @Test
    void historyIsBoundedAndOldestFirst() {
        long counter = 0;
        record("s1/a", 0, counter);
        for (int second = 1; second <= 5; second++) {
            counter += second * 10L;
            record("s1/a", second, counter);
        }
        assertEquals(List.of(30.0, 40.0, 50.0), tracker.history("s1/a"));
        assertEquals(50.0, tracker.latest("s1/a"));
    }

    @Test
    void shrinkingTheHistoryDropsTheOldestAtOnce() {
        record("s1/a", 0, 0);
        record("s1/a", 1, 10);
        record("s1/a", 2, 30);
        record("s1/a", 3, 60);
        tracker.setHistorySize(1);
        assertEquals(List.of(30.0), tracker.history("s1/a"));
        assertThrows(IllegalArgumentException.class, () -> tracker.setHistorySize(0));
    }

    @Test
    void retainForgetsWhatWentAwayInScopeOnly() {
        record("s1/a", 0, 0);
        record("s1/b", 0, 0);
        record("s2/a", 0, 0);
        tracker.retain("s1", Set.of("s1/a"));
        assertEquals(2, tracker.size());
        assertNull(record("s1/b", 1, 5), "a forgotten key starts again without a rate");
        assertTrue(record("s1/a", 1, 5) != null);
        assertTrue(record("s2/a", 1, 5) != null, "another switch's keys are not in scope");
    }

    @Test
    void forgettingASwitchForgetsItsKeysOnlyAndTheLatestRatesAreBySwitch() {
        record("s1/a", 0, 0);
        record("s1/b", 0, 0);
        record("s2/a", 0, 0);
        record("s1/a", 1, 10);
        record("s1/b", 1, 20);
        record("s2/a", 1, 30);
        assertEquals(Set.of(10.0, 20.0), Set.copyOf(tracker.latestOf("s1")));
        assertEquals(Set.of(10.0, 20.0, 30.0), Set.copyOf(tracker.latestOfAll()));
        tracker.forget("s1");
        assertEquals(1, tracker.size());
        assertEquals(List.of(), tracker.latestOf("s1"));
        assertEquals(30.0, tracker.latest("s2/a"));
        assertNull(tracker.latest("s1/a"));
    }
}
