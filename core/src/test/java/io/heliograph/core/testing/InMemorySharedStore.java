package io.heliograph.core.testing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.cluster.SharedStore;

/**
 * A {@link SharedStore} in the test's JVM, with the contract of the ZooKeeper one ({@link SharedStoreContract}
 * runs against both): versions that start at 0 and grow by one per write, conditional replace, update that retries when another write
 * came in between, recursive delete, watches that get the existing values and then every change in
 * order, leadership, and the same refusals of bad keys and values. Shared with the apps' tests
 * through core's test-jar.
 *
 * <p>Several controller instances sharing one store: {@link #anotherInstance(String)} gives a
 * second view of the same data with its own session, watches and candidacies, as a second JVM would
 * have. Each view can lose its session ({@link #setAvailable(boolean) setAvailable(false)}): then
 * every method of that view fails with {@link StoreUnavailableException}, its watches hear nothing
 * and its leaderships are lost (the leader is told before another instance leads); when it is
 * available again its watches are told what changed meanwhile, as Curator's caches do after a
 * reconnect.
 *
 * <p><b>Delivery is synchronous, for deterministic tests:</b> listeners (watches and leadership)
 * run on the thread whose call caused the event, before that call returns, so a test asserts right
 * after a write without waiting. The contract's "one store thread, in order" holds: events are
 * queued in the order of the writes and delivered by one thread at a time; a write made from
 * inside a listener is delivered after that listener returns (still before the outermost call
 * returns), never nested in it. When two threads write at once, the one already delivering delivers
 * the other's events too, so only then can a write return before its listeners ran. A listener that
 * throws is logged, as the real store does, and the others still hear the event.
 *
 * <p>As in the ZooKeeper store: keys with no value of their own but values below them (the parents
 * of a written key) hold nothing ({@link #get} is empty for them, {@link #list} and watches do not
 * show them), yet are ZooKeeper nodes with a version: the first value written to such a parent is
 * version 1, or one more than the version its value had before an update cleared it; a value is 1 to {@link #MAX_VALUE_BYTES} bytes (empty is refused: it would be a key
 * without value); an {@link #update} that deletes a key leaves the keys below it (a {@link #delete}
 * takes them too); {@link #list} and {@link #watch} take the empty prefix for the whole store; a
 * watch on a prefix also hears the prefix key itself; closing a leadership tells its listener it
 * leads no more.
 */
public class InMemorySharedStore implements SharedStore {

    private static final Logger LOG = LoggerFactory.getLogger(InMemorySharedStore.class);
    private static final int MAX_SEGMENT_LENGTH = 200;

    private final Data data;
    private final String instance;
    private volatile boolean available = true;
    private final List<PrefixWatch> watches = new CopyOnWriteArrayList<>();

    /** A new, empty store, seen by an instance named "instance-1". */
    public InMemorySharedStore() {
        this(new Data(), "instance-1");
    }

    private InMemorySharedStore(Data data, String instance) {
        this.data = data;
        this.instance = instance;
        synchronized (data) {
            data.instances.add(this);
        }
    }

    /** A view of the same data for another controller instance (its own session, watches and candidacies). */
    public InMemorySharedStore anotherInstance(String name) {
        return new InMemorySharedStore(data, name);
    }

    /** The instance name given at creation, used in messages. */
    public String instanceName() {
        return instance;
    }

    // --- what the test controls ---

    /**
     * Gives this instance's session back or takes it away. Taking it away makes every method fail
     * with StoreUnavailableException, silences this instance's watches and tells its leaderships they
     * are lost (and gives them to another instance's candidate). Giving it back tells the watches
     * every change they missed and lets its candidates lead again where nobody leads.
     */
    public void setAvailable(boolean available) {
        synchronized (data) {
            if (this.available == available) {
                return;
            }
            this.available = available;
            if (available) {
                watches.forEach(w -> w.catchUp(data.values));
                data.elections.values().forEach(Election::electIfNobodyLeads);
            } else {
                data.elections.values().forEach(e -> e.dropLeaderOf(this));
            }
        }
        data.deliver();
    }

    public boolean isAvailable() {
        return available;
    }

    /**
     * Makes this instance's candidate for {@code name} the leader, as if it had won the election:
     * the current leader is told it lost first. Fails when this instance is not competing for it.
     */
    public void makeLeader(String name) {
        synchronized (data) {
            requireAvailable();
            Election election = data.elections.get(name);
            Candidate candidate = election == null ? null : election.candidateOf(this);
            if (candidate == null) {
                throw new IllegalStateException(instance + " is not competing for the leadership of '" + name
                        + "': call lead(\"" + name + "\", listener) first");
            }
            election.setLeader(candidate);
        }
        data.deliver();
    }

    /** Whether this instance leads {@code name} now. */
    public boolean isLeader(String name) {
        synchronized (data) {
            Election election = data.elections.get(name);
            return election != null && election.leader != null && election.leader.owner == this;
        }
    }

    // --- SharedStore ---

    @Override
    public Optional<Versioned> get(String key) {
        checkKey(key);
        synchronized (data) {
            requireAvailable();
            Versioned v = data.values.get(key);
            return Optional.ofNullable(v).map(InMemorySharedStore::copy);
        }
    }

    @Override
    public Versioned put(String key, byte[] value) {
        checkKey(key);
        checkValue(key, value);
        Versioned written;
        synchronized (data) {
            requireAvailable();
            written = data.write(key, value);
        }
        data.deliver();
        return copy(written);
    }

    @Override
    public Optional<Versioned> replace(String key, long expectedVersion, byte[] value) {
        checkKey(key);
        checkValue(key, value);
        if (expectedVersion < Versioned.ABSENT || expectedVersion > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("expected version " + expectedVersion + " of key '" + key
                    + "' is not a version: versions are 0 to " + Integer.MAX_VALUE
                    + " (ZooKeeper's), and Versioned.ABSENT (-1) means the key must not exist");
        }
        Versioned written;
        synchronized (data) {
            requireAvailable();
            if (data.versionOf(key) != expectedVersion) {
                return Optional.empty();
            }
            written = data.write(key, value);
        }
        data.deliver();
        return Optional.of(copy(written));
    }

    @Override
    public Optional<Versioned> update(String key, UnaryOperator<byte[]> change) {
        checkKey(key);
        while (true) {
            Versioned before;
            synchronized (data) {
                requireAvailable();
                before = data.values.get(key);
            }
            // Outside the lock, as in ZooKeeper: another write may come in between (the change itself may make one)
            byte[] after = change.apply(before == null ? null : before.value().clone());
            if (after != null) {
                checkValue(key, after);
            }
            Optional<Versioned> result;
            synchronized (data) {
                requireAvailable();
                long expected = before == null ? Versioned.ABSENT : before.version();
                if (data.versionOf(key) != expected) {
                    continue;
                }
                if (after == null) {
                    data.removeValue(key);
                    result = Optional.empty();
                } else {
                    result = Optional.of(copy(data.write(key, after)));
                }
            }
            data.deliver();
            return result;
        }
    }

    @Override
    public boolean delete(String key) {
        checkKey(key);
        boolean deleted;
        synchronized (data) {
            requireAvailable();
            deleted = data.remove(key);
        }
        data.deliver();
        return deleted;
    }

    @Override
    public Map<String, Versioned> list(String parent) {
        checkPrefix(parent);
        synchronized (data) {
            requireAvailable();
            Map<String, Versioned> children = new LinkedHashMap<>();
            data.below(parent).forEach((key, value) -> {
                String name = parent.isEmpty() ? key : key.substring(parent.length() + 1);
                if (name.indexOf('/') < 0) {
                    children.put(name, copy(value));
                }
            });
            return Collections.unmodifiableMap(children);
        }
    }

    @Override
    public Watch watch(String prefix, StoreListener listener) {
        checkPrefix(prefix);
        if (listener == null) {
            throw new IllegalArgumentException("the listener of a watch on '" + prefix + "' is null");
        }
        PrefixWatch watch = new PrefixWatch(prefix, listener);
        synchronized (data) {
            requireAvailable();
            watches.add(watch);
            watch.catchUp(data.values);
        }
        data.deliver();
        return watch;
    }

    @Override
    public Watch lead(String name, LeadershipListener listener) {
        checkKey(name);
        if (listener == null) {
            throw new IllegalArgumentException("the listener of the leadership of '" + name + "' is null");
        }
        Candidate candidate;
        synchronized (data) {
            requireAvailable();
            Election election = data.elections.computeIfAbsent(name, n -> new Election(data));
            candidate = new Candidate(this, listener, election);
            election.candidates.add(candidate);
            election.electIfNobodyLeads();
        }
        data.deliver();
        return candidate;
    }

    @Override
    public String toString() {
        return "InMemorySharedStore[" + instance + (available ? "" : ", unavailable") + "]";
    }

    // --- checks ---

    private void requireAvailable() {
        if (!available) {
            throw new StoreUnavailableException(instance + " has no ZooKeeper session (the test made its store unavailable)",
                    null);
        }
    }

    /** A key, or the empty prefix: the whole store. */
    static void checkPrefix(String prefix) {
        if (prefix == null || !prefix.isEmpty()) {
            checkKey(prefix);
        }
    }

    /** The rule of the SharedStore javadoc: segments of 1-200 letters, digits and . _ - : @, separated by '/', never "." or "..". */
    static void checkKey(String key) {
        if (key == null) {
            throw new IllegalArgumentException("the key is null");
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException("the key is empty: a key is segments separated by '/'");
        }
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty()) {
                throw new IllegalArgumentException("key '" + key + "' has an empty segment (a '/' at its start or end, or '//')");
            }
            if (segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("key '" + key + "' has the segment '" + segment
                        + "', which ZooKeeper would read as a relative path");
            }
            if (segment.length() > MAX_SEGMENT_LENGTH) {
                throw new IllegalArgumentException("key '" + key + "' has a segment of " + segment.length()
                        + " characters, more than " + MAX_SEGMENT_LENGTH);
            }
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                boolean allowed = c < 128 && (Character.isLetterOrDigit(c) || ".-_:@".indexOf(c) >= 0);
                if (!allowed) {
                    throw new IllegalArgumentException("key '" + key + "' has the character '" + c + "' in segment '"
                            + segment + "': only letters, digits and . _ - : @ are allowed");
                }
            }
        }
    }

    private static void checkValue(String key, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("the value for key '" + key + "' is null (delete the key instead)");
        }
        if (value.length == 0) {
            throw new IllegalArgumentException("the value for key '" + key + "' is empty: values are 1 to "
                    + MAX_VALUE_BYTES + " bytes (delete the key instead)");
        }
        if (value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("the value for key '" + key + "' is " + value.length
                    + " bytes, more than the " + MAX_VALUE_BYTES + " a key may hold");
        }
    }

    /** Values leave and enter the store as copies, as they would through ZooKeeper. */
    private static Versioned copy(Versioned v) {
        return new Versioned(v.key(), v.value().clone(), v.version());
    }

    // --- the shared data ---

    /** What every instance sees: the values, the elections, and the queue of events to deliver. Guarded by itself. */
    private static final class Data {
        final NavigableMap<String, Versioned> values = new TreeMap<>();
        /**
         * The version of each ZooKeeper node that is only a parent now but had a value cleared by an
         * update (its data set to nothing, which counted as a write). Other parents are at 0.
         */
        private final Map<String, Long> clearedParents = new HashMap<>();
        final Map<String, Election> elections = new HashMap<>();
        final List<InMemorySharedStore> instances = new ArrayList<>();
        private final Queue<Runnable> events = new ArrayDeque<>();
        private final ReentrantLock delivering = new ReentrantLock();

        long versionOf(String key) {
            Versioned v = values.get(key);
            return v == null ? Versioned.ABSENT : v.version();
        }

        /**
         * The version of the key's ZooKeeper node: its value's, a parent's (a node without data),
         * or ABSENT when there is no node, so that a write continues from it as ZooKeeper's does.
         */
        private long nodeVersion(String key) {
            if (values.containsKey(key)) {
                return values.get(key).version();
            }
            return below(key).isEmpty() ? Versioned.ABSENT : clearedParents.getOrDefault(key, 0L);
        }

        Versioned write(String key, byte[] value) {
            Versioned written = new Versioned(key, value.clone(), nodeVersion(key) + 1);
            values.put(key, written);
            clearedParents.remove(key);
            forEachListeningWatch(key, w -> w.changed(written));
            return written;
        }

        /** Removes a key's own value, leaving the keys below it. */
        void removeValue(String key) {
            Versioned removed = values.remove(key);
            if (removed != null) {
                if (!below(key).isEmpty()) {
                    clearedParents.put(key, removed.version() + 1);
                } else {
                    clearedParents.keySet().removeIf(k -> below(k).isEmpty());
                }
                forEachListeningWatch(key, w -> w.removed(key));
            }
        }

        /** Removes a key and everything below it, children first as ZooKeeper does; false when there was nothing. */
        boolean remove(String key) {
            List<String> gone = new ArrayList<>(below(key).descendingKeySet());
            if (values.containsKey(key)) {
                gone.add(key);
            }
            for (String k : gone) {
                values.remove(k);
                forEachListeningWatch(k, w -> w.removed(k));
            }
            // the parents left with nothing below are deleted, as the ZooKeeper store prunes them
            clearedParents.keySet().removeIf(k -> below(k).isEmpty());
            return !gone.isEmpty();
        }

        /** The values strictly below a key (every value for the empty prefix), in key order. */
        NavigableMap<String, Versioned> below(String key) {
            if (key.isEmpty()) {
                return values;
            }
            // '/' + 1 is '0': every key below "a" starts with "a/", and sorts before "a0"
            return values.subMap(key + "/", true, key + "0", false);
        }

        private void forEachListeningWatch(String key, Consumer<PrefixWatch> action) {
            for (InMemorySharedStore store : instances) {
                if (store.available) {
                    for (PrefixWatch w : store.watches) {
                        if (w.covers(key)) {
                            action.accept(w);
                        }
                    }
                }
            }
        }

        /** Queued under the lock, in the order the changes were made. */
        void enqueue(Runnable event) {
            events.add(event);
        }

        /** Delivers the queued events in order, one thread at a time, never nested in a listener. */
        void deliver() {
            while (!delivering.isHeldByCurrentThread() && delivering.tryLock()) {
                try {
                    Runnable event;
                    while ((event = next()) != null) {
                        event.run();
                    }
                } finally {
                    delivering.unlock();
                }
                synchronized (this) {
                    // Another thread may have queued an event after our last look and left it to us
                    if (events.isEmpty()) {
                        return;
                    }
                }
            }
        }

        private synchronized Runnable next() {
            return events.poll();
        }
    }

    /** One watch of one instance; {@code seen} is what its listener has been (or is queued to be) told. */
    private final class PrefixWatch implements Watch {
        private final String prefix;
        private final StoreListener listener;
        private final Map<String, Long> seen = new HashMap<>();
        private volatile boolean closed;

        PrefixWatch(String prefix, StoreListener listener) {
            this.prefix = prefix;
            this.listener = listener;
        }

        /** The prefix key itself and every key below it, as a Curator cache on the prefix's node sees them. */
        boolean covers(String key) {
            return prefix.isEmpty() || key.equals(prefix)
                    || key.startsWith(prefix) && key.length() > prefix.length() && key.charAt(prefix.length()) == '/';
        }

        /** Under the data lock: tells the listener every value it has not seen and every key gone since. */
        void catchUp(NavigableMap<String, Versioned> values) {
            NavigableMap<String, Versioned> now = new TreeMap<>(data.below(prefix));
            if (values.containsKey(prefix)) {
                now.put(prefix, values.get(prefix));
            }
            for (String key : List.copyOf(seen.keySet())) {
                if (!now.containsKey(key)) {
                    removed(key);
                }
            }
            now.values().forEach(v -> {
                Long version = seen.get(v.key());
                if (version == null || version != v.version()) {
                    changed(v);
                }
            });
        }

        void changed(Versioned value) {
            seen.put(value.key(), value.version());
            Versioned delivered = copy(value);
            data.enqueue(() -> {
                if (!closed) {
                    safely(() -> listener.changed(delivered), "changed " + delivered.key());
                }
            });
        }

        void removed(String key) {
            seen.remove(key);
            data.enqueue(() -> {
                if (!closed) {
                    safely(() -> listener.removed(key), "removed " + key);
                }
            });
        }

        @Override
        public void close() {
            closed = true;
            watches.remove(this);
        }

        @Override
        public String toString() {
            return "watch of " + instance + " on '" + prefix + "'";
        }
    }

    /** Who competes for one leadership, and who leads. Guarded by the data lock. */
    private static final class Election {
        private final Data data;
        final List<Candidate> candidates = new ArrayList<>();
        Candidate leader;

        Election(Data data) {
            this.data = data;
        }

        Candidate candidateOf(InMemorySharedStore store) {
            return candidates.stream().filter(c -> c.owner == store).findFirst().orElse(null);
        }

        /** The first available candidate in order of asking leads, when nobody does. */
        void electIfNobodyLeads() {
            if (leader == null) {
                candidates.stream().filter(c -> c.owner.available).findFirst().ifPresent(this::setLeader);
            }
        }

        void setLeader(Candidate next) {
            if (leader == next) {
                return;
            }
            if (leader != null) {
                leader.tell(false);
            }
            leader = next;
            next.tell(true);
        }

        /** The store of a leader lost its session: it is told first, then another leads. */
        void dropLeaderOf(InMemorySharedStore store) {
            if (leader != null && leader.owner == store) {
                leader.tell(false);
                leader = null;
                electIfNobodyLeads();
            }
        }

        void withdraw(Candidate candidate) {
            candidates.remove(candidate);
            if (leader == candidate) {
                leader = null;
                electIfNobodyLeads();
            }
        }
    }

    private static final class Candidate implements Watch {
        final InMemorySharedStore owner;
        private final LeadershipListener listener;
        private final Election election;
        private volatile boolean closed;

        Candidate(InMemorySharedStore owner, LeadershipListener listener, Election election) {
            this.owner = owner;
            this.listener = listener;
            this.election = election;
        }

        void tell(boolean leader) {
            election.data.enqueue(() -> {
                if (!closed) {
                    safely(() -> listener.leadershipChanged(leader), (leader ? "gained" : "lost") + " leadership");
                }
            });
        }

        /** Gives the leadership up; a leader is told it leads no more, as the ZooKeeper store does. */
        @Override
        public void close() {
            synchronized (election.data) {
                if (closed) {
                    return;
                }
                if (election.leader == this) {
                    election.data.enqueue(() -> safely(() -> listener.leadershipChanged(false), "lost leadership"));
                }
                closed = true;
                election.withdraw(this);
            }
            election.data.deliver();
        }
    }

    private static void safely(Runnable call, String event) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.error("A SharedStore listener failed on {}", event, e);
        }
    }

}
