package io.heliograph.staticflows;

import java.time.Instant;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * How far this instance got in bringing one switch in line with its static entries. Reconciliation
 * reads the switch's flows (and groups and meters, when entries use them), pushes what is missing or
 * different, removes stale static entries, and reads again to verify. It runs after the switch is
 * announced, never in its handshake, so a switch that does not answer is served all the same.
 *
 * @param state        see {@link State}
 * @param reason       why the last attempt failed (RETRYING, NOT_POSSIBLE) or why this instance does
 *                     not reconcile (SLAVE); empty otherwise
 * @param attempts     attempts since this instance started writing to the switch (it connected, or
 *                     this instance became its master)
 * @param failedInARow attempts that failed one after another, up to the last; they set the backoff
 * @param lastAttempt  when the last attempt ended; null before the first has ended
 * @param nextAttempt  when the next attempt is due; null when none is scheduled
 */
public record Reconciliation(DatapathId dpid, State state, String reason, int attempts, int failedInARow,
        Instant lastAttempt, Instant nextAttempt) {

    public enum State {
        /** The first attempt has not ended yet. */
        RECONCILING,
        /** The last attempt read the switch's tables and brought them in line with the entries. */
        OK,
        /** The last attempt could not read the switch (see reason); it is tried again after a backoff. */
        RETRYING,
        /**
         * Several attempts in a row could not read the switch (see reason): its entries were pushed
         * without being verified ({@link EntryStatus.State#UNVERIFIED}) and stale static flows stay
         * on it. Still tried again, at the longest backoff, so a switch that starts answering is
         * reconciled.
         */
        NOT_POSSIBLE,
        /** This instance is SLAVE for the switch: it writes nothing, and the switch's master reconciles it. */
        SLAVE
    }
}
