package io.heliograph.virtue.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.WorkerThreads;
import io.heliograph.virtue.store.Averages;
import io.heliograph.virtue.store.DatabaseException;
import io.heliograph.virtue.store.DatabaseSettings;
import io.heliograph.virtue.store.ExperimentRow;
import io.heliograph.virtue.store.Experiments;
import io.heliograph.virtue.store.HostReport;
import io.heliograph.virtue.store.MetricSeries;
import io.heliograph.virtue.store.Queries;
import io.heliograph.virtue.store.Recordable;
import io.heliograph.virtue.store.Recorder;
import io.heliograph.virtue.store.Round;
import io.heliograph.virtue.store.SampleSummary;

/**
 * The app's one way to its measurement database. Writes (experiment rows, rounds, host reports) go
 * through the write-behind {@link Recorder} in the order they are made, so they never wait for the
 * database and survive its absence; reads go to the database directly and, when it cannot answer, are
 * refused as unavailable (503), which loses nothing. A database that cannot be opened when the app
 * starts (a PostgreSQL server still starting) is opened again every {@value #REOPEN_SECONDS} s; what
 * is written meanwhile waits, within the same bound as the recorder's queue.
 */
final class VirtueDatabaseAccess {

    private static final Logger LOG = LoggerFactory.getLogger(VirtueDatabaseAccess.class);
    static final int REOPEN_SECONDS = 5;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final Path dataDir;
    private final ScheduledExecutorService opener = WorkerThreads.single("heliograph-virtue-database");

    // Guarded by this.
    private Open open;
    private VirtueSettings settings;
    private ScheduledFuture<?> reopen;
    private String openError;
    private final ArrayDeque<Recordable> waiting = new ArrayDeque<>();
    private long waitingRows;
    private long droppedWhileClosed;

    /** An opened database with its recorder and its tables. */
    private record Open(io.heliograph.virtue.store.VirtueDatabase database, Recorder recorder, Experiments experiments,
                        Queries queries) {
    }

    VirtueDatabaseAccess(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** Opens the database the settings name (closing the one open now, after its recorder has written what it holds). */
    synchronized void open(VirtueSettings next) {
        settings = next;
        closeOpen();
        tryOpen();
    }

    private synchronized void tryOpen() {
        if (settings == null || open != null) {
            return;
        }
        DatabaseSettings where = new DatabaseSettings(settings.databaseUrl(), settings.databaseUser(),
                settings.databasePassword(), dataDir);
        try {
            io.heliograph.virtue.store.VirtueDatabase database = io.heliograph.virtue.store.VirtueDatabase.open(where);
            Recorder recorder = new Recorder(new io.heliograph.virtue.store.Records(database),
                    Recorder.Options.defaults().withMaxPendingRows(settings.maxPendingRows()));
            open = new Open(database, recorder, new Experiments(database), new Queries(database));
            openError = null;
            while (!waiting.isEmpty()) {
                recorder.submit(waiting.poll());
            }
            waitingRows = 0;
            if (reopen != null) {
                reopen.cancel(false);
                reopen = null;
            }
        } catch (DatabaseException e) {
            if (openError == null || !openError.equals(e.getMessage())) {
                LOG.error("Virtue's database cannot be opened (trying again every {} s; measurements wait in memory): {}",
                        REOPEN_SECONDS, e.getMessage());
            }
            openError = e.getMessage();
            if (reopen == null) {
                reopen = opener.scheduleWithFixedDelay(this::tryOpen, REOPEN_SECONDS, REOPEN_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    synchronized void close() {
        if (reopen != null) {
            reopen.cancel(false);
            reopen = null;
        }
        closeOpen();
        settings = null;
        WorkerThreads.stop(opener, "heliograph-virtue-database", CLOSE_WAIT);
    }

    private void closeOpen() {
        if (open == null) {
            return;
        }
        long left = open.recorder().close(CLOSE_WAIT);
        if (left > 0) {
            LOG.warn("Virtue's database closed with {} record(s) not written", left);
        }
        open.database().close();
        open = null;
    }

    /** Queues the experiment's row (its state, times and EDF) to be written. */
    void save(Experiment e, String edf) {
        record(new ExperimentRow(e.id(), e.name(), e.state().name(), edf, e.created(), e.started(), e.stopped()));
    }

    /** Queues a round, a host report or an experiment row; never waits for the database. */
    synchronized void record(Recordable record) {
        if (open != null) {
            open.recorder().submit(record);
            return;
        }
        waiting.add(record);
        waitingRows += record.rows();
        while (settings != null && waitingRows > settings.maxPendingRows() && waiting.size() > 1) {
            Recordable dropped = waiting.poll();
            waitingRows -= dropped.rows();
            if (droppedWhileClosed++ == 0) {
                LOG.warn("Virtue's database is still not open: the oldest waiting measurements are dropped");
            }
        }
    }

    /** Deletes an experiment's rows; refused as unavailable when the database cannot, so nothing is lost. */
    void delete(String id) {
        read("delete experiment " + id + "'s measurements", o -> {
            // what is queued first, so that no row of it comes back after the delete
            try {
                if (!o.recorder().awaitWritten(CLOSE_WAIT)) {
                    throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null, "cannot delete experiment " + id
                            + "'s measurements now: the database has not taken what is queued for it ("
                            + o.recorder().lastError().orElse("still writing") + ")");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null, "interrupted");
            }
            return o.experiments().delete(id);
        });
    }

    List<Instant> times(String id) {
        return read("read the rounds of " + id, o -> o.queries().times(id));
    }

    Optional<Round> roundAtOrBefore(String id, Instant at) {
        return read("read a round of " + id, o -> o.queries().roundAtOrBefore(id, at));
    }

    Optional<Round> latestRound(String id) {
        return read("read the latest round of " + id, o -> o.queries().latestRound(id));
    }

    Map<String, HostReport> reportsAtOrBefore(String id, Instant at) {
        return read("read the host reports of " + id, o -> o.queries().reportsAtOrBefore(id, at));
    }

    List<MetricSeries> series(String id, String vm) {
        return read("read the metric series of " + id, o -> o.queries().series(id, vm, null, null));
    }

    Averages averages(String id, Instant from, Instant to) {
        return read("average the measurements of " + id, o -> o.queries().averages(id, from, to));
    }

    Map<String, SampleSummary> summaries() {
        return read("count the rounds", o -> o.queries().summaries());
    }

    /** The database and its recorder, for the app's status. */
    synchronized Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("database", open != null ? open.database().description()
                : settings == null ? null : settings.databaseUrl().isEmpty() ? "embedded H2" : settings.databaseUrl());
        status.put("open", open != null);
        status.put("openError", openError);
        if (open != null) {
            Recorder.Status recorder = open.recorder().status();
            status.put("available", recorder.available());
            status.put("pending", recorder.pending());
            status.put("pendingRows", recorder.pendingRows());
            status.put("written", recorder.written());
            status.put("dropped", recorder.dropped() + droppedWhileClosed);
            status.put("lastError", open.recorder().lastError().orElse(null));
        } else {
            status.put("pending", (long) waiting.size());
            status.put("pendingRows", waitingRows);
            status.put("dropped", droppedWhileClosed);
        }
        return status;
    }

    private <T> T read(String what, Function<Open, T> query) {
        Open o;
        synchronized (this) {
            o = open;
        }
        if (o == null) {
            throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null, "cannot " + what
                    + ": the database is not open" + (openError == null ? "" : " (" + openError + ")"));
        }
        try {
            return query.apply(o);
        } catch (DatabaseException e) {
            throw new VirtueException(VirtueException.Kind.UNAVAILABLE, null, "cannot " + what + " now: "
                    + e.getMessage());
        }
    }
}
