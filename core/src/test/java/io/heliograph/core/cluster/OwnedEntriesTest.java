package io.heliograph.core.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.ForwardingSharedStore;
import io.heliograph.core.testing.InMemorySharedStore;

/**
 * Two instances, "a" and "b", sharing one in-memory store and membership. The flush delay is an
 * hour unless a test is about the delay, so writes happen when a test calls flush().
 */
class OwnedEntriesTest {

    private static final long NEVER = 3_600_000;

    private final InMemorySharedStore storeA = new InMemorySharedStore();
    private final InMemorySharedStore storeB = storeA.anotherInstance("b");
    private final FakeClusterService clusterA = new FakeClusterService("a");
    private final FakeClusterService clusterB = clusterA.anotherInstance("b");
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
    private final Heard heardByA = new Heard();
    private final Heard heardByB = new Heard();
    private OwnedEntries a;
    private OwnedEntries b;

    /** What an instance's listener was told: owner/id -> value (as text). */
    private static final class Heard implements OwnedEntries.Listener {
        final Map<String, String> entries = new ConcurrentHashMap<>();

        @Override
        public void changed(String owner, String id, byte[] value) {
            entries.put(owner + "/" + id, new String(value, UTF_8));
        }

        @Override
        public void removed(String owner, String id) {
            entries.remove(owner + "/" + id);
        }
    }

    private void start(long flushDelayMs) {
        start(flushDelayMs, 0);
    }

    private void start(long flushDelayMs, long retainMs) {
        a = new OwnedEntries(storeA, clusterA, "app/things", heardByA, thread, flushDelayMs, retainMs);
        b = new OwnedEntries(storeB, clusterB, "app/things", heardByB, thread, flushDelayMs, retainMs);
        a.start();
        b.start();
    }

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    @Test
    void anEntryPutByOneInstanceReachesTheOthersListenerNotItsOwn() {
        start(NEVER);
        a.put("x", bytes("1"));
        assertEquals(Map.of(), heardByB.entries, "nothing is written before the flush");
        a.flush();
        assertEquals(Map.of("a/x", "1"), heardByB.entries);
        assertEquals(Map.of(), heardByA.entries);
        assertEquals("1", text(storeB.get("app/things/a/x")));
        assertEquals(1, a.writes());
    }

    @Test
    void aloneNothingIsWrittenUntilAnotherInstanceJoinsThenWhatChangedMeanwhileIs() {
        clusterA.leave("b");
        a = new OwnedEntries(storeA, clusterA, "app/things", heardByA, thread, 50, 0);
        a.start();
        a.put("x", bytes("1"));
        a.put("y", bytes("1"));
        a.remove("y");
        a.flush();
        assertEquals(0, a.writes(), "nobody reads the entries of an instance alone");
        assertEquals(Optional.empty(), storeA.get("app/things/a/x"));

        a.instanceJoined(clusterA.join("b"));
        // the store shows a write a moment before the flush counts it, on the flush's thread
        waitFor(() -> storeA.get("app/things/a/x").isPresent() && a.writes() >= 1, "x written once b joined");
        assertEquals("1", text(storeA.get("app/things/a/x")));
        assertEquals(Optional.empty(), storeA.get("app/things/a/y"), "y, removed before, never written");
        assertEquals(1, a.writes());

        a.instanceLeft(clusterA.leave("b"));
        a.put("x", bytes("2"));
        a.flush();
        assertEquals("1", text(storeA.get("app/things/a/x")), "alone again: the change waits");
        a.instanceJoined(clusterA.join("b"));
        waitFor(() -> "2".equals(text(storeA.get("app/things/a/x"))) && a.writes() >= 2, "the change written when b is back");
        assertEquals(2, a.writes());
    }

    @Test
    void changesBetweenTwoFlushesAreWrittenOnceEachAndOnlyIfTheyChangedTheStore() {
        start(NEVER);
        a.put("x", bytes("1"));
        a.put("y", bytes("1"));
        a.flush();
        long before = a.writes();

        a.put("x", bytes("2"));
        a.put("x", bytes("3"));
        a.put("y", bytes("2"));
        a.put("y", bytes("1")); // back to what the store holds
        a.put("z", bytes("1"));
        a.remove("z"); // never written: nothing to delete
        a.flush();

        assertEquals(1, a.writes() - before, "only x changed in the store");
        assertEquals(Map.of("a/x", "3", "a/y", "1"), heardByB.entries);
        a.flush();
        assertEquals(1, a.writes() - before, "a flush with nothing changed writes nothing");
    }

    @Test
    void changesAreWrittenOnTheirOwnWithinTheFlushDelay() {
        start(50);
        a.put("x", bytes("1"));
        a.put("y", bytes("1"));
        waitFor(() -> heardByB.entries.size() == 2, "b hears both entries");
        assertEquals(2, a.writes());
    }

    @Test
    void aRemovedEntryIsDeletedAndTheOthersHearIt() {
        start(NEVER);
        a.put("x", bytes("1"));
        a.flush();
        a.remove("x");
        a.flush();
        assertEquals(Map.of(), heardByB.entries);
        assertEquals(Optional.empty(), storeA.get("app/things/a/x"));
    }

    @Test
    void anInstanceLeavingTakesItsEntriesOutOfTheOthersViewAndTheFirstLiveInstanceDeletesThem() {
        start(NEVER);
        a.put("x", bytes("1"));
        a.put("y", bytes("2"));
        a.flush();
        assertEquals(2, heardByB.entries.size());

        b.instanceLeft(clusterA.leave("a"));

        assertEquals(Map.of(), heardByB.entries, "at once, before any store write");
        waitFor(() -> storeB.list("app/things/a").isEmpty(), "b, the only live instance, deletes a's entries");
    }

    @Test
    void theEntriesOfAnInstanceThatLeftStayInViewForTheRetentionThenGo() {
        start(NEVER, 300);
        a.put("x", bytes("1"));
        a.flush();
        long left = System.nanoTime();
        b.instanceLeft(clusterA.leave("a"));
        assertEquals(Map.of("a/x", "1"), heardByB.entries, "still in view right after a left");
        assertEquals("1", text(storeB.get("app/things/a/x")), "and still in the store");
        waitFor(() -> heardByB.entries.isEmpty(), "a's entry to leave the view");
        assertTrue(System.nanoTime() - left >= 300_000_000L, "not before the retention is over");
        waitFor(() -> storeB.list("app/things/a").isEmpty(), "b, the only live instance, deletes a's entries");
    }

    @Test
    void anInstanceBackWithinTheRetentionKeepsItsEntries() throws Exception {
        start(NEVER, 200);
        a.put("x", bytes("1"));
        a.flush();
        ClusterInstance gone = clusterA.leave("a");
        b.instanceLeft(gone);
        b.instanceJoined(gone);
        // the store thread runs tasks in time order: once this one has run, so has the expiry (due at 200 ms)
        thread.schedule(() -> { }, 250, TimeUnit.MILLISECONDS).get();
        assertEquals(Map.of("a/x", "1"), heardByB.entries);
        assertEquals("1", text(storeB.get("app/things/a/x")));
    }

    @Test
    void theFirstLiveInstanceStopsDeletingTheEntriesOfAnInstanceThatCameBack() throws Exception {
        // a's session expires and b starts deleting a's entries; a is back (a new session) right before
        // b's first delete reaches the store, and writes an entry. Deleting a's whole subtree would take
        // that entry too, and in ZooKeeper would not end while a kept writing again what it saw deleted.
        AtomicBoolean aIsBack = new AtomicBoolean();
        SharedStore storeOfB = new ForwardingSharedStore(storeB) {
            @Override
            public boolean delete(String key) {
                if (aIsBack.compareAndSet(false, true)) {
                    b.instanceJoined(clusterA.join("a"));
                    a.put("z", bytes("3"));
                    a.flush();
                }
                return super.delete(key);
            }
        };
        a = new OwnedEntries(storeA, clusterA, "app/things", heardByA, thread, NEVER, 0);
        b = new OwnedEntries(storeOfB, clusterB, "app/things", heardByB, thread, NEVER, 0);
        a.start();
        b.start();
        a.put("x", bytes("1"));
        a.put("y", bytes("2"));
        a.flush();

        b.instanceLeft(clusterA.leave("a"));
        thread.submit(() -> { }).get(10, TimeUnit.SECONDS); // b's deletion ran on this thread before it

        assertTrue(aIsBack.get(), "b began deleting a's entries");
        assertEquals(Optional.of("3"), storeA.get("app/things/a/z").map(v -> new String(v.value(), UTF_8)),
                "what a wrote once back stays in the store");
        assertEquals(2, storeA.list("app/things/a").size(), "b deleted one entry, then saw a back and stopped: "
                + storeA.list("app/things/a").keySet());
        Set<String> stored = new TreeSet<>();
        storeA.list("app/things/a").keySet().forEach(id -> stored.add("a/" + id));
        assertEquals(stored, new TreeSet<>(heardByB.entries.keySet()), "b hears a's entries, a being live again");
    }

    @Test
    void entriesOfAnInstanceNotYetKnownToBeLiveWaitForIt() {
        start(NEVER);
        InMemorySharedStore storeC = storeA.anotherInstance("c");
        FakeClusterService clusterC = clusterA.anotherInstance("c");
        clusterA.leave("c"); // its entries arrive before the membership says it joined
        OwnedEntries c = new OwnedEntries(storeC, clusterC, "app/things", new Heard(), thread, NEVER, 0);
        c.start();
        c.put("x", bytes("1"));
        c.flush();
        assertEquals(Map.of(), heardByB.entries);

        b.instanceJoined(clusterA.join("c"));

        assertEquals(Map.of("c/x", "1"), heardByB.entries);
    }

    @Test
    void anEntryOfOursThatSomeoneDeletedIsWrittenAgain() {
        start(NEVER);
        a.put("x", bytes("1"));
        a.flush();
        storeB.delete("app/things/a");
        assertEquals(Map.of(), heardByB.entries);
        a.flush();
        assertEquals(Map.of("a/x", "1"), heardByB.entries);
    }

    @Test
    void aStaleEntryOfOursFromAnEarlierRunIsDeleted() {
        storeA.put("app/things/a/old", bytes("stale"));
        start(NEVER);
        a.flush();
        assertEquals(Optional.empty(), storeA.get("app/things/a/old"));
        assertEquals(Map.of(), heardByB.entries);
    }

    @Test
    void changesMadeWithoutASessionAreWrittenWhenItIsBack() {
        start(NEVER);
        storeA.setAvailable(false);
        a.put("x", bytes("1"));
        a.flush();
        assertEquals(0, a.writes());
        storeA.setAvailable(true);
        a.connectionChanged(true);
        a.flush();
        assertEquals(Map.of("a/x", "1"), heardByB.entries);
    }

    @Test
    void aWatchTheStoreRefusedStartsWhenTheSessionIsBack() {
        storeB.setAvailable(false);
        start(NEVER);
        a.put("x", bytes("1"));
        a.flush();
        assertEquals(Map.of(), heardByB.entries);
        storeB.setAvailable(true);
        b.connectionChanged(true);
        waitFor(() -> heardByB.entries.equals(Map.of("a/x", "1")), "b's watch, started on its thread");
    }

    @Test
    void closingDeletesOurEntries() {
        start(NEVER);
        a.put("x", bytes("1"));
        a.flush();
        a.close();
        assertEquals(Map.of(), heardByB.entries);
        assertEquals(Set.of(), storeB.list("app/things/a").keySet());
    }

    @Test
    void badIdsAndPrefixesAreRefusedNamingThem() {
        start(NEVER);
        IllegalArgumentException slash = assertThrows(IllegalArgumentException.class, () -> a.put("x/y", bytes("1")));
        assertTrue(slash.getMessage().contains("'x/y'"), slash.getMessage());
        IllegalArgumentException prefix = assertThrows(IllegalArgumentException.class,
                () -> new OwnedEntries(storeA, clusterA, "/app", heardByA, thread, NEVER, 0));
        assertTrue(prefix.getMessage().contains("'/app'"), prefix.getMessage());
        for (String id : List.of("", "a/b")) {
            assertThrows(IllegalArgumentException.class, () -> a.remove(id));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }

    private static String text(Optional<SharedStore.Versioned> value) {
        return new String(value.orElseThrow().value(), UTF_8);
    }

    private static void waitFor(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
