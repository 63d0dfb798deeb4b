package io.heliograph.virtue.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The greedy algorithms' search over PMs, split into ranges searched at once (the thesis's parallel
 * version, L1209): each range answers its best PM, and the best answer wins, the lowest utilisation and
 * among equals the leftmost, so the result is the one a single search over every PM gives.
 */
final class PmRanges {

    /** A PM and the utilisation it would give; PM -1: none in the range beats the bound searched under. */
    record Candidate(int pm, double util) {
    }

    /** One range's search: the best PM of {@code from} to {@code to}, range number {@code range}. */
    interface Search {
        Candidate best(int range, int from, int to);
    }

    private final Executor executor;
    private final int parts;

    PmRanges(Executor executor, int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("at least one part, not " + parts);
        }
        this.executor = executor;
        this.parts = parts;
    }

    private static int from(int pmCount, int ranges, int i) {
        return (int) ((long) pmCount * i / ranges);
    }

    /** How many ranges {@code pmCount} PMs are searched in (each range gets its own scratch state). */
    int count(int pmCount) {
        return Math.min(parts, Math.max(pmCount, 1));
    }

    /**
     * The best PM of all {@code pmCount}: the ranges' answers compared in their order, so among equals the
     * leftmost stays; {@code none} (PM -1 and the bound) when no range beats its utilisation.
     */
    Candidate best(int pmCount, Candidate none, Search search) {
        int ranges = count(pmCount);
        if (ranges == 1) {
            return search.best(0, 0, pmCount);
        }
        // the first range on the calling thread: a search is tens of microseconds, as long as handing
        // one to another thread and back, so one handoff fewer per search matters
        List<CompletableFuture<Candidate>> runs = new ArrayList<>(ranges - 1);
        for (int i = 1; i < ranges; i++) {
            int range = i;
            int from = from(pmCount, ranges, i);
            int to = from(pmCount, ranges, i + 1);
            runs.add(CompletableFuture.supplyAsync(() -> search.best(range, from, to), executor));
        }
        Candidate best = none;
        Candidate first = search.best(0, 0, from(pmCount, ranges, 1));
        if (first.util() < best.util()) {
            best = first;
        }
        for (CompletableFuture<Candidate> run : runs) {
            Candidate candidate = run.join();
            if (candidate.util() < best.util()) {
                best = candidate;
            }
        }
        return best;
    }
}
