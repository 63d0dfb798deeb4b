package io.heliograph.virtue.store;

import static io.heliograph.virtue.store.StoreFixture.T0;
import static io.heliograph.virtue.store.StoreFixture.experiment;
import static io.heliograph.virtue.store.StoreFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordsTest {

    @TempDir
    Path dir;
    private StoreFixture store;

    @BeforeEach
    void open() {
        store = StoreFixture.open(dir);
        store.experiments.save(experiment("e1"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void experimentsAreSavedUpdatedListedAndDeletedWithTheirRows() {
        ExperimentRow e2 = experiment("e2").withEdf("x".repeat(300_000));
        store.experiments.save(e2);
        assertEquals(Optional.of(e2), store.experiments.get("e2"), "a large EDF comes back whole");
        ExperimentRow running = e2.withState("RUNNING", T0, null);
        store.experiments.save(running);
        assertEquals(Optional.of(running), store.experiments.get("e2"));
        assertEquals(List.of("e1", "e2"), store.experiments.list().stream().map(ExperimentRow::id).toList());

        store.records.write(round("e2", 1));
        store.records.write(new HostReport("e2", T0, "vm0001", 0.5, Map.of("requests", 3.0)));
        store.records.write(round("e1", 1));
        assertTrue(store.experiments.delete("e2"));
        assertFalse(store.experiments.delete("e2"));
        assertEquals(Optional.empty(), store.experiments.get("e2"));
        assertEquals(List.of(), store.queries.times("e2"));
        assertEquals(List.of(), store.queries.series("e2", null, null, null));
        assertEquals(1, store.queries.times("e1").size(), "another experiment's rows stay");
    }

    @Test
    void aRoundComesBackAsItWasWritten() {
        Round round = round("e1", 3);
        store.records.write(round);
        assertEquals(Optional.of(round), store.queries.roundAtOrBefore("e1", round.at()));
        assertEquals(Optional.of(round), store.queries.latestRound("e1"));
        // Times are kept to the millisecond: a round given in nanoseconds is stored and read at its millisecond.
        Round precise = new Round("e1", T0.plusSeconds(100).plusNanos(123_456_789), Map.of(), Map.of(), Map.of());
        store.records.write(precise);
        assertEquals(Instant.parse("2026-11-29T10:01:40.246Z"), store.queries.latestRound("e1").orElseThrow().at());
    }

    @Test
    void writingARoundAgainReplacesItAndNeverDuplicates() {
        store.records.write(List.of(round("e1", 1), round("e1", 2)));
        store.records.write(List.of(round("e1", 1), round("e1", 2)));
        Round fewer = new Round("e1", round("e1", 2).at(), Map.of("00:01:1->00:02:1", 7.0), Map.of(), Map.of());
        store.records.write(fewer);
        assertEquals(List.of(round("e1", 1).at(), round("e1", 2).at()), store.queries.times("e1"));
        assertEquals(Optional.of(fewer), store.queries.latestRound("e1"), "the retry's content, nothing left of the first");
        HostReport report = new HostReport("e1", T0, "vm0001", 0.25, Map.of("latency", 12.0));
        store.records.write(report);
        store.records.write(report);
        assertEquals(2, store.queries.series("e1", "vm0001", null, null).size());
        assertEquals(1, store.queries.series("e1", "vm0001", null, null).get(0).points().size());
    }

    @Test
    void theRoundAtOrBeforeAnInstantIsTheLastNotAfterIt() {
        for (int i = 1; i <= 3; i++) {
            store.records.write(round("e1", i));
        }
        assertEquals(round("e1", 2), store.queries.roundAtOrBefore("e1", round("e1", 3).at().minusMillis(1)).orElseThrow());
        assertEquals(round("e1", 3), store.queries.roundAtOrBefore("e1", Instant.MAX).orElseThrow());
        assertEquals(Optional.empty(), store.queries.roundAtOrBefore("e1", round("e1", 1).at().minusMillis(1)));
        assertEquals(Optional.empty(), store.queries.latestRound("unknown"));
        assertEquals(new SampleSummary(3, round("e1", 1).at(), round("e1", 3).at()), store.queries.summary("e1"));
        assertEquals(SampleSummary.NONE, store.queries.summary("unknown"));
        assertEquals(Map.of("e1", store.queries.summary("e1")), store.queries.summaries());
    }

    @Test
    void hostReportsGiveSeriesWithCpuAsAMetricAndTheReportsInForceAtAnInstant() {
        store.records.write(new HostReport("e1", T0, "vm0001", 0.5, Map.of("requests", 10.0)));
        store.records.write(new HostReport("e1", T0.plusSeconds(5), "vm0001", 0.7, Map.of("requests", 12.0)));
        store.records.write(new HostReport("e1", T0.plusSeconds(2), "vm0002", null, Map.of("requests", -1.0)));

        List<MetricSeries> all = store.queries.series("e1", null, null, null);
        assertEquals(List.of("vm0001 cpu", "vm0001 requests", "vm0002 requests"),
                all.stream().map(s -> s.vm() + " " + s.metric()).toList());
        assertEquals(List.of(new MetricSeries.Point(T0, 0.5), new MetricSeries.Point(T0.plusSeconds(5), 0.7)),
                all.get(0).points());
        assertEquals(1, store.queries.series("e1", "vm0002", null, null).size());
        assertEquals(1, store.queries.series("e1", "vm0001", T0.plusSeconds(1), null).get(0).points().size());

        Map<String, HostReport> atFour = store.queries.reportsAtOrBefore("e1", T0.plusSeconds(4));
        assertEquals(new HostReport("e1", T0, "vm0001", 0.5, Map.of("requests", 10.0)), atFour.get("vm0001"));
        assertNull(atFour.get("vm0002").cpu());
        assertEquals(0.7, store.queries.reportsAtOrBefore("e1", null).get("vm0001").cpu());
        assertEquals(Map.of(), store.queries.reportsAtOrBefore("e1", T0.minusMillis(1)));
    }

    @Test
    void averagesCountARateMissingFromARoundAsZero() {
        store.records.write(round("e1", 1));
        store.records.write(round("e1", 3));
        store.records.write(new Round("e1", T0.plusSeconds(100), Map.of(), Map.of(), Map.of()));
        store.records.write(new HostReport("e1", T0, "vm0001", 0.2, Map.of()));
        store.records.write(new HostReport("e1", T0.plusSeconds(5), "vm0001", 0.4, Map.of()));
        store.records.write(new HostReport("e1", T0.plusSeconds(500), "vm0001", 0.9, Map.of()));

        Averages firstTwo = store.queries.averages("e1", T0, T0.plusSeconds(15));
        assertEquals(2, firstTwo.rounds());
        assertEquals(1000.0 * (1 + 3) / 2, firstTwo.links().get("00:01:1->00:02:1"), 1e-9);
        assertEquals(500.0 * (1 + 3) / 2, firstTwo.traffic().get(new Round.VmPair("vm0001", "vm0002")), 1e-9);
        assertEquals(new Round.Nic(1000.0, 1.5), firstTwo.nics().get("vm0001"));
        assertEquals(0.3, firstTwo.cpu().get("vm0001"), 1e-9);

        Averages all = store.queries.averages("e1", null, null);
        assertEquals(3, all.rounds());
        assertEquals(1000.0 * (1 + 3) / 3, all.links().get("00:01:1->00:02:1"), 1e-9, "the empty round counts");
        assertEquals(0.5, all.cpu().get("vm0001"), 1e-9);

        Averages none = store.queries.averages("e1", T0.minusSeconds(100), T0.minusSeconds(50));
        assertEquals(0, none.rounds());
        assertTrue(none.links().isEmpty() && none.traffic().isEmpty() && none.nics().isEmpty());
    }

    @Test
    void badValuesAreRefusedWhenMadeNotWhenWritten() {
        assertThrows(IllegalArgumentException.class, () -> new Round("e1", T0, Map.of("l", -1.0), Map.of(), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new Round("e1", T0, Map.of("l", Double.NaN), Map.of(), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new Round.Port("00:01", -1));
        assertThrows(IllegalArgumentException.class, () -> new Round("x".repeat(41), T0, Map.of(), Map.of(), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new HostReport("e1", T0, "vm1", 0.1, Map.of("cpu", 0.2)));
        assertThrows(IllegalArgumentException.class,
                () -> new HostReport("e1", T0, "vm1", null, Map.of("m", Double.POSITIVE_INFINITY)));
        assertThrows(IllegalArgumentException.class, () -> new HostReport("e1", T0, "vm1", -0.1, Map.of()));
    }

    @Test
    void aRoundOfAnUnknownExperimentIsRefusedByTheDatabase() {
        DatabaseException refused = assertThrows(DatabaseException.class, () -> store.records.write(round("nope", 1)));
        assertTrue(refused.getMessage().contains("experiment nope"), refused.getMessage());
        assertEquals(List.of(), store.queries.times("nope"));
    }
}
