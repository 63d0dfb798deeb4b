package io.heliograph.core.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits in a unit test for a condition another thread makes true (an app's thread, a store's), checking
 * it every few milliseconds until a deadline, and fails naming what did not happen. Shared by the apps'
 * tests (heliograph-core:tests).
 */
public final class Eventually {

    private static final long CHECK_MILLIS = 5;

    private Eventually() {
    }

    /** Returns once {@code condition} holds; AssertionError naming {@code what} if it does not within {@code timeout}. */
    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what);
            }
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }
}
