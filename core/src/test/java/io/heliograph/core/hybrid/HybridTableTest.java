package io.heliograph.core.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.heliograph.core.testing.ManualClock;

class HybridTableTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final Evidence VIA_R2 = Evidence.of(Map.of("R2->E1", 100_000.0, "viewers:v0/800", 3000.0));
    private static final Evidence VIA_R1 = Evidence.of(Map.of("R1->E1", 50_000.0));

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T15:20:00Z"));
    private final HybridTable<String> fib = new HybridTable<>("E1", HybridTable.Settings.withCentreTimeout(TIMEOUT), clock);

    private DecisionTable<String> table(long version, Object... keyValueEvidence) {
        List<Decision<String>> decisions = new ArrayList<>();
        for (int i = 0; i < keyValueEvidence.length; i += 3) {
            decisions.add(new Decision<>((String) keyValueEvidence[i], (String) keyValueEvidence[i + 1], Origin.CENTRAL, version,
                    (Evidence) keyValueEvidence[i + 2], clock.instant()));
        }
        return new DecisionTable<>("E1", version, clock.instant(), decisions);
    }

    private static Optional<String> use(Lookup<String> lookup) {
        return lookup.value();
    }

    @Test
    void aFreshCentralDecisionAnswersAndAMissingOneIsNoEntry() {
        fib.install(table(1, "v0/800/*", "R2", VIA_R2));
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")));
        assertEquals(Origin.CENTRAL, fib.lookup("v0/800").decision().origin());
        assertEquals(Lookup.Miss.NO_ENTRY, fib.lookup("v1/800").miss());
    }

    @Test
    void shadowTablesAnswerRequestsTaggedWithTheirVersionUntilNNewerVersionsCame() {
        fib.install(table(1, "v0/800", "R1", VIA_R1));
        fib.install(table(2, "v0/800", "R2", VIA_R2));
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")));
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800", 2)));
        assertEquals(Optional.of("R1"), use(fib.lookup("v0/800", 1)), "an in-flight request keeps its version's next hop");
        fib.install(table(3, "v0/800", "R3", VIA_R2));
        fib.install(table(4, "v0/800", "R4", VIA_R2));
        assertEquals(Optional.of("R1"), use(fib.lookup("v0/800", 1)), "three shadow tables: 3, 2 and 1");
        fib.install(table(5, "v0/800", "R5", VIA_R2));
        assertEquals(List.of(4L, 3L, 2L), fib.shadowVersions());
        assertEquals(Lookup.Miss.UNKNOWN_VERSION, fib.lookup("v0/800", 1).miss());
        assertEquals(Lookup.Miss.UNKNOWN_VERSION, fib.lookup("v0/800", 9).miss(), "a version from the future is unknown too");
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800", 2)));
    }

    @Test
    void theNumberOfShadowTablesIsASetting() {
        HybridTable<String> one = new HybridTable<>("E1", new HybridTable.Settings(1, 0.2, TIMEOUT), clock);
        one.install(table(1, "v0/800", "R1", VIA_R1));
        one.install(table(2, "v0/800", "R2", VIA_R2));
        assertEquals(Optional.of("R1"), use(one.lookup("v0/800", 1)));
        one.install(table(3, "v0/800", "R3", VIA_R2));
        assertEquals(Lookup.Miss.UNKNOWN_VERSION, one.lookup("v0/800", 1).miss());
    }

    @Test
    void anOlderTableIsIgnoredAndAnotherPartitionsRefused() {
        fib.install(table(2, "v0/800", "R2", VIA_R2));
        fib.install(table(1, "v0/800", "R1", VIA_R1));
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")));
        assertEquals(List.of(), fib.shadowVersions());
        assertThrows(IllegalArgumentException.class, () -> fib.install(new DecisionTable<>("E2", 3, clock.instant(), List.of())));
    }

    @Test
    void aLinkThatMovedMoreThanTheThresholdMakesTheDecisionStale() {
        fib.install(table(1, "v0/800", "R2", VIA_R2, "v1/800", "R1", VIA_R1));
        assertEquals(List.of(), fib.observe(Map.of("R2->E1", 81_000.0)), "19 % less still holds");
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")));
        assertEquals(List.of("v0/800"), fib.observe(Map.of("R2->E1", 79_000.0)), "the stream is re-treated as a new request");
        Lookup<String> stale = fib.lookup("v0/800");
        assertEquals(Lookup.Miss.STALE, stale.miss());
        assertTrue(stale.detail().contains("R2->E1"), stale.detail());
        assertEquals(List.of(), fib.observe(Map.of("R2->E1", 70_000.0)), "already stale: not reported again");
        assertEquals(Optional.of("R1"), use(fib.lookup("v1/800")), "other decisions are untouched");
        fib.observe(Map.of("R2->E1", 100_000.0));
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")), "back within the threshold, the decision holds again");
    }

    @Test
    void aFailedNodeOrLinkInTheEvidenceMakesTheDecisionStale() {
        fib.install(table(1, "v0/800", "R2", VIA_R2, "v1/800", "R1", VIA_R1));
        assertEquals(List.of("v0/800"), fib.failed("R2"));
        assertEquals(Lookup.Miss.STALE, fib.lookup("v0/800").miss());
        assertTrue(fib.lookup("v0/800").detail().contains("R2 failed"));
        assertEquals(List.of("v1/800"), fib.failed("R1->E1"));
        assertTrue(fib.recovered("R2"));
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")));
        fib.observe(Map.of("R1->E1", 50_000.0));
        assertEquals(Optional.of("R1"), use(fib.lookup("v1/800")), "a measurement of a failed link clears its failure");
    }

    @Test
    void aLocalDecisionAnswersWhereTheCentralOneIsStaleOrMissing() {
        fib.install(table(1, "v0/800", "R2", VIA_R2));
        fib.failed("R2");
        Decision<String> local = fib.recordLocal("v0/800", "R1", VIA_R1);
        assertEquals(Origin.LOCAL, local.origin());
        assertEquals(1, local.version());
        assertEquals(Optional.of("R1"), use(fib.lookup("v0/800")));
        fib.recordLocal("v7/*", "R1", VIA_R1);
        assertEquals(Optional.of("R1"), use(fib.lookup("v7/400")));
        assertEquals(Optional.of("R1"), use(fib.lookup("v7/400", 99)), "a local decision answers whatever version");
    }

    @Test
    void aMoreSpecificFreshCentralDecisionBeatsALocalWildcard() {
        fib.install(table(1, "v0/800", "R2", VIA_R2));
        fib.recordLocal("v0/*", "R1", VIA_R1);
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")));
        assertEquals(Optional.of("R1"), use(fib.lookup("v0/400")));
        fib.failed("R2");
        assertEquals(Optional.of("R1"), use(fib.lookup("v0/800")), "the local wildcard covers for the stale central entry");
    }

    @Test
    void aLocalDecisionStaysUntilTheCentresEvidenceCatchesUpThenTheCentralOneReplacesIt() {
        fib.install(table(1, "v0/800", "R2", VIA_R2));
        fib.observe(Map.of("R2->E1", 40_000.0));
        fib.recordLocal("v0/800", "R1", VIA_R1);
        // the centre has not heard of the drop yet: its next table still says R2 on a 100 Mbit/s link
        assertEquals(List.of(), fib.install(table(2, "v0/800", "R2", VIA_R2)));
        assertEquals(Optional.of("R1"), use(fib.lookup("v0/800")));
        assertEquals(Origin.LOCAL, fib.lookup("v0/800").decision().origin());
        // now it has: its decision is made on 40 Mbit/s
        Evidence caughtUp = Evidence.of(Map.of("R2->E1", 40_000.0, "viewers:v0/800", 3000.0));
        assertEquals(List.of("v0/800"), fib.install(table(3, "v0/800", "R2", caughtUp)));
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")));
        assertEquals(Origin.CENTRAL, fib.lookup("v0/800").decision().origin());
        assertEquals(1, fib.snapshot().decisions().size());
    }

    @Test
    void theCentreSilentPastItsTimeoutLeavesOnlyLocalDecisionsAnsweringUntilANewTable() {
        assertEquals(HybridTable.Mode.DISTRIBUTED, fib.mode(), "never heard");
        fib.install(table(1, "v0/800", "R2", VIA_R2, "v1/800", "R2", VIA_R2));
        fib.failed("R2");
        fib.recordLocal("v1/800", "R1", VIA_R1);
        fib.recovered("R2");
        clock.advance(TIMEOUT);
        assertEquals(HybridTable.Mode.CENTRAL, fib.mode(), "exactly the timeout is not yet silence");
        assertEquals(Optional.of("R2"), use(fib.lookup("v0/800")));
        clock.advance(Duration.ofMillis(1));
        assertEquals(HybridTable.Mode.DISTRIBUTED, fib.mode());
        assertEquals(Lookup.Miss.CENTRE_SILENT, fib.lookup("v0/800").miss());
        assertEquals(Lookup.Miss.CENTRE_SILENT, fib.lookup("v0/800", 1).miss());
        assertEquals(Optional.of("R1"), use(fib.lookup("v1/800")), "local decisions go on answering");
        fib.install(table(1, "v0/800", "R2", VIA_R2));
        assertEquals(HybridTable.Mode.CENTRAL, fib.mode(), "the current version again says the centre is alive");
        clock.advance(TIMEOUT.plusSeconds(1));
        fib.install(table(2, "v0/800", "R3", VIA_R2));
        assertEquals(HybridTable.Mode.CENTRAL, fib.mode());
        assertEquals(Optional.of("R3"), use(fib.lookup("v0/800")));
    }

    @Test
    void requestThreadsLookUpWhileTheUpdateThreadInstallsAndObserves() throws Exception {
        fib.install(table(1, "v0/800", "R0", VIA_R2));
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(threads.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        Lookup<String> answer = fib.lookup("v0/800");
                        assertTrue(answer.found() || answer.miss() == Lookup.Miss.STALE, answer.toString());
                    }
                }));
            }
            Future<?> writer = threads.submit(() -> {
                for (int v = 2; v < 2_000; v++) {
                    fib.install(table(v, "v0/800", "R" + v, VIA_R2));
                    fib.observe(Map.of("R2->E1", v % 2 == 0 ? 100_000.0 : 10_000.0));
                }
            });
            writer.get(30, TimeUnit.SECONDS);
            for (Future<?> reader : readers) {
                reader.get(30, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(List.of(1998L, 1997L, 1996L), fib.shadowVersions());
        assertFalse(fib.lookup("v0/800").found(), "the last observation (10 Mbit/s) made the entry stale");
    }
}
