package io.heliograph.staticflows.internal;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import io.heliograph.core.OFSwitch;
import io.heliograph.staticflows.Reconciliation;

/**
 * One switch's reconciliation on this instance, from when it starts writing to the switch (the
 * switch connected, or this instance became its master) until it stops: the attempts, their
 * outcome and the retry that is due. Guarded by the {@link SwitchApplier} lock.
 */
final class SwitchReconciliation {

    /** The connection: a reconnected switch starts afresh. */
    final OFSwitch sw;
    Reconciliation.State state = Reconciliation.State.RECONCILING;
    String reason = "";
    int attempts;
    int failedInARow;
    Instant lastAttempt;
    Instant nextAttempt;
    boolean inProgress;
    /** Asked for while an attempt ran (a port came, this instance became master): one more follows it. */
    CompletableFuture<Void> again;
    private RetryTimer.Scheduled retry;
    private boolean stopped;

    SwitchReconciliation(OFSwitch sw) {
        this.sw = sw;
    }

    Reconciliation status() {
        return new Reconciliation(sw.getId(), state, reason, attempts, failedInARow, lastAttempt, nextAttempt);
    }

    void retryAt(Instant when, RetryTimer.Scheduled scheduled) {
        nextAttempt = when;
        retry = scheduled;
    }

    void cancelRetry() {
        if (retry != null) {
            retry.cancel();
            retry = null;
        }
        nextAttempt = null;
    }

    /** This instance stopped writing to the switch: no more attempts, and what is under way writes nothing. */
    void stop() {
        stopped = true;
        cancelRetry();
        if (again != null) {
            again.complete(null);
            again = null;
        }
    }

    boolean isStopped() {
        return stopped;
    }
}
