package io.heliograph.virtue.store;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.WorkerThreads;

/**
 * Write-behind for rounds and host reports: {@link #submit} queues and returns at once, one writer thread
 * stores the queue in order. While the database fails, what failed stays at the head of the queue and is
 * tried again, after 0.5 s, 1 s, 2 s, ... up to 10 s between tries, until the database answers: an outage
 * loses nothing that fits in the queue. The queue is bounded in rows ({@link Round#rows()}); when it is full
 * the oldest records are dropped, counted in {@link #dropped()} and logged once per episode.
 *
 * <p>A write the database refuses while it answers (a constraint: the experiment was deleted meanwhile) is
 * not retried: its records are tried one by one, and those refused are counted in {@link #rejected()} and
 * logged, so that one bad record cannot hold the queue forever. {@link Round} and {@link HostReport} check
 * their values when made, so this is rare.
 *
 * <p>{@link #close()} stops taking records and waits, bounded, for the queue to be written.
 */
public final class Recorder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);

    /**
     * @param maxPendingRows rows the queue holds before it drops the oldest records
     * @param maxBatchRows   rows written in one transaction at most (one record at least)
     * @param firstRetry     the wait before the first retry, doubled after each failure
     * @param maxRetry       the longest wait between retries
     * @param closeWait      how long {@link #close()} waits for the queue to be written
     */
    public record Options(int maxPendingRows, int maxBatchRows, Duration firstRetry, Duration maxRetry,
                          Duration closeWait) {

        public Options {
            if (maxPendingRows < 1 || maxBatchRows < 1) {
                throw new IllegalArgumentException("the queue and batch bounds must be 1 row or more");
            }
            Objects.requireNonNull(firstRetry, "firstRetry");
            Objects.requireNonNull(maxRetry, "maxRetry");
            Objects.requireNonNull(closeWait, "closeWait");
        }

        /** 200,000 rows queued (a 5 s round of a few hundred links and pairs: hours of outage), 5,000 a batch. */
        public static Options defaults() {
            return new Options(200_000, 5_000, Duration.ofMillis(500), Duration.ofSeconds(10), Duration.ofSeconds(10));
        }

        public Options withMaxPendingRows(int rows) {
            return new Options(rows, maxBatchRows, firstRetry, maxRetry, closeWait);
        }

        public Options withRetry(Duration first, Duration max) {
            return new Options(maxPendingRows, maxBatchRows, first, max, closeWait);
        }
    }

    /** What the REST health shows. */
    public record Status(boolean available, long pending, long pendingRows, long written, long dropped,
                         long rejected, String lastError, Instant lastErrorAt) {
    }

    private final Records records;
    private final Options options;
    private final Thread writer;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when records are queued, written or dropped, and on close. */
    private final Condition changed = lock.newCondition();
    /** Signalled only by close: ends a wait between retries. */
    private final Condition retryNow = lock.newCondition();
    private final ArrayDeque<Recordable> queue = new ArrayDeque<>();
    private List<Recordable> inFlight = List.of();
    private long queuedRows;
    private long inFlightRows;
    private long written;
    private long dropped;
    private long droppedThisEpisode;
    private long rejected;
    private boolean available = true;
    private Instant outageSince;
    private String lastError;
    private Instant lastErrorAt;
    private boolean closing;
    private boolean abandoned;

    public Recorder(Records records) {
        this(records, Options.defaults());
    }

    public Recorder(Records records, Options options) {
        this(records, options, WorkerThreads.named("virtue-recorder"));
    }

    public Recorder(Records records, Options options, ThreadFactory threads) {
        this.records = Objects.requireNonNull(records, "records");
        this.options = Objects.requireNonNull(options, "options");
        this.writer = threads.newThread(this::run);
        writer.start();
    }

    /** Queues {@code record} to be written; never blocks on the database. After {@link #close} it is dropped. */
    public void submit(Recordable record) {
        Objects.requireNonNull(record, "record");
        lock.lock();
        try {
            if (closing) {
                dropped++;
                LOG.debug("Virtue recorder closed: dropping a record of {} at {}", record.experiment(), record.at());
                return;
            }
            queue.addLast(record);
            queuedRows += record.rows();
            while (queuedRows + inFlightRows > options.maxPendingRows() && queue.size() > 1) {
                Recordable oldest = queue.removeFirst();
                queuedRows -= oldest.rows();
                dropped++;
                if (droppedThisEpisode++ == 0) {
                    LOG.warn("Virtue recorder: the queue is full ({} rows); dropping the oldest records, from {} at {}"
                            + " (logged once until the queue is written)", options.maxPendingRows(),
                            oldest.experiment(), oldest.at());
                }
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Records queued or being written, not yet stored. */
    public long pending() {
        lock.lock();
        try {
            return queue.size() + inFlight.size();
        } finally {
            lock.unlock();
        }
    }

    /** Records dropped: the oldest when the queue was full, and any submitted after close. */
    public long dropped() {
        lock.lock();
        try {
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    /** Records the database refused while it answered (never retried). */
    public long rejected() {
        lock.lock();
        try {
            return rejected;
        } finally {
            lock.unlock();
        }
    }

    /** False from a failed write until a write succeeds again. */
    public boolean available() {
        lock.lock();
        try {
            return available;
        } finally {
            lock.unlock();
        }
    }

    /** The last write failure's message, if any write has failed. */
    public Optional<String> lastError() {
        lock.lock();
        try {
            return Optional.ofNullable(lastError);
        } finally {
            lock.unlock();
        }
    }

    public Status status() {
        lock.lock();
        try {
            return new Status(available, queue.size() + inFlight.size(), queuedRows + inFlightRows, written, dropped,
                    rejected, lastError, lastErrorAt);
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every record submitted so far is written (or dropped); false if {@code timeout} passed first. */
    public boolean awaitWritten(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (!(queue.isEmpty() && inFlight.isEmpty())) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = changed.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** {@link #close(Duration)} with the options' wait. */
    @Override
    public void close() {
        close(options.closeWait());
    }

    /**
     * Takes no more records and waits up to {@code wait} for the queue to be written (retrying at once if the
     * writer was waiting to retry); returns how many records were left unwritten (logged when not 0).
     */
    public long close(Duration wait) {
        long left;
        lock.lock();
        try {
            closing = true;
            changed.signalAll();
            retryNow.signalAll();
            long remaining = wait.toNanos();
            while (!(queue.isEmpty() && inFlight.isEmpty()) && remaining > 0) {
                remaining = changed.awaitNanos(remaining);
            }
            left = queue.size() + inFlight.size();
            if (left > 0) {
                abandoned = true;
                LOG.warn("Virtue recorder closed with {} record(s) ({} rows) unwritten after {} ms; last error: {}",
                        left, queuedRows + inFlightRows, wait.toMillis(), lastError);
            }
            changed.signalAll();
            retryNow.signalAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandoned = true;
            left = queue.size() + inFlight.size();
        } finally {
            lock.unlock();
        }
        try {
            // The writer ends after its current transaction; a database that hangs cannot hold close() longer.
            writer.join(Math.max(1, Math.min(wait.toMillis(), 2_000)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return left;
    }

    private void run() {
        Duration backoff = options.firstRetry();
        while (true) {
            List<Recordable> batch = take();
            if (batch == null) {
                return;
            }
            try {
                records.writeBatch(batch);
                written(batch, batch.size());
                backoff = options.firstRetry();
                continue;
            } catch (SQLException e) {
                if (!VirtueDatabase.isConnectionFailure(e) && records.database().ping()) {
                    // The database answers and refused this batch: store what it takes, record by record.
                    if (writeOneByOne(batch)) {
                        backoff = options.firstRetry();
                        continue;
                    }
                } else {
                    failed(e, batch);
                }
            } catch (RuntimeException e) {
                failed(e, batch);
            }
            if (!pause(backoff)) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(options.maxRetry()) > 0 ? options.maxRetry() : backoff.multipliedBy(2);
        }
    }

    /** The batch in flight, or the next one from the queue; null when the recorder is done. */
    private List<Recordable> take() {
        lock.lock();
        try {
            while (queue.isEmpty() && inFlight.isEmpty() && !closing) {
                changed.awaitUninterruptibly();
            }
            if (abandoned || (closing && queue.isEmpty() && inFlight.isEmpty())) {
                return null;
            }
            if (inFlight.isEmpty()) {
                List<Recordable> batch = new ArrayList<>();
                long rows = 0;
                while (!queue.isEmpty() && (batch.isEmpty() || rows + queue.peekFirst().rows() <= options.maxBatchRows())) {
                    Recordable next = queue.removeFirst();
                    batch.add(next);
                    rows += next.rows();
                }
                queuedRows -= rows;
                inFlightRows = rows;
                inFlight = batch;
            }
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the batch a record at a time; records the database refuses are rejected. False (the rest stays in
     * flight, to retry) when the database stops answering meanwhile.
     */
    private boolean writeOneByOne(List<Recordable> batch) {
        int stored = 0;
        for (int i = 0; i < batch.size(); i++) {
            Recordable record = batch.get(i);
            try {
                records.writeBatch(List.of(record));
                stored++;
            } catch (SQLException e) {
                if (VirtueDatabase.isConnectionFailure(e) || !records.database().ping()) {
                    done(batch, i, stored);
                    failed(e, batch.subList(i, batch.size()));
                    return false;
                }
                lock.lock();
                try {
                    rejected++;
                    lastError = e.getMessage();
                    lastErrorAt = Instant.now();
                } finally {
                    lock.unlock();
                }
                LOG.warn("Virtue recorder: the database refused a record of {} at {} ({} rows); it is not retried: {}",
                        record.experiment(), record.at(), record.rows(), e.getMessage());
            } catch (RuntimeException e) {
                done(batch, i, stored);
                failed(e, batch.subList(i, batch.size()));
                return false;
            }
        }
        written(batch, stored);
        return true;
    }

    /** The first {@code count} records of the batch in flight are done with ({@code stored} of them stored). */
    private void done(List<Recordable> batch, int count, int stored) {
        if (count == 0) {
            return;
        }
        lock.lock();
        try {
            List<Recordable> rest = new ArrayList<>(batch.subList(count, batch.size()));
            inFlight = rest;
            inFlightRows = rest.stream().mapToLong(Recordable::rows).sum();
            written += stored;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The batch in flight is done with; {@code stored} of its records were stored. */
    private void written(List<Recordable> batch, int stored) {
        lock.lock();
        try {
            inFlight = List.of();
            inFlightRows = 0;
            written += stored;
            if (!available) {
                LOG.info("Virtue database {} answers again after {} s of failures; {} record(s) still queued",
                        records.database().description(),
                        outageSince == null ? 0 : Duration.between(outageSince, Instant.now()).toSeconds(), queue.size());
            }
            available = true;
            outageSince = null;
            if (queue.isEmpty() && droppedThisEpisode > 0) {
                LOG.warn("Virtue recorder: {} record(s) were dropped while the queue was full", droppedThisEpisode);
                droppedThisEpisode = 0;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void failed(Exception e, List<Recordable> batch) {
        lock.lock();
        try {
            lastError = e.getMessage();
            lastErrorAt = Instant.now();
            if (available) {
                available = false;
                outageSince = lastErrorAt;
                LOG.warn("Virtue database {} failed; keeping {} record(s) queued and retrying until it answers: {}",
                        records.database().description(), queue.size() + batch.size(), e.getMessage());
            } else {
                LOG.debug("Virtue database still failing: {}", e.getMessage());
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits {@code backoff} before the next try, or less if closing begins; false when the recorder is done. */
    private boolean pause(Duration backoff) {
        lock.lock();
        try {
            long remaining = backoff.toNanos();
            boolean wasClosing = closing;
            while (remaining > 0 && !abandoned && closing == wasClosing) {
                remaining = retryNow.awaitNanos(remaining);
            }
            return !abandoned;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }
}
