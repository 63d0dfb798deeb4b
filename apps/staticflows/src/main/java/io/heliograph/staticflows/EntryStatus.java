package io.heliograph.staticflows;

/**
 * A stored entry and what the controller knows of it on the switch.
 *
 * @param detail for FAILED, UNSUPPORTED or UNVERIFIED, the switch's error or the reason; otherwise empty
 */
public record EntryStatus(StaticEntry entry, State state, String detail) {

    public enum State {
        /** Confirmed on the switch by the last push or reconciliation. */
        INSTALLED,
        /** The switch is not connected (or not reconciled yet). */
        PENDING,
        /** The switch refused it with an error. */
        FAILED,
        /** The connected switch's OpenFlow version or ports cannot carry it (see detail). */
        UNSUPPORTED,
        /**
         * Pushed to the switch (adds are idempotent) while its tables could not be read to check it:
         * the switch reported no error, but nothing confirmed the entry is there as defined (see
         * detail, and the switch's {@link Reconciliation}). Becomes INSTALLED or FAILED once a read
         * succeeds.
         */
        UNVERIFIED
    }
}
