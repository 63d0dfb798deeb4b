package io.heliograph.virtue.store;

import static io.heliograph.virtue.store.StoreFixture.T0;
import static io.heliograph.virtue.store.StoreFixture.experiment;
import static io.heliograph.virtue.store.StoreFixture.round;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecorderTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Recorder.Options FAST = Recorder.Options.defaults()
            .withRetry(Duration.ofMillis(10), Duration.ofMillis(50));

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
    void submittedRecordsAreWrittenInOrder() throws InterruptedException {
        try (Recorder recorder = new Recorder(store.records, FAST)) {
            for (int i = 1; i <= 50; i++) {
                recorder.submit(round("e1", i));
                recorder.submit(new HostReport("e1", round("e1", i).at(), "vm0001", 0.01 * i, Map.of("q", 1.0 * i)));
            }
            assertTrue(recorder.awaitWritten(WAIT));
            assertEquals(50, store.queries.times("e1").size());
            assertEquals(50, store.queries.series("e1", "vm0001", null, null).get(0).points().size());
            Recorder.Status status = recorder.status();
            assertEquals(100, status.written());
            assertEquals(0, status.pending());
            assertTrue(status.available());
        }
    }

    @Test
    void roundsSubmittedWhileTheDatabaseFailsAreAllWrittenWhenItAnswersAgain() throws InterruptedException {
        try (Recorder recorder = new Recorder(store.records, FAST)) {
            recorder.submit(round("e1", 0));
            assertTrue(recorder.awaitWritten(WAIT));

            store.source.down();
            List<Round> submitted = new ArrayList<>();
            for (int i = 1; i <= 30; i++) {
                submitted.add(round("e1", i));
                recorder.submit(submitted.get(i - 1));
            }
            // The writer has tried (and failed) several times, and keeps everything.
            awaitCondition("several refused connections", () -> store.source.refused.get() >= 3);
            assertFalse(recorder.available());
            assertEquals(30, recorder.pending());
            assertTrue(recorder.lastError().orElseThrow().contains("the database is down"),
                    recorder.lastError().toString());
            assertEquals(0, recorder.dropped());

            store.source.up();
            assertTrue(recorder.awaitWritten(WAIT));
            assertTrue(recorder.available());
            assertEquals(31, store.queries.times("e1").size());
            for (Round round : submitted) {
                assertEquals(round, store.queries.roundAtOrBefore("e1", round.at()).orElseThrow());
            }
            assertEquals(0, recorder.dropped());
            assertEquals(0, recorder.rejected());
        }
    }

    @Test
    void aFullQueueDropsTheOldestAndCountsThem() throws InterruptedException {
        int rowsPerRound = round("e1", 1).rows();
        try (Recorder recorder = new Recorder(store.records, FAST.withMaxPendingRows(10 * rowsPerRound))) {
            store.source.down();
            for (int i = 1; i <= 25; i++) {
                recorder.submit(round("e1", i));
            }
            assertEquals(15, recorder.dropped());
            assertEquals(10, recorder.pending());
            store.source.up();
            assertTrue(recorder.awaitWritten(WAIT));
            List<java.time.Instant> times = store.queries.times("e1");
            assertEquals(10, times.size());
            // What was kept: the first batch the writer had in hand when it failed, then the newest.
            assertEquals(round("e1", 25).at(), times.get(times.size() - 1));
        }
    }

    @Test
    void aRecordTheDatabaseRefusesIsRejectedAndDoesNotHoldTheQueue() throws InterruptedException {
        try (Recorder recorder = new Recorder(store.records, FAST)) {
            recorder.submit(round("e1", 1));
            recorder.submit(round("deleted", 2));
            recorder.submit(round("e1", 3));
            assertTrue(recorder.awaitWritten(WAIT));
            assertEquals(1, recorder.rejected());
            assertTrue(recorder.available());
            assertEquals(List.of(round("e1", 1).at(), round("e1", 3).at()), store.queries.times("e1"));
        }
    }

    @Test
    void closeWritesWhatIsQueuedAndThenTakesNoMore() {
        Recorder recorder = new Recorder(store.records, FAST);
        for (int i = 1; i <= 20; i++) {
            recorder.submit(round("e1", i));
        }
        assertEquals(0, recorder.close(WAIT));
        assertEquals(20, store.queries.times("e1").size());
        recorder.submit(round("e1", 21));
        assertEquals(1, recorder.dropped());
        assertEquals(20, store.queries.times("e1").size());
    }

    @Test
    void closeGivesUpAfterItsWaitWhenTheDatabaseStaysDown() {
        Recorder recorder = new Recorder(store.records, FAST);
        store.source.down();
        recorder.submit(round("e1", 1));
        recorder.submit(new HostReport("e1", T0, "vm0001", 0.5, Map.of()));
        long started = System.nanoTime();
        assertEquals(2, recorder.close(Duration.ofMillis(300)));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(5)) < 0);
    }

    private static void awaitCondition(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }
}
