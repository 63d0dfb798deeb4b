package io.heliograph.core.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SharedStore.Versioned;

/**
 * What each instance of the cluster discovered for itself, shared: this instance's entries are kept
 * under {@code <prefix>/<its id>/<entry id>} in the {@link SharedStore}, and the entries of the other
 * live instances are handed to a {@link Listener}. An app keeps its discoveries locally, as it would
 * alone, and tells this class what they are; it hears of the others' and merges them into its view.
 *
 * <p>Writes are coalesced: a change is written at most {@code flushDelayMs} after it was made, with
 * every other change made meanwhile, and only the entries whose value changed are written (a value
 * set back to what the store holds writes nothing). While no other instance is live nobody reads our
 * entries, so the changes wait, and are written when one joins: an instance alone (the default
 * single-controller setup) spends nothing on the store for each host or link it discovers, which on
 * one core had cost its packet-ins about a third of the core while a flood of new hosts was learned.
 * This instance's local state is the truth: an entry of ours that someone else deletes or changes
 * (a janitor that took us for gone while our ZooKeeper session was lost, a stale entry from our
 * previous run) is written or deleted again, so the store heals itself.
 *
 * <p>An instance's entries count while it is live ({@link ClusterService#getInstances()}) and for
 * {@code retainMs} after it leaves: what it discovered stays true for a while without it (a link, a
 * host), and meanwhile the instances that take its work over find the same things again under their
 * own names, so the merged view does not lose them and come back. Then the listener hears each of
 * them removed, and the first live instance (by id) deletes them from the store, one at a time,
 * stopping if the instance comes back meanwhile; entries of an instance that never came back are
 * deleted the same way once it has been absent for a while. Entries that arrive before their
 * instance is known to be live (the store's watch and the membership are two views that need not
 * agree at every moment) are held back until it is.
 *
 * <p>Thread-safe. Store writes run on the given executor, never on the caller's thread. The listener
 * is called on the store's or the cluster's thread, one call at a time, and must not block.
 */
public final class OwnedEntries implements ClusterListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OwnedEntries.class);

    /** How long a change waits for others to be written with it, unless told otherwise. */
    public static final long DEFAULT_FLUSH_DELAY_MS = 150;
    /** After the store refused a write (no session), when to try again if no reconnection says so first. */
    static final long RETRY_MS = 1_000;
    /** How often membership is checked against the entries held, and entries of long-gone instances removed. */
    static final long SWEEP_MS = 5_000;

    /** Hears the entries of the other live instances. */
    public interface Listener {

        /** An entry of another live instance appeared or changed, or its instance became live. */
        void changed(String owner, String id, byte[] value);

        /** An entry of another instance is gone: deleted, or its instance left the cluster. */
        void removed(String owner, String id);
    }

    private final SharedStore store;
    private final ClusterService cluster;
    private final String prefix;
    private final String self;
    private final Listener listener;
    private final ScheduledExecutorService thread;
    private final long flushDelayMs;
    private final long retainMs;
    private final LongSupplier clockMs;
    private final LongAdder writes = new LongAdder();

    // Guarded by this.
    private final Map<String, byte[]> desired = new HashMap<>();
    private final Map<String, Stored> stored = new HashMap<>();
    private final Set<String> dirty = new LinkedHashSet<>();
    private final Map<String, Map<String, byte[]>> others = new HashMap<>();
    private final Set<String> live = new HashSet<>();
    /** Instances that left less than retainMs ago: their entries are still in the listener's view. */
    private final Set<String> retained = new HashSet<>();
    private final Map<String, Long> absentSince = new HashMap<>();
    private boolean flushQueued;
    private boolean started;
    private boolean closed;
    private SharedStore.Watch watch;
    private ScheduledFuture<?> sweeps;

    /**
     * @param prefix       where every instance keeps its entries ({@code topology/links}): a key of the store
     * @param flushDelayMs how long a change waits for others to be written with it
     * @param retainMs     how long the entries of an instance that left stay in the view (0: they leave with it)
     * @param thread       runs the store writes and the periodic sweep; a single thread keeps them in order
     */
    public OwnedEntries(SharedStore store, ClusterService cluster, String prefix, Listener listener,
            ScheduledExecutorService thread, long flushDelayMs, long retainMs) {
        this.store = Objects.requireNonNull(store, "store");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.thread = Objects.requireNonNull(thread, "thread");
        if (prefix == null || prefix.isEmpty() || prefix.startsWith("/") || prefix.endsWith("/")) {
            throw new IllegalArgumentException("the prefix must be a store key such as 'topology/links', was '"
                    + prefix + "'");
        }
        if (flushDelayMs < 0) {
            throw new IllegalArgumentException("flushDelayMs must not be negative, was " + flushDelayMs);
        }
        if (retainMs < 0) {
            throw new IllegalArgumentException("retainMs must not be negative, was " + retainMs);
        }
        this.retainMs = retainMs;
        this.prefix = prefix;
        this.flushDelayMs = flushDelayMs;
        this.self = cluster.getLocalInstance().id();
        this.clockMs = () -> System.nanoTime() / 1_000_000;
    }

    /** This instance's id: the owner of the entries it puts. */
    public String self() {
        return self;
    }

    /** The store writes made so far (puts and deletes), for the write rate. */
    public long writes() {
        return writes.sum();
    }

    /**
     * Starts watching the others' entries and writing ours. A watch the store refuses (no session
     * now) is asked for again when the session is back.
     */
    public void start() {
        synchronized (this) {
            if (started || closed) {
                return;
            }
            started = true;
            live.addAll(cluster.getInstances().keySet());
            sweeps = thread.scheduleWithFixedDelay(this::sweepSafely, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        }
        // The watch's first values come back on this thread, through handlers that take the lock.
        startWatch();
        synchronized (this) {
            queueFlush();
        }
    }

    /** Sets one of this instance's entries; written with the next flush if it differs from the store's. */
    public synchronized void put(String id, byte[] value) {
        checkId(id);
        Objects.requireNonNull(value, "value");
        if (value.length > SharedStore.MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("entry '" + id + "' is " + value.length + " bytes, more than the "
                    + SharedStore.MAX_VALUE_BYTES + " a store value may hold");
        }
        byte[] copy = value.clone();
        byte[] before = desired.put(id, copy);
        if (before == null || !Arrays.equals(before, copy)) {
            markDirty(id);
        }
    }

    /** Removes one of this instance's entries; deleted from the store with the next flush. */
    public synchronized void remove(String id) {
        checkId(id);
        if (desired.remove(id) != null) {
            markDirty(id);
        }
    }

    /** This instance's entries, as it set them. */
    public synchronized Set<String> ids() {
        return Set.copyOf(desired.keySet());
    }

    /**
     * Writes the changes made since the last flush now, on the calling thread. The flush thread does
     * this on its own; tests and {@link #close()} call it. A write the store refuses (no session) is
     * kept for the next flush.
     */
    public void flush() {
        List<String> ids = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        synchronized (this) {
            flushQueued = false;
            if (closed || alone()) {
                return; // alone, the dirty entries wait for the next instance to join
            }
            for (String id : dirty) {
                byte[] want = desired.get(id);
                Stored have = stored.get(id);
                boolean same = want == null ? have == null : have != null && Arrays.equals(have.value, want);
                if (!same) {
                    ids.add(id);
                    values.add(want);
                }
            }
            dirty.clear();
        }
        if (!ids.isEmpty()) {
            LOG.debug("{}: writing {} entries ({} writes before)", prefix, ids.size(), writes.sum());
        }
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            byte[] value = values.get(i);
            try {
                if (value == null) {
                    store.delete(key(self, id));
                    synchronized (this) {
                        stored.remove(id);
                    }
                } else {
                    Versioned written = store.put(key(self, id), value);
                    synchronized (this) {
                        Stored have = stored.get(id);
                        if (have == null || have.version < written.version()) {
                            stored.put(id, new Stored(value, written.version()));
                        }
                    }
                }
                writes.increment();
            } catch (StoreUnavailableException e) {
                synchronized (this) {
                    dirty.addAll(ids.subList(i, ids.size()));
                    retryLater();
                }
                LOG.debug("{}: {} entries not written, no ZooKeeper session: {}", prefix, ids.size() - i,
                        e.getMessage());
                return;
            } catch (RuntimeException e) {
                LOG.warn("{}: entry '{}' could not be written", prefix, id, e);
            }
        }
    }

    /** Stops watching and writing, and deletes this instance's entries from the store (best effort). */
    @Override
    public void close() {
        SharedStore.Watch closing;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            closing = watch;
            watch = null;
            if (sweeps != null) {
                sweeps.cancel(false);
            }
        }
        if (closing != null) {
            closing.close();
        }
        try {
            store.delete(prefix + "/" + self);
        } catch (RuntimeException e) {
            LOG.debug("{}: this instance's entries were left for the others to remove: {}", prefix, e.toString());
        }
    }

    // ClusterListener: the component forwards the cluster's calls

    @Override
    public void instanceJoined(ClusterInstance instance) {
        joined(instance.id());
    }

    @Override
    public void instanceLeft(ClusterInstance instance) {
        left(instance.id());
    }

    /** Back in session: a watch that could not start starts now, and changes held back are written. */
    @Override
    public void connectionChanged(boolean connected) {
        if (!connected) {
            return;
        }
        boolean needWatch;
        synchronized (this) {
            needWatch = started && !closed && watch == null;
        }
        if (needWatch) {
            execute(this::startWatch);
        }
        execute(this::sweepSafely);
        synchronized (this) {
            if (!dirty.isEmpty()) {
                queueFlush();
            }
        }
    }

    // The others' entries

    private synchronized void joined(String owner) {
        if (owner.equals(self) || !live.add(owner)) {
            return;
        }
        retained.remove(owner);
        absentSince.remove(owner);
        others.getOrDefault(owner, Map.of()).forEach((id, value) -> listener.changed(owner, id, value));
        if (!dirty.isEmpty()) {
            queueFlush(); // what changed while we were alone
        }
    }

    /** No other instance is live: nobody reads our entries. */
    private boolean alone() {
        for (String id : live) {
            if (!id.equals(self)) {
                return false;
            }
        }
        return true;
    }

    private void left(String owner) {
        boolean clean;
        synchronized (this) {
            if (owner.equals(self) || !live.remove(owner)) {
                return;
            }
            absentSince.put(owner, clockMs.getAsLong());
            if (retainMs > 0) {
                retained.add(owner);
                try {
                    thread.schedule(() -> expire(owner), retainMs, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    return; // stopping
                }
                return;
            }
            others.getOrDefault(owner, Map.of()).keySet().forEach(id -> listener.removed(owner, id));
            clean = others.containsKey(owner) && isJanitor();
        }
        if (clean) {
            execute(() -> deleteEntriesOf(owner));
        }
    }

    /** The retention of an instance that left is over: its entries leave the view, and the store. */
    private void expire(String owner) {
        boolean clean;
        synchronized (this) {
            if (closed || !retained.remove(owner)) {
                return; // it came back meanwhile
            }
            Map<String, byte[]> entries = others.getOrDefault(owner, Map.of());
            if (!entries.isEmpty()) {
                LOG.info("{}: the {} entries of instance {}, which left {} ms ago, leave the view", prefix,
                        entries.size(), owner, retainMs);
            }
            entries.keySet().forEach(id -> listener.removed(owner, id));
            clean = others.containsKey(owner) && isJanitor();
        }
        if (clean) {
            deleteEntriesOf(owner);
        }
    }

    /** The store's watch: every entry below the prefix, ours and the others'. */
    private final class EntriesWatch implements SharedStore.StoreListener {

        @Override
        public void changed(Versioned value) {
            String[] ownerAndId = parse(value.key());
            if (ownerAndId == null) {
                return;
            }
            String owner = ownerAndId[0];
            String id = ownerAndId[1];
            synchronized (OwnedEntries.this) {
                if (closed) {
                    return;
                }
                if (owner.equals(self)) {
                    ownEntrySeen(id, value);
                    return;
                }
                others.computeIfAbsent(owner, o -> new HashMap<>()).put(id, value.value());
                if (live.contains(owner)) {
                    listener.changed(owner, id, value.value());
                } else {
                    absentSince.putIfAbsent(owner, clockMs.getAsLong());
                }
            }
        }

        @Override
        public void removed(String key) {
            String[] ownerAndId = parse(key);
            if (ownerAndId == null) {
                return;
            }
            String owner = ownerAndId[0];
            String id = ownerAndId[1];
            synchronized (OwnedEntries.this) {
                if (closed) {
                    return;
                }
                if (owner.equals(self)) {
                    stored.remove(id);
                    if (desired.containsKey(id)) {
                        markDirty(id); // someone deleted an entry we still hold: write it again
                    }
                    return;
                }
                Map<String, byte[]> entries = others.get(owner);
                if (entries == null || entries.remove(id) == null) {
                    return;
                }
                if (entries.isEmpty()) {
                    others.remove(owner);
                }
                if (live.contains(owner) || retained.contains(owner)) {
                    listener.removed(owner, id);
                }
            }
        }
    }

    /**
     * One of our own entries as the store holds it: an older write of ours coming back is ignored;
     * anything else that differs from what we hold (a stale entry from our previous run, a value
     * someone else wrote) is set right by the next flush.
     */
    private void ownEntrySeen(String id, Versioned value) {
        Stored have = stored.get(id);
        if (have != null && value.version() <= have.version) {
            return;
        }
        stored.put(id, new Stored(value.value(), value.version()));
        byte[] want = desired.get(id);
        if (want == null || !Arrays.equals(want, value.value())) {
            markDirty(id);
        }
    }

    private void startWatch() {
        synchronized (this) {
            if (closed || watch != null) {
                return;
            }
        }
        try {
            SharedStore.Watch started = store.watch(prefix, new EntriesWatch());
            boolean keep;
            synchronized (this) {
                keep = !closed && watch == null;
                if (keep) {
                    watch = started;
                }
            }
            if (!keep) {
                started.close();
            }
        } catch (StoreUnavailableException e) {
            LOG.debug("{}: no ZooKeeper session to watch the others' entries; again when it is back", prefix);
            synchronized (this) {
                retryLater();
            }
        }
    }

    /**
     * Membership as the cluster service has it now, in case a join or leave was missed (this
     * instance was out of session meanwhile); then the entries of instances gone for long enough are
     * deleted by the janitor.
     */
    private void sweepSafely() {
        try {
            sweep();
        } catch (RuntimeException e) {
            LOG.warn("{}: the sweep of the others' entries failed", prefix, e);
        }
    }

    private void sweep() {
        Set<String> now = Set.copyOf(cluster.getInstances().keySet());
        Set<String> wasLive;
        synchronized (this) {
            if (closed) {
                return;
            }
            wasLive = Set.copyOf(live);
        }
        for (String id : now) {
            if (!wasLive.contains(id)) {
                joined(id);
            }
        }
        for (String id : wasLive) {
            if (!now.contains(id)) {
                left(id);
            }
        }
        List<String> gone = new ArrayList<>();
        synchronized (this) {
            if (started && watch == null) {
                execute(this::startWatch);
            }
            if (!dirty.isEmpty()) {
                queueFlush();
            }
            if (!isJanitor()) {
                return;
            }
            long cutoff = clockMs.getAsLong() - SWEEP_MS;
            for (String owner : others.keySet()) {
                Long since = absentSince.get(owner);
                if (!live.contains(owner) && !retained.contains(owner) && since != null && since <= cutoff) {
                    gone.add(owner);
                }
            }
        }
        gone.forEach(this::deleteEntriesOf);
    }

    /**
     * Deletes the entries of an instance that left, one key at a time, and stops as soon as it is live
     * again: from then on what it holds in the store is its own. Deleting its whole subtree at once
     * would not stop: ZooKeeper's recursive delete starts over whenever a new entry appears below, and
     * an instance back after a lost session writes again each entry it sees deleted, so the two kept
     * each other busy for as long as both ran, the janitor's own writes waiting behind (seen under load
     * in ClusterTopologyIT: some 250 writes in 8 s from an instance whose session had expired for a
     * second). The store prunes the owner's key once its last entry is gone.
     */
    private void deleteEntriesOf(String owner) {
        List<String> ids;
        synchronized (this) {
            if (closed || live.contains(owner) || retained.contains(owner)) {
                return;
            }
            ids = List.copyOf(others.getOrDefault(owner, Map.of()).keySet());
        }
        int deleted = 0;
        try {
            for (String id : ids) {
                synchronized (this) {
                    if (closed || live.contains(owner) || retained.contains(owner)) {
                        LOG.info("{}: instance {} is back; {} of its entries were deleted, the others stay", prefix,
                                owner, deleted);
                        return;
                    }
                }
                if (store.delete(key(owner, id))) {
                    writes.increment();
                    deleted++;
                }
            }
        } catch (StoreUnavailableException e) {
            LOG.debug("{}: the remaining entries of {} stay until the next sweep: {}", prefix, owner, e.getMessage());
            return;
        }
        if (deleted > 0) {
            LOG.info("{}: removed the {} entries of instance {}, which left the cluster", prefix, deleted, owner);
        }
    }

    /** The first live instance by id cleans up after those that left, so they are deleted once. */
    private boolean isJanitor() {
        TreeSet<String> ids = new TreeSet<>(live);
        ids.add(self);
        return ids.first().equals(self);
    }

    private void markDirty(String id) {
        dirty.add(id);
        queueFlush();
    }

    private void queueFlush() {
        if (flushQueued || closed || !started) {
            return;
        }
        flushQueued = true;
        try {
            thread.schedule(this::flushSafely, flushDelayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            flushQueued = false; // stopping
        }
    }

    private void retryLater() {
        if (closed) {
            return;
        }
        try {
            thread.schedule(() -> {
                startWatch();
                flushSafely();
            }, RETRY_MS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    private void flushSafely() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warn("{}: writing this instance's entries failed", prefix, e);
        }
    }

    private void execute(Runnable task) {
        try {
            thread.execute(task);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    private String key(String owner, String id) {
        return prefix + "/" + owner + "/" + id;
    }

    /** {owner, id} of a key directly below {@code prefix/<owner>/}, or null for any other key. */
    private String[] parse(String key) {
        if (!key.startsWith(prefix + "/")) {
            return null;
        }
        String rest = key.substring(prefix.length() + 1);
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1 || rest.indexOf('/', slash + 1) >= 0) {
            LOG.debug("{}: key '{}' is not <owner>/<id> below the prefix; ignored", prefix, key);
            return null;
        }
        return new String[] {rest.substring(0, slash), rest.substring(slash + 1)};
    }

    private static void checkId(String id) {
        if (id == null || id.isEmpty() || id.indexOf('/') >= 0) {
            throw new IllegalArgumentException("an entry id is one key segment (no '/'), was '" + id + "'");
        }
    }

    /** What the store holds of one of our entries, as last written or seen. */
    private record Stored(byte[] value, long version) {
    }
}
