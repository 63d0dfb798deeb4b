package io.heliograph.sims.vdn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TracesTest {

    /** The share of requests the most requested {@code top} of the catalogue get. */
    private static double topShare(Trace trace, int top) {
        Map<String, Long> counts = new HashMap<>();
        trace.arrivals().forEach(a -> counts.merge(a.video(), (long) a.clients(), Long::sum));
        List<Long> sorted = counts.values().stream().sorted((a, b) -> Long.compare(b, a)).toList();
        long all = sorted.stream().mapToLong(Long::longValue).sum();
        return (double) sorted.stream().limit(top).mapToLong(Long::longValue).sum() / all;
    }

    private static double meanKbps(Trace trace) {
        return trace.arrivals().stream().mapToDouble(a -> (double) a.bitrateKbps() * a.clients()).sum() / trace.requests();
    }

    @Test
    void averageDayHasTheThesisSizesAndSkew() {
        Trace trace = Traces.generate(Traces.averageDay(), 1);
        assertEquals(55_000, trace.requests());
        assertEquals(4_144, trace.videos());
        assertEquals(2_587, trace.cities().size());
        Set<Integer> groups = new HashSet<>();
        trace.arrivals().forEach(a -> groups.add(a.group()));
        assertEquals(trace.groups().size(), groups.size(), "every client group makes a request");
        assertEquals(60, trace.windows().size());
        assertEquals(2725, meanKbps(trace), 2725 * 0.02);
        // 7 % of videos get 50 % of requests (§4.7)
        assertEquals(0.50, topShare(trace, (int) Math.round(0.07 * 4_144)), 0.03);
        double[] times = trace.arrivals().stream().mapToDouble(Trace.Arrival::seconds).toArray();
        for (int i = 1; i < times.length; i++) {
            assertTrue(times[i - 1] <= times[i], "arrivals in time order");
        }
    }

    @Test
    void heavyTailsLowest99PercentGet60PercentAtAMeanOf6850() {
        Trace trace = Traces.generate(Traces.heavyTail(), 2);
        assertEquals(240_000, trace.requests());
        assertEquals(10_000, trace.videos());
        assertEquals(0.40, topShare(trace, 100), 0.03);
        assertEquals(6850, meanKbps(trace), 6850 * 0.02);
        assertEquals(Set.of(400, 1000, 4500, 30000),
                new HashSet<>(trace.arrivals().stream().map(Trace.Arrival::bitrateKbps).toList()));
    }

    @Test
    void largeEventsGamesAreAggregatedPerGroupWithEveryViewerInEveryWindow() {
        Traces.Spec spec = Traces.largeEvent().scaled(0.05, true);
        Trace trace = Traces.generate(spec, 3);
        assertEquals(spec.videos() + 4, trace.videos());
        for (List<Trace.Arrival> window : List.of(trace.windows().get(0), trace.windows().get(59))) {
            for (int game = 1; game <= 4; game++) {
                String name = "game" + game;
                assertEquals(spec.viewersPerGame(), window.stream().filter(a -> a.video().equals(name))
                        .mapToLong(Trace.Arrival::clients).sum());
                assertTrue(window.stream().filter(a -> a.video().equals(name)).count() <= 4L * spec.groups(),
                        "one arrival per group, game and bitrate");
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameTrace() {
        Traces.Spec spec = Traces.averageDay().scaled(0.02, true);
        assertEquals(Traces.generate(spec, 9).arrivals(), Traces.generate(spec, 9).arrivals());
    }

    @Test
    void impossibleSizesAreRefused() {
        Traces.Spec day = Traces.averageDay();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Traces.Spec("t", -1, 10, 5, 5, 5, 0.8,
                day.ladderKbps(), day.mix(), 3600, 0, 0)).getMessage().contains("-1 requests"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Traces.Spec("t", 100, 0, 5, 5, 5, 0.8,
                day.ladderKbps(), day.mix(), 3600, 0, 0)).getMessage().contains("0 videos"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Traces.Spec("t", 100, 101, 5, 5, 5, 0.8,
                day.ladderKbps(), day.mix(), 3600, 0, 0)).getMessage().contains("101 videos but only 100 requests"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Traces.Spec("t", 100, 10, 5, 5, 5, 0.8,
                new int[] {400, 1000}, new double[] {0.5, 0.4}, 3600, 0, 0)).getMessage().contains("sum to 0.9"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Traces.Spec("t", 100, 10, 5, 5, 500, 0.8,
                day.ladderKbps(), day.mix(), 3600, 0, 0)).getMessage().contains("500 clients"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Traces.Spec("t", 100, 10, 5, 5, 5, 0.8,
                day.ladderKbps(), day.mix(), 3600, 4, 0)).getMessage().contains("4 games of 0 viewers"));
    }
}
