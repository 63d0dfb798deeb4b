package io.heliograph.core.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class DecisionTableTest {

    private static final Instant T = Instant.parse("2026-11-29T15:20:00Z");

    private static Decision<String> d(String key, String value) {
        return new Decision<>(key, value, Origin.CENTRAL, 4, Evidence.NONE, T);
    }

    private static Optional<String> next(DecisionTable<String> table, String key) {
        return table.lookup(key).map(Decision::value);
    }

    @Test
    void theMostSpecificEntryCoveringAKeyAnswers() {
        DecisionTable<String> table = new DecisionTable<>("E1", 4, T, List.of(
                d("v0/*/*", "R1"), d("v0/800/*", "R2"), d("v0/800", "R3"), d("*/400", "R4"), d("v1/*", "R5")));
        assertEquals(Optional.of("R3"), next(table, "v0/800"), "an exact key beats every pattern");
        assertEquals(Optional.of("R2"), next(table, "v0/800/a"), "a longer literal start beats v0/*/*");
        assertEquals(Optional.of("R1"), next(table, "v0/1200"), "a trailing wildcard covers no further segment too");
        assertEquals(Optional.of("R1"), next(table, "v0/400"), "v0/*/* starts with more literals than */400");
        assertEquals(Optional.of("R4"), next(table, "v9/400"));
        assertEquals(Optional.of("R5"), next(table, "v1"), "v1/* covers v1 itself");
        assertEquals(Optional.of("R5"), next(table, "v1/200/x/y"));
        assertEquals(Optional.empty(), next(table, "v9/800"));
        assertEquals(Optional.empty(), next(table, "v0"), "the inner wildcard of v0/*/* needs a segment");
    }

    @Test
    void anInnerWildcardMatchesExactlyOneSegment() {
        ChannelPattern p = ChannelPattern.parse("v0/*/hd");
        assertTrue(p.matches("v0/800/hd"));
        assertFalse(p.matches("v0/hd"));
        assertFalse(p.matches("v0/800/x/hd"));
        assertFalse(p.matches("v0/800/sd"));
    }

    @Test
    void malformedKeysAndTablesAreRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ChannelPattern.parse("v0//800")).getMessage()
                .contains("empty segment"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ChannelPattern.parse("v0/8*")).getMessage()
                .contains("whole segment"));
        assertThrows(IllegalArgumentException.class, () -> ChannelPattern.segmentsOfKey("v0/*"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new DecisionTable<>("E1", 4, T, List.of(d("v0/800", "R1"), d("v0/800", "R2")))).getMessage()
                .contains("twice"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new DecisionTable<>("E1", 3, T, List.of(d("v0/800", "R1")))).getMessage().contains("newer"));
    }
}
