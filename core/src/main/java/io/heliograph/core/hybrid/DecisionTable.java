package io.heliograph.core.hybrid;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The decisions the centre published for one partition (in VDN, one cluster's RIB) under one
 * version, issued at one time; decisions are looked up by the most specific key covering the
 * request's ({@link ChannelPattern}). Immutable.
 *
 * @param <V> what is decided
 */
public final class DecisionTable<V> {

    private final String partition;
    private final long version;
    private final Instant issuedAt;
    private final List<Decision<V>> decisions;
    private final PatternIndex<Decision<V>> index = new PatternIndex<>();

    /**
     * IllegalArgumentException for an empty partition, a negative version, a decision newer than the
     * table, or two decisions with the same key.
     */
    public DecisionTable(String partition, long version, Instant issuedAt, List<Decision<V>> decisions) {
        if (partition == null || partition.isEmpty()) {
            throw new IllegalArgumentException("a table belongs to a partition");
        }
        if (version < 0) {
            throw new IllegalArgumentException("a version is 0 or more: " + version);
        }
        this.partition = partition;
        this.version = version;
        this.issuedAt = Objects.requireNonNull(issuedAt, "issuedAt");
        this.decisions = List.copyOf(decisions);
        for (Decision<V> d : this.decisions) {
            if (d.version() > version) {
                throw new IllegalArgumentException(d.key() + ": version " + d.version() + " is newer than the table's " + version);
            }
            if (index.put(d.pattern(), d) != null) {
                throw new IllegalArgumentException(d.key() + " appears twice");
            }
        }
    }

    /** The partition (cluster) this table is for. */
    public String partition() {
        return partition;
    }

    /** The version the centre published it under; versions only grow. */
    public long version() {
        return version;
    }

    /** When the centre issued it. */
    public Instant issuedAt() {
        return issuedAt;
    }

    /** The decisions in the order they were given. */
    public List<Decision<V>> decisions() {
        return decisions;
    }

    /** The decision for a concrete key: the one whose key is the most specific covering it. */
    public Optional<Decision<V>> lookup(String key) {
        return best(key, ChannelPattern.segmentsOfKey(key)).map(Map.Entry::getValue);
    }

    /** The decision whose key is exactly {@code pattern}, wildcards and all. */
    public Optional<Decision<V>> entry(String pattern) {
        return Optional.ofNullable(index.get(pattern));
    }

    Optional<Map.Entry<ChannelPattern, Decision<V>>> best(String key, List<String> segments) {
        return index.best(key, segments);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecisionTable<?> t && t.partition.equals(partition) && t.version == version
                && t.issuedAt.equals(issuedAt) && t.decisions.equals(decisions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, version, issuedAt, decisions);
    }

    @Override
    public String toString() {
        return "DecisionTable[" + partition + " v" + version + ", " + decisions.size() + " decisions]";
    }
}
