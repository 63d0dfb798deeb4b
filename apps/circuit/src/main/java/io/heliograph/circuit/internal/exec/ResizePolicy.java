package io.heliograph.circuit.internal.exec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.heliograph.circuit.engine.Day;
import io.heliograph.circuit.engine.WeekPlan;

/**
 * {@code resize(s, b, tau)} of spec §2.5: VOQ (src, dst) holds {@code bigPackets} from {@code tauMicros}
 * before each of its circuits comes up until that circuit goes down, and {@code smallPackets} otherwise.
 * The week repeats, so tau may reach into the week before; a pair whose circuits follow each other within
 * tau stays big throughout; a tau that makes the big spans cover the week keeps the pair big. As in the
 * thesis's sweep, tau = 0 means no resizing at all: every VOQ stays small. Dummy circuits (only filling a
 * matching) resize nothing. The thesis uses s = 16, b = 128 ({@link #etalon(long)}).
 */
public record ResizePolicy(int smallPackets, int bigPackets, long tauMicros) {

    /** A size change within a week: at {@code offsetMicros} after the week's start, VOQ {@code pair} holds {@code packets}. */
    public record Event(long offsetMicros, RackPair pair, int packets) {
    }

    public ResizePolicy {
        if (smallPackets < 1 || bigPackets < smallPackets) {
            throw new IllegalArgumentException("resize needs 1 <= small <= big packets, not small " + smallPackets
                    + " and big " + bigPackets);
        }
        if (tauMicros < 0) {
            throw new IllegalArgumentException("tau must be 0 or more microseconds, not " + tauMicros);
        }
    }

    /** The thesis's s = 16, b = 128, with this tau. */
    public static ResizePolicy etalon(long tauMicros) {
        return new ResizePolicy(16, 128, tauMicros);
    }

    /**
     * The spans of the week ({@code [start, end)} offsets in microseconds, within {@code [0, week]},
     * sorted, disjoint and not touching) in which each pair is big; pairs that are never big are absent.
     */
    public Map<RackPair, List<long[]>> bigSpans(WeekPlan week) {
        long w = week.weekMicros();
        Map<RackPair, List<long[]>> raw = new TreeMap<>();
        if (tauMicros == 0) {
            return raw;
        }
        long start = 0;
        for (Day day : week.days()) {
            long up = day.micros() - week.nightMicros();
            for (int j = 0; j < day.sourceOf().length; j++) {
                if (day.dummy(j) || day.source(j) == j) {
                    continue; // only filling the matching, or a rack to itself: no VOQ
                }
                RackPair pair = new RackPair(day.source(j), j);
                List<long[]> spans = raw.computeIfAbsent(pair, p -> new ArrayList<>());
                long length = tauMicros + up;
                if (length >= w) {
                    spans.add(new long[] {0, w});
                    continue;
                }
                long from = Math.floorMod(start - tauMicros, w);
                if (from + length <= w) {
                    spans.add(new long[] {from, from + length});
                } else {
                    spans.add(new long[] {from, w});
                    spans.add(new long[] {0, from + length - w});
                }
            }
            start += day.micros();
        }
        Map<RackPair, List<long[]>> merged = new TreeMap<>();
        raw.forEach((pair, spans) -> {
            spans.sort(Comparator.comparingLong(s -> s[0]));
            List<long[]> out = new ArrayList<>();
            for (long[] s : spans) {
                long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
                if (last != null && s[0] <= last[1]) {
                    last[1] = Math.max(last[1], s[1]);
                } else {
                    out.add(s.clone());
                }
            }
            merged.put(pair, out);
        });
        return merged;
    }

    /** The size changes of one week in time order (then by pair), repeating every week. */
    public List<Event> events(WeekPlan week) {
        long w = week.weekMicros();
        List<Event> events = new ArrayList<>();
        bigSpans(week).forEach((pair, spans) -> {
            boolean wrapsIn = spans.get(0)[0] == 0 && spans.get(spans.size() - 1)[1] == w;
            if (spans.size() == 1 && wrapsIn) {
                return; // big all week: set once, when the week starts
            }
            for (long[] s : spans) {
                if (!(s[0] == 0 && wrapsIn)) {
                    events.add(new Event(s[0], pair, bigPackets));
                }
                if (!(s[1] == w && wrapsIn)) {
                    events.add(new Event(s[1] % w, pair, smallPackets));
                }
            }
        });
        events.sort(Comparator.comparingLong(Event::offsetMicros).thenComparing(Event::pair));
        return events;
    }

    /** The size of {@code pair}'s VOQ at {@code offsetMicros} into the week. */
    public int sizeAt(Map<RackPair, List<long[]>> spans, RackPair pair, long offsetMicros) {
        for (long[] s : spans.getOrDefault(pair, List.of())) {
            if (s[0] <= offsetMicros && offsetMicros < s[1]) {
                return bigPackets;
            }
        }
        return smallPackets;
    }
}
