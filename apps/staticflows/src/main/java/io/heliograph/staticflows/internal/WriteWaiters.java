package io.heliograph.staticflows.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.heliograph.staticflows.Result;

/**
 * The adds and deletes of this instance waiting for its watch to bring their writes back: an add or
 * delete goes through the store, and what became of it is known once the view has followed it (and,
 * on a switch this instance writes to, applied it).
 */
final class WriteWaiters {

    /** How long an add or delete waits for this instance's watch to bring its own write back (a bound on a bug). */
    static final long OWN_WRITE_WAIT_SECONDS = 20;

    /**
     * A write waiting for the next change of the key to exactly this value (null: the next removal of
     * the key). An identical write by another instance in between would do as well: it has the same effect.
     */
    record Waiter(byte[] value, CompletableFuture<Result> result) {
        boolean awaits(byte[] applied) {
            return value == null ? applied == null : applied != null && Arrays.equals(value, applied);
        }
    }

    private final Map<String, List<Waiter>> waiters = new HashMap<>();

    /** Registered before the write, so the watch cannot bring the write back before anyone waits for it. */
    synchronized Waiter expect(String key, byte[] value) {
        Waiter waiter = new Waiter(value, new CompletableFuture<>());
        waiters.computeIfAbsent(key, k -> new ArrayList<>()).add(waiter);
        return waiter;
    }

    /**
     * What became of this instance's own write once its watch brought it back: the outcome on the
     * switch when this instance writes to it, STORED (DELETED) otherwise.
     */
    CompletableFuture<Result> awaited(String key, Waiter waiter) {
        waiter.result().whenComplete((r, e) -> forget(key, waiter));
        return waiter.result().completeOnTimeout(new Result(
                waiter.value() == null ? Result.Outcome.DELETED : Result.Outcome.STORED,
                List.of("the cluster's store has the change, but this instance has not seen it come back within "
                        + OWN_WRITE_WAIT_SECONDS + " s, so what the switch holds is not known yet")),
                OWN_WRITE_WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** A write that did not happen (the store was out of reach): nobody waits for it. */
    synchronized void forget(String key, Waiter waiter) {
        List<Waiter> list = waiters.get(key);
        if (list != null) {
            list.remove(waiter);
            if (list.isEmpty()) {
                waiters.remove(key);
            }
        }
    }

    /**
     * Hands what became of a change (null value: a removal) to the writes waiting for it. The outcome
     * is handed on outside this object's lock, in the caller's.
     */
    void record(String key, byte[] value, CompletableFuture<Result> outcome) {
        for (Waiter w : take(key, value)) {
            outcome.whenComplete((r, e) -> w.result().complete(e == null ? r
                    : Result.failed("applying the change failed: " + Errors.describe(e))));
        }
    }

    /** The writes of {@code key} waiting for {@code value}, no longer waiting once taken. */
    private synchronized List<Waiter> take(String key, byte[] value) {
        List<Waiter> list = waiters.get(key);
        if (list == null) {
            return List.of();
        }
        List<Waiter> taken = new ArrayList<>();
        for (Waiter w : List.copyOf(list)) {
            if (w.awaits(value)) {
                list.remove(w);
                taken.add(w);
            }
        }
        if (list.isEmpty()) {
            waiters.remove(key);
        }
        return taken;
    }
}
