package io.heliograph.core.hybrid;

/** Who made a decision: the centre, with its global view, or a partition's local agent. */
public enum Origin {
    /** Published by the centre in a {@link DecisionTable}; it has priority while it holds. */
    CENTRAL,
    /** Made by the local agent when the central decision was missing, stale or silent; uses slack only. */
    LOCAL
}
