package io.heliograph.circuit.internal.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.heliograph.circuit.engine.Day;
import io.heliograph.circuit.engine.WeekPlan;

class ResizePolicyTest {

    private static Day day(long micros, int... sourceOf) {
        return new Day(micros, sourceOf, new boolean[sourceOf.length]);
    }

    /** Two racks, 0 -> 1 and 1 -> 0 every day: a 3-day week of 200, 300, 250 us with 20 us nights. */
    private static final WeekPlan EVERY_DAY = new WeekPlan(20, List.of(day(200, 1, 0), day(300, 1, 0), day(250, 1, 0)));

    @Test
    void growsTauBeforeEachCircuitAndShrinksWhenItEnds() {
        WeekPlan week = new WeekPlan(20, List.of(day(200, 1, 2, 0), day(300, 2, 0, 1), day(250, 0, 1, 2)));
        // Pair 0->2 (output 2 takes from rack 0) is up on day 0 only: [0, 180); with tau 50 big from 700 (the week before).
        ResizePolicy p = new ResizePolicy(16, 128, 50);
        Map<RackPair, List<long[]>> spans = p.bigSpans(week);
        assertSpans(spans.get(new RackPair(0, 2)), new long[] {0, 180}, new long[] {700, 750});
        assertSpans(spans.get(new RackPair(0, 1)), new long[] {150, 480});
        List<ResizePolicy.Event> e02 = p.events(week).stream().filter(e -> e.pair().equals(new RackPair(0, 2))).toList();
        assertEquals(List.of(new ResizePolicy.Event(180, new RackPair(0, 2), 16), new ResizePolicy.Event(700,
                new RackPair(0, 2), 128)), e02);
        assertEquals(128, p.sizeAt(spans, new RackPair(0, 2), 0));
        assertEquals(128, p.sizeAt(spans, new RackPair(0, 2), 720));
        assertEquals(16, p.sizeAt(spans, new RackPair(0, 2), 180));
        assertEquals(16, p.sizeAt(spans, new RackPair(1, 2), 100), "1->2 is up on day 1, big from 150");
        assertEquals(128, p.sizeAt(spans, new RackPair(1, 2), 150));
        // Every pair grows once and shrinks once a week (day 2 connects each rack to itself: no pair); in time order.
        List<ResizePolicy.Event> all = p.events(week);
        assertEquals(2 * 6, all.size());
        for (int i = 1; i < all.size(); i++) {
            assertEquals(true, all.get(i - 1).offsetMicros() <= all.get(i).offsetMicros());
        }
    }

    @Test
    void aPairUpOnFollowingDaysStaysBigThroughTheNights() {
        ResizePolicy p = new ResizePolicy(16, 128, 30);
        // Up [0,180), [200,480), [500,730): with tau 30 the spans touch or overlap through every night.
        assertSpans(p.bigSpans(EVERY_DAY).get(new RackPair(0, 1)), new long[] {0, 750});
        assertEquals(List.of(), p.events(EVERY_DAY), "big all week: set when the week takes over, never changed");
        // With tau 10 the nights (20 us) are longer: it shrinks and grows around each of them.
        ResizePolicy shortTau = new ResizePolicy(16, 128, 10);
        assertSpans(shortTau.bigSpans(EVERY_DAY).get(new RackPair(0, 1)), new long[] {0, 180}, new long[] {190, 480},
                new long[] {490, 730}, new long[] {740, 750});
        List<ResizePolicy.Event> e = shortTau.events(EVERY_DAY).stream()
                .filter(x -> x.pair().equals(new RackPair(0, 1))).toList();
        assertEquals(List.of(180L, 190L, 480L, 490L, 730L, 740L), e.stream().map(ResizePolicy.Event::offsetMicros).toList());
        assertEquals(List.of(16, 128, 16, 128, 16, 128), e.stream().map(ResizePolicy.Event::packets).toList());
    }

    @Test
    void tauZeroNeverResizesAndALongTauKeepsEveryUsedPairBig() {
        assertEquals(Map.of(), new ResizePolicy(16, 128, 0).bigSpans(EVERY_DAY));
        assertEquals(List.of(), new ResizePolicy(16, 128, 0).events(EVERY_DAY));
        ResizePolicy longTau = new ResizePolicy(4, 64, 750);
        assertEquals(64, longTau.sizeAt(longTau.bigSpans(EVERY_DAY), new RackPair(1, 0), 745));
        assertEquals(List.of(), longTau.events(EVERY_DAY));
    }

    @Test
    void dummyCircuitsResizeNothing() {
        WeekPlan week = new WeekPlan(20, List.of(new Day(200, new int[] {1, 0}, new boolean[] {true, false})));
        assertEquals(List.of(new RackPair(0, 1)), List.copyOf(new ResizePolicy(16, 128, 50).bigSpans(week).keySet()));
    }

    @Test
    void badPoliciesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ResizePolicy(0, 128, 1));
        assertThrows(IllegalArgumentException.class, () -> new ResizePolicy(16, 8, 1));
        assertThrows(IllegalArgumentException.class, () -> new ResizePolicy(16, 128, -1));
    }

    private static void assertSpans(List<long[]> actual, long[]... expected) {
        assertEquals(expected.length, actual.size(), () -> actual.stream().map(java.util.Arrays::toString).toList().toString());
        for (int i = 0; i < expected.length; i++) {
            assertArrayEquals(expected[i], actual.get(i));
        }
    }
}
