package io.heliograph.core.hybrid;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.cluster.SplitValues;
import io.heliograph.core.json.Json;

/**
 * The centre's decision tables in the shared store, for the app's instances inside the controller:
 * {@code <app>/hybrid/version} holds the last version handed out ({@code {"version":7}}), and
 * {@code <app>/hybrid/tables/<partition>} each partition's table as {@link DecisionTableJson} JSON,
 * through {@link SplitValues} so a table larger than one store value is written and read whole.
 *
 * <p>A publication takes the next version with the store's compare-and-set, so two publishers never
 * use the same version; one publisher at a time (the app's cluster singleton) is expected, since a
 * slower one could still overwrite a partition's newer table with its older one (agents ignore an
 * older version: {@link HybridTable#install}). Agents watch {@link #tableKey(String)} or read it.
 *
 * <p>Every method fails with {@link SharedStore.StoreUnavailableException} while the store is out of
 * reach, and with IllegalArgumentException for a partition id the store cannot take as a key segment.
 *
 * @param <V> what is decided
 */
public final class SharedDecisionTables<V> {

    private final SharedStore store;
    private final String root;
    private final DecisionTableJson<V> json;
    private final Clock clock;

    /** The tables of {@code app} (the first segment of its keys), written with {@code json}, issued at {@code clock}'s time. */
    public SharedDecisionTables(SharedStore store, String app, DecisionTableJson<V> json, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.root = app + "/hybrid";
        this.json = Objects.requireNonNull(json, "json");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The key of a partition's table, to watch (the store's watch of it also hears its parts: act on the
     * key itself, and read the table with {@link #read} off the store's thread). IllegalArgumentException
     * for a partition id with a '/', which would make it two segments.
     */
    public String tableKey(String partition) {
        if (partition == null || partition.isEmpty() || partition.contains("/")) {
            throw new IllegalArgumentException("a partition id is one key segment: " + partition);
        }
        return root + "/tables/" + partition;
    }

    /**
     * Publishes one table per partition under a new version and returns it: each decision is stamped
     * with that version as a central one. Tables of partitions not named, left from older publications,
     * are deleted, so {@link #partitions()} lists this publication's.
     */
    public long publish(Map<String, ? extends Collection<Decision<V>>> decisionsByPartition) {
        long version = nextVersion();
        Instant issuedAt = clock.instant();
        for (Map.Entry<String, ? extends Collection<Decision<V>>> p : decisionsByPartition.entrySet()) {
            List<Decision<V>> stamped = new ArrayList<>();
            for (Decision<V> d : p.getValue()) {
                stamped.add(new Decision<>(d.key(), d.value(), Origin.CENTRAL, version, d.evidence(), d.decidedAt()));
            }
            DecisionTable<V> table = new DecisionTable<>(p.getKey(), version, issuedAt, stamped);
            SplitValues.write(store, tableKey(p.getKey()), json.encode(table));
        }
        for (String partition : partitions()) {
            if (!decisionsByPartition.containsKey(partition)) {
                store.delete(tableKey(partition));
            }
        }
        return version;
    }

    /** A partition's last published table, empty when there is none. IllegalStateException for a table that cannot be read. */
    public Optional<DecisionTable<V>> read(String partition) {
        Optional<byte[]> bytes = SplitValues.read(store, tableKey(partition));
        try {
            return bytes.map(json::decode);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(tableKey(partition) + " holds no decision table: " + e.getMessage(), e);
        }
    }

    /** The partitions that have a table, in order. */
    public Set<String> partitions() {
        return new TreeSet<>(store.list(root + "/tables").keySet());
    }

    /** The last version handed out, empty before the first publication. */
    public OptionalLong version() {
        return store.get(root + "/version").map(v -> OptionalLong.of(versionOf(v))).orElse(OptionalLong.empty());
    }

    private long nextVersion() {
        String key = root + "/version";
        while (true) {
            Optional<Versioned> last = store.get(key);
            long next = last.map(v -> versionOf(v) + 1).orElse(1L);
            byte[] value = Json.compact(Map.of("version", next));
            if (store.replace(key, last.map(Versioned::version).orElse(Versioned.ABSENT), value).isPresent()) {
                return next;
            }
            // another publisher took a version between our read and our write: take the one after it
        }
    }

    private static long versionOf(Versioned stored) {
        Object version = Json.flatObject(stored.value()).get("version");
        if (!(version instanceof Long l) || l < 0) {
            throw new IllegalStateException(stored.key() + " holds no version: " + new String(stored.value(), StandardCharsets.UTF_8));
        }
        return l;
    }
}
