package io.heliograph.core.hybrid;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a partition's decision table (a RIB or FIB entry): for the requests whose key the
 * {@link ChannelPattern} {@code key} covers, use {@code value} (VDN: the next-hop cluster). It says
 * who decided it, the version of the central table it belongs to (a local decision: the central
 * version current when it was made), the evidence it was based on, and when.
 *
 * @param <V> what is decided; immutable, with equals
 */
public record Decision<V>(String key, V value, Origin origin, long version, Evidence evidence, Instant decidedAt) {

    /** IllegalArgumentException for a bad key or a negative version; NullPointerException for a missing part. */
    public Decision {
        ChannelPattern.parse(key);
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(evidence, "evidence");
        Objects.requireNonNull(decidedAt, "decidedAt");
        if (version < 0) {
            throw new IllegalArgumentException("a version is 0 or more: " + version);
        }
    }

    /** A central decision not yet published: the publisher gives it the version of its table. */
    public static <V> Decision<V> central(String key, V value, Evidence evidence, Instant decidedAt) {
        return new Decision<>(key, value, Origin.CENTRAL, 0, evidence, decidedAt);
    }

    /** This decision in table version {@code newVersion}. */
    public Decision<V> withVersion(long newVersion) {
        return new Decision<>(key, value, origin, newVersion, evidence, decidedAt);
    }

    /** The key as a pattern. */
    public ChannelPattern pattern() {
        return ChannelPattern.parse(key);
    }
}
