package io.heliograph.core.hybrid;

import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link HybridTable} answers for a request: the decision to use, or a miss saying why there is
 * none, so the caller runs local (distributed) control for the request.
 *
 * @param <V> what is decided
 */
public record Lookup<V>(Decision<V> decision, Miss miss, String detail) {

    /** Why no decision answered: each sends the request to local control. */
    public enum Miss {
        /** No entry covers the key (VDN's trigger 3). */
        NO_ENTRY,
        /** The request is tagged with a version neither current nor kept as a shadow table. */
        UNKNOWN_VERSION,
        /**
         * The central entry's evidence moved past the threshold (trigger 1), or it refers to an element
         * that failed (trigger 2).
         */
        STALE,
        /** The centre has not been heard within its timeout: central entries no longer answer (trigger 2, the controller). */
        CENTRE_SILENT
    }

    /** Exactly one of decision and miss; detail says more about a miss (the moved measurements, the version). */
    public Lookup {
        if ((decision == null) == (miss == null)) {
            throw new IllegalArgumentException("a lookup is a decision or a miss");
        }
        Objects.requireNonNull(detail, "detail");
    }

    static <V> Lookup<V> use(Decision<V> decision) {
        return new Lookup<>(decision, null, "");
    }

    static <V> Lookup<V> miss(Miss why, String detail) {
        return new Lookup<>(null, why, detail);
    }

    /** Whether a decision answered. */
    public boolean found() {
        return decision != null;
    }

    /** The decision's value, empty on a miss. */
    public Optional<V> value() {
        return decision == null ? Optional.empty() : Optional.of(decision.value());
    }
}
