package io.heliograph.core.hybrid;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * One partition's forwarding table (FIB) as its local agent keeps it: the centre's current table, the
 * few previous ones as shadow tables, and the agent's own decisions, merged entry by entry.
 *
 * <p>A lookup answers the local decision for a key when there is one at least as specific as the
 * central one; otherwise the central decision of the version the request is tagged with, if it still
 * holds; otherwise a {@link Lookup.Miss} saying why, and the caller decides locally and
 * {@link #recordLocal records} it. A central decision holds while its evidence agrees with the current
 * observation ({@link #observe}: within the threshold; measurements not observed yet count as
 * agreeing) and names no element marked {@link #failed}, and while the centre is heard: once no
 * central table came for the centre timeout the table is in {@link Mode#DISTRIBUTED} mode and only
 * local decisions answer, until a new central table arrives.
 *
 * <p>When a newer central table is installed, the central decision for a key replaces the local one
 * if its evidence agrees with the current observation (the centre's view caught up); otherwise the
 * local decision stays.
 *
 * <p>Thread-safe: request threads look up while the agent's update thread installs and observes; one
 * lock guards everything, and nothing slow runs under it.
 *
 * @param <V> what is decided
 */
public final class HybridTable<V> {

    /** Whether central decisions answer. */
    public enum Mode {
        /** The centre was heard within its timeout: its fresh decisions answer. */
        CENTRAL,
        /** The centre is silent (or was never heard): only local decisions answer. */
        DISTRIBUTED
    }

    /**
     * How a table behaves.
     *
     * @param shadowTables  how many previous central tables are kept for requests tagged with their version
     * @param threshold     the relative change of a measurement that makes a decision stale
     * @param centreTimeout how long without a central table before the centre counts as silent
     *                      (VDN: twice the optimisation period)
     */
    public record Settings(int shadowTables, double threshold, Duration centreTimeout) {

        /** The number of shadow tables kept unless told otherwise. */
        public static final int DEFAULT_SHADOW_TABLES = 3;

        /** IllegalArgumentException for a negative count or threshold, or a timeout that is not positive. */
        public Settings {
            if (shadowTables < 0) {
                throw new IllegalArgumentException("shadow tables: 0 or more, not " + shadowTables);
            }
            if (!(threshold >= 0) || Double.isInfinite(threshold)) {
                throw new IllegalArgumentException("threshold: a finite number, 0 or more, not " + threshold);
            }
            if (centreTimeout == null || centreTimeout.isNegative() || centreTimeout.isZero()) {
                throw new IllegalArgumentException("centre timeout: positive, not " + centreTimeout);
            }
        }

        /** Three shadow tables and the 20 % threshold, with this centre timeout. */
        public static Settings withCentreTimeout(Duration centreTimeout) {
            return new Settings(DEFAULT_SHADOW_TABLES, Evidence.DEFAULT_THRESHOLD, centreTimeout);
        }
    }

    private final String partition;
    private final Settings settings;
    private final Clock clock;

    private DecisionTable<V> current;
    /** Previous central tables, newest first. */
    private final Deque<DecisionTable<V>> shadows = new ArrayDeque<>();
    private final PatternIndex<Decision<V>> locals = new PatternIndex<>();
    private final Map<String, Decision<V>> localsByKey = new LinkedHashMap<>();
    private final Map<String, Double> observation = new HashMap<>();
    private final Set<String> failedElements = new TreeSet<>();
    private Instant centreHeard;

    /** An empty table for {@code partition}: no central table yet, so distributed until one arrives. */
    public HybridTable(String partition, Settings settings, Clock clock) {
        if (partition == null || partition.isEmpty()) {
            throw new IllegalArgumentException("a table belongs to a partition");
        }
        this.partition = partition;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The partition this table serves. */
    public String partition() {
        return partition;
    }

    /**
     * Takes a central table from the centre. A newer version becomes current (the current one a shadow;
     * the oldest shadow beyond the count is dropped) and replaces the local decisions whose central
     * decision now agrees with the observation; the current version again only says the centre is alive;
     * an older version is ignored. Returns the keys of the local decisions replaced.
     * IllegalArgumentException for another partition's table.
     */
    public synchronized List<String> install(DecisionTable<V> table) {
        if (!table.partition().equals(partition)) {
            throw new IllegalArgumentException("a table of " + table.partition() + " given to the table of " + partition);
        }
        if (current != null && table.version() < current.version()) {
            return List.of();
        }
        centreHeard = clock.instant();
        if (current != null && table.version() == current.version()) {
            return List.of();
        }
        if (current != null) {
            shadows.addFirst(current);
            while (shadows.size() > settings.shadowTables()) {
                shadows.removeLast();
            }
        }
        current = table;
        List<String> replaced = new ArrayList<>();
        for (Decision<V> local : List.copyOf(localsByKey.values())) {
            Optional<Decision<V>> central = table.entry(local.key());
            if (central.isPresent() && staleness(central.get()) == null) {
                localsByKey.remove(local.key());
                locals.remove(local.key());
                replaced.add(local.key());
            }
        }
        return replaced;
    }

    /**
     * Records the agent's own decision for a key (a pattern or a concrete key), in force until a newer
     * central table's decision for the same key agrees with the observation, or {@link #removeLocal}.
     * Its version is the current central version (0 before any).
     */
    public synchronized Decision<V> recordLocal(String key, V value, Evidence evidence) {
        Decision<V> decision = new Decision<>(key, value, Origin.LOCAL, current == null ? 0 : current.version(),
                evidence, clock.instant());
        locals.put(decision.pattern(), decision);
        localsByKey.put(key, decision);
        return decision;
    }

    /** Drops the local decision under exactly this key; false when there was none. */
    public synchronized boolean removeLocal(String key) {
        locals.remove(key);
        return localsByKey.remove(key) != null;
    }

    /** The decision for a request for {@code key} tagged with the current central version. */
    public Lookup<V> lookup(String key) {
        List<String> segments = ChannelPattern.segmentsOfKey(key);
        synchronized (this) {
            return lookup(key, segments, current);
        }
    }

    /**
     * The decision for a request for {@code key} tagged with central version {@code version}: the
     * current table's or a shadow table's, so requests already on their way through a change of
     * version keep following the version they started with.
     */
    public Lookup<V> lookup(String key, long version) {
        List<String> segments = ChannelPattern.segmentsOfKey(key);
        synchronized (this) {
            DecisionTable<V> table = table(version);
            if (table == null) {
                Optional<Map.Entry<ChannelPattern, Decision<V>>> local = locals.best(key, segments);
                return local.isPresent() ? Lookup.use(local.get().getValue())
                        : Lookup.miss(Lookup.Miss.UNKNOWN_VERSION, "version " + version + " is neither current ("
                                + (current == null ? "none" : current.version()) + ") nor a shadow " + shadowVersions());
            }
            return lookup(key, segments, table);
        }
    }

    private Lookup<V> lookup(String key, List<String> segments, DecisionTable<V> table) {
        Optional<Map.Entry<ChannelPattern, Decision<V>>> local = locals.best(key, segments);
        Optional<Map.Entry<ChannelPattern, Decision<V>>> central = table == null ? Optional.empty() : table.best(key, segments);
        if (local.isPresent() && (central.isEmpty() || local.get().getKey().compareSpecificity(central.get().getKey()) >= 0)) {
            return Lookup.use(local.get().getValue());
        }
        Lookup<V> miss;
        if (central.isEmpty()) {
            miss = Lookup.miss(Lookup.Miss.NO_ENTRY, "no entry covers " + key);
        } else if (mode() == Mode.DISTRIBUTED) {
            miss = Lookup.miss(Lookup.Miss.CENTRE_SILENT, "the centre was last heard at " + centreHeard);
        } else {
            String stale = staleness(central.get().getValue());
            if (stale == null) {
                return Lookup.use(central.get().getValue());
            }
            miss = Lookup.miss(Lookup.Miss.STALE, central.get().getKey() + ": " + stale);
        }
        return local.isPresent() ? Lookup.use(local.get().getValue()) : miss;
    }

    private DecisionTable<V> table(long version) {
        if (current != null && current.version() == version) {
            return current;
        }
        for (DecisionTable<V> shadow : shadows) {
            if (shadow.version() == version) {
                return shadow;
            }
        }
        return null;
    }

    /**
     * Takes new measurements (merged into the observation; a measurement of a failed element clears its
     * failure). Returns the keys of the current central decisions that were fresh and are now stale:
     * the caller treats their streams as new requests.
     */
    public synchronized List<String> observe(Map<String, Double> measurements) {
        Evidence.of(measurements); // refuses unnamed or non-finite values before anything changes
        Set<String> before = staleCentralKeys();
        observation.putAll(measurements);
        failedElements.removeAll(measurements.keySet());
        return becameStale(before);
    }

    /** Marks a link, node or other element as failed (timed out); returns the central keys that became stale. */
    public synchronized List<String> failed(String name) {
        Set<String> before = staleCentralKeys();
        failedElements.add(name);
        return becameStale(before);
    }

    /** Clears an element's failure; false when it was not marked failed. */
    public synchronized boolean recovered(String name) {
        return failedElements.remove(name);
    }

    private List<String> becameStale(Set<String> before) {
        List<String> now = new ArrayList<>(staleCentralKeys());
        now.removeAll(before);
        return now;
    }

    /** The keys of the current table's stale central decisions, in table order. */
    private Set<String> staleCentralKeys() {
        Set<String> stale = new LinkedHashSet<>();
        if (current != null) {
            for (Decision<V> d : current.decisions()) {
                if (staleness(d) != null) {
                    stale.add(d.key());
                }
            }
        }
        return stale;
    }

    /** Why a decision no longer holds, or null when it does. */
    private String staleness(Decision<V> decision) {
        for (String element : failedElements) {
            if (decision.evidence().refersTo(element)) {
                return element + " failed";
            }
        }
        Map<String, Double> then = decision.evidence().measurements();
        List<String> moved = decision.evidence().divergence(
                name -> observation.containsKey(name) ? observation.get(name) : then.get(name), settings.threshold());
        if (moved.isEmpty()) {
            return null;
        }
        StringBuilder why = new StringBuilder();
        for (String name : moved) {
            why.append(why.length() == 0 ? "" : ", ").append(name).append(' ').append(then.get(name)).append(" -> ")
                    .append(observation.get(name));
        }
        return why.toString();
    }

    /** Whether central decisions answer now. */
    public synchronized Mode mode() {
        if (centreHeard == null) {
            return Mode.DISTRIBUTED;
        }
        return Duration.between(centreHeard, clock.instant()).compareTo(settings.centreTimeout()) > 0
                ? Mode.DISTRIBUTED : Mode.CENTRAL;
    }

    /** The current central version, empty before any table. */
    public synchronized OptionalLong version() {
        return current == null ? OptionalLong.empty() : OptionalLong.of(current.version());
    }

    /** The versions of the shadow tables, newest first. */
    public synchronized List<Long> shadowVersions() {
        return shadows.stream().map(DecisionTable::version).toList();
    }

    /** The elements marked failed. */
    public synchronized Set<String> failedElements() {
        return Set.copyOf(failedElements);
    }

    /**
     * The table in force, for an operator or the app's REST resource: the current central decisions not
     * overridden by a local decision under the same key, then the local decisions; under the current
     * version and its issue time (version 0 and the epoch before any central table).
     */
    public synchronized DecisionTable<V> snapshot() {
        List<Decision<V>> merged = new ArrayList<>();
        if (current != null) {
            for (Decision<V> d : current.decisions()) {
                if (!localsByKey.containsKey(d.key())) {
                    merged.add(d);
                }
            }
        }
        merged.addAll(localsByKey.values());
        return new DecisionTable<>(partition, current == null ? 0 : current.version(),
                current == null ? Instant.EPOCH : current.issuedAt(), merged);
    }
}
