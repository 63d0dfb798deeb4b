package io.heliograph.staticflows.internal.rest;

import java.time.Instant;

import io.heliograph.staticflows.Reconciliation;

/**
 * A switch's reconciliation with its static entries on this instance: {@code state} RECONCILING, OK,
 * RETRYING, NOT_POSSIBLE or SLAVE, {@code reason} why the last attempt failed (or why this instance
 * does not reconcile), the attempts since this instance started writing to the switch, how many
 * failed in a row, and when the last ended and the next is due (ISO-8601, UTC; null for none).
 */
public record ReconciliationView(String dpid, String state, String reason, int attempts, int failedInARow,
        String lastAttempt, String nextAttempt) {

    static ReconciliationView of(Reconciliation r) {
        return new ReconciliationView(r.dpid().toString(), r.state().name(), r.reason(), r.attempts(), r.failedInARow(),
                text(r.lastAttempt()), text(r.nextAttempt()));
    }

    private static String text(Instant at) {
        return at == null ? null : at.toString();
    }
}
