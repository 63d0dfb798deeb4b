package io.heliograph.staticflows.internal;

/**
 * How switches are reconciled with the static entries.
 *
 * @param removeStale      remove static flows, groups and meters this app installed that are no
 *                         longer defined
 * @param retryFirstMs     wait before the first retry of a failed attempt; each further retry waits
 *                         twice as long as the one before, up to {@code retryMaxMs}
 * @param retryMaxMs       the longest wait between two attempts; a switch that never answers is
 *                         tried at this interval for as long as it stays connected
 * @param notPossibleAfter failed attempts in a row after which the switch's reconciliation is
 *                         reported NOT_POSSIBLE
 */
record ReconcileSettings(boolean removeStale, long retryFirstMs, long retryMaxMs, int notPossibleAfter) {

    /** The first attempt and two retries, 1 s then 2 s apart; then 4, 8, ... up to 5 minutes. */
    static final ReconcileSettings DEFAULTS = new ReconcileSettings(true, 1_000, 300_000, 3);

    ReconcileSettings {
        check("reconcileRetryFirstMs", retryFirstMs, 100, 3_600_000);
        check("reconcileRetryMaxMs", retryMaxMs, 1_000, 86_400_000);
        check("reconcileNotPossibleAfter", notPossibleAfter, 1, 1_000);
        if (retryMaxMs < retryFirstMs) {
            throw new IllegalArgumentException("reconcileRetryMaxMs (" + retryMaxMs
                    + ") must not be below reconcileRetryFirstMs (" + retryFirstMs + ")");
        }
    }

    /** The wait after {@code failedInARow} (at least 1) failed attempts: doubling from the first, capped. */
    long retryDelayMs(int failedInARow) {
        int doublings = Math.min(Math.max(failedInARow, 1) - 1, 62);
        long delay = retryFirstMs;
        for (int i = 0; i < doublings && delay < retryMaxMs; i++) {
            delay *= 2;
        }
        return Math.min(delay, retryMaxMs);
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be within " + min + ".." + max + ", was " + value);
        }
    }
}
