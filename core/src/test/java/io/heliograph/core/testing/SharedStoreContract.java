package io.heliograph.core.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.LeadershipListener;
import io.heliograph.core.cluster.SharedStore.StoreListener;
import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.cluster.SharedStore.Watch;

/**
 * What every {@link SharedStore} does, run against each of them (the ZooKeeper store in the cluster
 * module, {@link InMemorySharedStore} in core) so that the test fake cannot drift from the real store.
 * It asserts SharedStore's javadoc and, where the javadoc leaves room, what the ZooKeeper store does
 * (versions of keys that were parents first, watches on the prefix key itself, refused "." segments).
 *
 * <p>A subclass gives instances of one store, empty at the start of each test, as separate controller
 * JVMs would see it, and takes sessions away. Listeners may run on the store's own thread after the
 * call that caused the event returned: the tests wait for events ({@link #eventWait()}) and allow
 * what the javadoc allows (quick writes of one key heard as the last value only).
 */
@Timeout(60)
public abstract class SharedStoreContract {

    /** An instance of this test's store, with its own session, watches and candidacies. */
    protected abstract SharedStore instance(String name) throws Exception;

    /** Takes every instance's session away; returns once their calls fail with StoreUnavailableException. */
    protected abstract void loseSessions() throws Exception;

    /** Gives the sessions back; returns once every instance has one. */
    protected abstract void restoreSessions() throws Exception;

    /** Ends one instance's session as its expiry would; it gets a new one afterwards. */
    protected abstract void expireSession(SharedStore instance) throws Exception;

    /** How long a test waits for an event that should come. */
    protected Duration eventWait() {
        return Duration.ofSeconds(15);
    }

    protected SharedStore a;
    protected SharedStore b;

    @BeforeEach
    void twoInstances() throws Exception {
        a = instance("a");
        b = instance("b");
    }

    // --- values and versions ---

    @Test
    void versionsStartAtZeroGrowByOneAndEveryInstanceReadsThem() {
        Versioned first = a.put("apps/routing/config", bytes("one"));
        assertEquals("apps/routing/config", first.key());
        assertEquals(0, first.version());
        assertEquals("one", text(first.value()));
        assertEquals(1, a.put("apps/routing/config", bytes("two")).version());

        Versioned read = b.get("apps/routing/config").orElseThrow();
        assertEquals("apps/routing/config", read.key());
        assertEquals("two", text(read.value()));
        assertEquals(1, read.version());
        assertEquals(Optional.empty(), b.get("apps/routing/other"));
        assertEquals(Optional.empty(), b.get("apps/routing/config/below"));
    }

    @Test
    void valuesAreCopiedInAndOut() {
        byte[] value = bytes("kept");
        Versioned written = a.put("k", value);
        value[0] = 'X';
        written.value()[0] = 'Y';
        a.get("k").orElseThrow().value()[0] = 'Z';
        assertEquals("kept", text(b.get("k").orElseThrow().value()));
        assertEquals("kept", text(a.get("k").orElseThrow().value()));
    }

    @Test
    void theLargestValueIsKept() {
        byte[] largest = new byte[SharedStore.MAX_VALUE_BYTES];
        largest[largest.length - 1] = 7;
        a.put("big", largest);
        assertArrayEquals(largest, b.get("big").orElseThrow().value());
    }

    @Test
    void aParentMadeByAWriteBelowItHoldsNoValueUntilWrittenAndThenContinuesItsNodesVersion() {
        a.put("topology/links/l1", bytes("link"));
        assertEquals(Optional.empty(), b.get("topology"));
        assertEquals(Optional.empty(), b.get("topology/links"));
        assertEquals(Map.of(), b.list("topology"), "topology/links has no value");

        // in ZooKeeper the parent is a node of version 0 without data: its first value is version 1
        assertEquals(1, b.put("topology/links", bytes("now a value")).version());
        assertEquals(List.of("links"), List.copyOf(a.list("topology").keySet()));
        Versioned claimed = b.replace("topology", Versioned.ABSENT, bytes("claimed")).orElseThrow();
        assertEquals(1, claimed.version(), "replace of an absent key that is a parent");
        assertEquals("claimed", text(a.get("topology").orElseThrow().value()));
        assertEquals(Optional.empty(), a.replace("topology", Versioned.ABSENT, bytes("again")));
    }

    // --- replace ---

    @Test
    void replaceWritesOnlyOverTheExpectedVersion() {
        assertEquals(0, a.replace("k", Versioned.ABSENT, bytes("a0")).orElseThrow().version());
        assertEquals(Optional.empty(), b.replace("k", Versioned.ABSENT, bytes("b0")), "the key exists");

        Versioned b1 = b.replace("k", 0, bytes("b1")).orElseThrow();
        assertEquals(1, b1.version());
        assertEquals("b1", text(b1.value()));
        assertEquals(Optional.empty(), a.replace("k", 0, bytes("a1")), "a's version 0 is stale");
        assertEquals(Optional.empty(), a.replace("k", 2, bytes("a1")), "a version not reached yet");
        Versioned read = a.get("k").orElseThrow();
        assertEquals("b1", text(read.value()));
        assertEquals(1, read.version());

        assertTrue(a.delete("k"));
        assertEquals(Optional.empty(), a.replace("k", 1, bytes("a2")), "no key, no version");
        assertEquals(Optional.empty(), a.replace("never", 0, bytes("a2")), "no key, no version");
        assertEquals(Optional.empty(), b.get("never"));
        assertEquals(0, a.replace("k", Versioned.ABSENT, bytes("a3")).orElseThrow().version(), "absent again");
    }

    // --- update ---

    @Test
    void updateSeesNullForAnAbsentKeyAndDeletesOnNull() {
        List<String> seen = new ArrayList<>();
        Versioned created = a.update("n", old -> {
            seen.add(String.valueOf(old == null ? null : text(old)));
            return bytes("1");
        }).orElseThrow();
        assertEquals("n", created.key());
        assertEquals("1", text(created.value()));
        assertEquals(0, created.version());

        Versioned second = b.update("n", old -> {
            seen.add(text(old));
            return bytes(text(old) + "+1");
        }).orElseThrow();
        assertEquals(1, second.version());
        assertEquals("1+1", text(a.get("n").orElseThrow().value()));

        assertEquals(Optional.empty(), a.update("n", old -> {
            seen.add(text(old));
            return null;
        }));
        assertEquals(Optional.empty(), b.get("n"));
        assertEquals(Optional.empty(), a.update("never", old -> {
            seen.add(String.valueOf(old == null ? null : text(old)));
            return null;
        }), "deleting nothing");
        assertEquals(Optional.empty(), b.get("never"));
        assertEquals(List.of("null", "1", "1+1", "null"), seen);
    }

    @Test
    void theChangesOwnFailureReachesTheCallerAndWritesNothing() {
        a.put("n", bytes("before"));
        IllegalStateException own = new IllegalStateException("the change's own failure");
        assertSame(own, assertThrows(IllegalStateException.class, () -> a.update("n", old -> {
            throw own;
        })));
        Versioned kept = b.get("n").orElseThrow();
        assertEquals("before", text(kept.value()));
        assertEquals(0, kept.version());
    }

    @Test
    void updateRetriesWhenAnotherWriteCameInBetween() {
        a.put("counter", bytes("1"));
        AtomicInteger calls = new AtomicInteger();
        Versioned written = a.update("counter", old -> {
            if (calls.getAndIncrement() == 0) {
                b.put("counter", bytes("10"));
            }
            return bytes(Integer.toString(Integer.parseInt(text(old)) + 1));
        }).orElseThrow();
        assertEquals(2, calls.get(), "the change ran again on the value the other write left");
        assertEquals("11", text(written.value()));
        assertEquals(2, written.version());
        assertEquals("11", text(b.get("counter").orElseThrow().value()));
    }

    @Test
    void concurrentUpdatesFromTwoInstancesNeverLoseAnIncrement() throws Exception {
        int perThread = 20;
        List<SharedStore> writers = List.of(a, a, b, b);
        ExecutorService threads = Executors.newFixedThreadPool(writers.size());
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (SharedStore store : writers) {
                done.add(threads.submit(() -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        store.update("counters/packets",
                                old -> bytes(Long.toString(old == null ? 1 : Long.parseLong(text(old)) + 1)));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(50, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        int total = perThread * writers.size();
        Versioned counter = b.get("counters/packets").orElseThrow();
        assertEquals(Integer.toString(total), text(counter.value()));
        assertEquals(total - 1, counter.version(), "one write per increment");
    }

    @Test
    void anUpdateThatDeletesAKeyWithKeysBelowClearsOnlyItsValue() {
        a.put("flows", bytes("parent"));
        a.put("flows/f1", bytes("child"));
        assertEquals(Optional.empty(), a.update("flows", old -> null));
        assertEquals(Optional.empty(), b.get("flows"));
        assertEquals("child", text(b.get("flows/f1").orElseThrow().value()));
        assertEquals(List.of("f1"), List.copyOf(b.list("flows").keySet()));
        // the cleared node's version goes on: two writes so far, this is the third
        assertEquals(2, b.put("flows", bytes("again")).version());
    }

    // --- delete ---

    @Test
    void deleteRemovesTheKeyAndEverythingBelowItAndNothingElse() {
        a.put("staticflows/entries/s1/f1", bytes("x"));
        a.put("staticflows/entries/s1/f1/detail", bytes("y"));
        a.put("staticflows/entries/s1/f10", bytes("a sibling whose name starts alike"));
        a.put("staticflows/other", bytes("z"));
        assertTrue(b.delete("staticflows/entries/s1/f1"));
        assertEquals(Optional.empty(), a.get("staticflows/entries/s1/f1"));
        assertEquals(Optional.empty(), a.get("staticflows/entries/s1/f1/detail"));
        assertFalse(b.delete("staticflows/entries/s1/f1"), "nothing left to delete");
        assertFalse(b.delete("nothing/here"));
        assertEquals("z", text(a.get("staticflows/other").orElseThrow().value()), "a sibling stays");
        assertEquals(List.of("f10"), List.copyOf(a.list("staticflows/entries/s1").keySet()));
    }

    @Test
    void deletingAParentWithoutValueDeletesWhatIsBelowIt() {
        a.put("p/q/r", bytes("r"));
        a.put("p/s", bytes("s"));
        assertTrue(b.delete("p"));
        assertEquals(Map.of(), a.list("p"));
        assertEquals(Map.of(), a.list("p/q"));
        assertEquals(Optional.empty(), a.get("p/q/r"));
        assertEquals(0, a.put("p/q", bytes("fresh")).version(), "the parent went too: a new key starts at 0");
    }

    // --- list ---

    @Test
    void listGivesTheValuesDirectlyBelowByLastSegmentInOrder() {
        a.put("devices/d2", bytes("two"));
        a.put("devices/d1", bytes("one"));
        a.put("devices/d2/ports/p1", bytes("deeper"));
        a.put("devices/d3/ports/p1", bytes("below a parent without value"));
        a.put("devices0", bytes("a sibling that sorts just after"));
        a.put("devices", bytes("the parent itself"));
        Map<String, Versioned> listed = b.list("devices");
        assertEquals(List.of("d1", "d2"), List.copyOf(listed.keySet()));
        assertEquals("devices/d2", listed.get("d2").key());
        assertEquals("two", text(listed.get("d2").value()));
        assertEquals(0, listed.get("d2").version());
        assertEquals(Map.of(), b.list("nothing/here"));
        assertEquals(Map.of(), b.list("devices/d1"), "a key with nothing below");
    }

    @Test
    void theEmptyPrefixListsAndWatchesTheWholeStore() throws Exception {
        assertEquals(Map.of(), a.list(""));
        a.put("top", bytes("t"));
        a.put("a/b", bytes("b"));
        assertEquals(List.of("top"), List.copyOf(b.list("").keySet()));
        Heard heard = new Heard();
        try (Watch watch = b.watch("", heard)) {
            assertEquals(Set.of("changed a/b=b@0", "changed top=t@0"), Set.of(heard.next(), heard.next()));
            a.put("z/y", bytes("y"));
            assertEquals("changed z/y=y@0", heard.next());
        }
    }

    // --- bad input ---

    @Test
    void badKeysAreRefusedNamingTheKeyAndTheProblem() {
        Map<String, String> problems = Map.of(
                "a//b", "'a//b'",
                "/abs", "'/abs'",
                "a/", "'a/'",
                "a b", "'a b'",
                "flows/é", "'flows/é'",
                "a/../b", "'a/../b'",
                "a/./b", "'a/./b'",
                "x/" + "s".repeat(201), "201");
        problems.forEach((key, named) -> {
            for (Executable call : List.<Executable>of(() -> a.get(key), () -> a.put(key, bytes("x")),
                    () -> a.replace(key, Versioned.ABSENT, bytes("x")), () -> a.update(key, old -> bytes("x")),
                    () -> a.delete(key), () -> a.list(key), () -> a.watch(key, new Heard()),
                    () -> a.lead(key, leader -> { }))) {
                assertRefused(call, named);
            }
        });
        assertRefused(() -> a.put("", bytes("x")), "empty");
        assertRefused(() -> a.get(""), "empty");
        assertRefused(() -> a.lead("", leader -> { }), "empty");
        assertRefused(() -> a.delete(null), "null");
        assertRefused(() -> a.list(null), "null");
        assertRefused(() -> a.watch(null, new Heard()), "null");
        assertEquals(Map.of(), b.list(""), "nothing was written by the refused calls");

        a.put("ok/with.all_the-allowed:chars@1/" + "x".repeat(200), bytes("fine"));
        assertEquals("fine", text(b.get("ok/with.all_the-allowed:chars@1/" + "x".repeat(200)).orElseThrow().value()));
    }

    @Test
    void badValuesAndVersionsAreRefusedNamingTheProblem() {
        a.put("k", bytes("kept"));
        assertRefused(() -> a.put("k", null), "null");
        assertRefused(() -> a.put("k", new byte[0]), "empty");
        assertRefused(() -> a.put("k", new byte[SharedStore.MAX_VALUE_BYTES + 1]),
                Integer.toString(SharedStore.MAX_VALUE_BYTES + 1));
        assertRefused(() -> a.replace("k", 0, new byte[0]), "empty");
        assertRefused(() -> a.replace("k", 0, null), "null");
        assertRefused(() -> a.replace("k", -2, bytes("x")), "-2");
        assertRefused(() -> a.replace("k", 1L << 31, bytes("x")), Long.toString(1L << 31));
        assertRefused(() -> a.update("k", old -> new byte[0]), "empty");
        assertRefused(() -> a.update("k", old -> new byte[SharedStore.MAX_VALUE_BYTES + 1]),
                Integer.toString(SharedStore.MAX_VALUE_BYTES + 1));
        Versioned kept = b.get("k").orElseThrow();
        assertEquals("kept", text(kept.value()));
        assertEquals(0, kept.version(), "nothing was written by the refused calls");
        assertEquals(List.of("k"), List.copyOf(b.list("").keySet()));
    }

    // --- watches ---

    @Test
    void aWatchHearsTheExistingValuesFirstThenEveryChangeInOrder() throws Exception {
        a.put("flows/f1", bytes("v0"));
        a.put("flows/f2", bytes("w0"));
        a.put("flows/f2/below", bytes("x0"));
        a.put("other/x", bytes("not watched"));
        a.put("flowsX/x", bytes("not below flows"));
        Heard heard = new Heard();
        Watch watch = b.watch("flows", heard);
        assertEquals(Set.of("changed flows/f1=v0@0", "changed flows/f2=w0@0", "changed flows/f2/below=x0@0"),
                Set.of(heard.next(), heard.next(), heard.next()), "the existing values, first");

        for (int i = 1; i <= 5; i++) {
            a.put("flows/f1", bytes("v" + i));
        }
        a.put("flows", bytes("the prefix key itself"));
        a.put("flows/f3/deeper", bytes("d"));
        a.update("flows/f2/below", old -> bytes("x1"));
        a.put("other/y", bytes("not watched"));
        a.put("flowsX/y", bytes("not below flows"));
        a.delete("flows/f2");
        // x1 may be heard or not: the key was deleted right after, and its last value is its removal
        List<String> changes = heard.until("changed flows/f1=v5@5", "changed flows=the prefix key itself@1",
                "changed flows/f3/deeper=d@0", "removed flows/f2/below", "removed flows/f2");
        assertInOrderPerKey(changes);
        assertTrue(changes.indexOf("changed flows/f3/deeper=d@0") > changes.indexOf("changed flows/f1=v5@5"),
                "a key written after f1's last value is heard after it: " + changes);
        assertTrue(changes.stream().noneMatch(e -> e.contains("other") || e.contains("flowsX")
                || e.startsWith("changed flows/f3=")), "neither keys outside the prefix nor parents without value: "
                + changes);

        watch.close();
        a.put("flows/f9", bytes("after close"));
        // a second watch, opened after that write, hears it first of all: by then the closed one had heard it
        Heard probe = new Heard();
        try (Watch second = b.watch("flows/f9", probe)) {
            assertEquals("changed flows/f9=after close@0", probe.next());
        }
        assertEquals(List.of(), heard.drained(), "a closed watch hears nothing");
        Set<Thread> threads = new HashSet<>(heard.threads);
        threads.addAll(probe.threads);
        assertEquals(1, threads.size(), "an instance's listeners run on one store thread: " + threads);
    }

    @Test
    void aWatchHearsAnotherInstancesWritesBelowAPrefixThatDidNotExist() throws Exception {
        Heard heard = new Heard();
        try (Watch watch = b.watch("later", heard)) {
            a.put("later/x/y", bytes("deep"));
            assertEquals("changed later/x/y=deep@0", heard.next());
            a.put("later", bytes("itself"));
            assertEquals("changed later=itself@1", heard.next());
            a.delete("later");
            assertEquals(Set.of("removed later", "removed later/x/y"), Set.of(heard.next(), heard.next()));
        }
    }

    @Test
    void aWatchHearsEveryValueADeleteTakesAndAnUpdateThatClearsAKey() throws Exception {
        a.put("s/1", bytes("one"));
        a.put("s/1/x", bytes("below one"));
        a.put("s/2", bytes("two"));
        a.put("p", bytes("parent"));
        a.put("p/c", bytes("child"));
        Heard heard = new Heard();
        try (Watch s = b.watch("s", heard); Watch p = b.watch("p", heard)) {
            heard.until("changed s/1=one@0", "changed s/1/x=below one@0", "changed s/2=two@0",
                    "changed p=parent@0", "changed p/c=child@0");
            assertTrue(a.delete("s"));
            assertEquals(Set.of("removed s/1", "removed s/1/x", "removed s/2"),
                    Set.of(heard.next(), heard.next(), heard.next()));
            a.update("p", old -> null);
            assertEquals("removed p", heard.next(), "only the cleared key: p/c stays");
            a.put("p/c", bytes("child again"));
            assertEquals("changed p/c=child again@1", heard.next());
        }
    }

    @Test
    void aListenerThatFailsDoesNotStopItsWatch() throws Exception {
        Heard heard = new Heard();
        StoreListener failing = new StoreListener() {
            @Override
            public void changed(Versioned value) {
                heard.changed(value);
                if (value.key().equals("f/first")) {
                    throw new IllegalStateException("a listener's own failure, on purpose");
                }
            }

            @Override
            public void removed(String key) {
                heard.removed(key);
            }
        };
        try (Watch watch = b.watch("f", failing)) {
            a.put("f/first", bytes("1"));
            assertEquals("changed f/first=1@0", heard.next());
            a.put("f/second", bytes("2"));
            assertEquals("changed f/second=2@0", heard.next());
        }
    }

    // --- leadership ---

    @Test
    void oneCandidateLeadsAndClosingHandsTheLeadershipToTheNext() throws Exception {
        Heard timeline = new Heard();
        Watch aLeads = a.lead("optimiser", timeline.leadership("a"));
        assertEquals("a leads", timeline.next());
        Watch bLeads = b.lead("optimiser", timeline.leadership("b"));
        SharedStore c = instance("c");
        Watch cLeads = c.lead("optimiser", timeline.leadership("c"));

        aLeads.close();     // giving it up: a hears it, one of the others leads
        Set<String> next = Set.of(timeline.next(), timeline.next());
        assertTrue(next.contains("a leads no more"), next.toString());
        assertTrue(next.contains("b leads") ^ next.contains("c leads"), "exactly one leads next: " + next);
        boolean bLeadsNext = next.contains("b leads");
        String leader = bLeadsNext ? "b" : "c";
        String other = bLeadsNext ? "c" : "b";
        (bLeadsNext ? bLeads : cLeads).close();
        assertEquals(Set.of(leader + " leads no more", other + " leads"), Set.of(timeline.next(), timeline.next()));
        (bLeadsNext ? cLeads : bLeads).close();
        assertEquals(other + " leads no more", timeline.next());
    }

    @Test
    void eachLeadershipNameHasItsOwnLeader() throws Exception {
        Heard timeline = new Heard();
        try (Watch first = a.lead("apps/vdn/planner", timeline.leadership("a"));
             Watch second = b.lead("apps/circuit/scheduler", timeline.leadership("b"))) {
            assertEquals(Set.of("a leads", "b leads"), Set.of(timeline.next(), timeline.next()));
        }
    }

    @Test
    void aLeaderThatLosesItsSessionIsToldBeforeAnotherLeads() throws Exception {
        Heard timeline = new Heard();
        a.lead("optimiser", timeline.leadership("a"));
        assertEquals("a leads", timeline.next());
        b.lead("optimiser", timeline.leadership("b"));

        expireSession(a);
        assertEquals("a leads no more", timeline.next());
        assertEquals("b leads", timeline.next());
    }

    // --- sessions ---

    @Test
    void withoutASessionEveryCallFailsAndChangesNothingAndWatchesAndLeadershipsComeBack() throws Exception {
        a.put("k", bytes("before"));
        Heard heard = new Heard();
        Heard timeline = new Heard();
        Watch watch = a.watch("k", heard);
        assertEquals("changed k=before@0", heard.next());
        Watch leadership = a.lead("job", timeline.leadership("a"));
        assertEquals("a leads", timeline.next());

        loseSessions();
        assertEquals("a leads no more", timeline.next(), "a leader without session is told");
        List<Executable> calls = List.of(
                () -> a.get("k"),
                () -> a.put("k", bytes("x")),
                () -> a.replace("k", 0, bytes("x")),
                () -> a.update("k", old -> bytes("x")),
                () -> a.delete("k"),
                () -> a.list("k"),
                () -> a.list(""),
                () -> a.watch("k", new Heard()),
                () -> a.lead("job2", leader -> { }));
        for (Executable call : calls) {
            assertThrows(StoreUnavailableException.class, call);
        }

        restoreSessions();
        Versioned k = b.get("k").orElseThrow();
        assertEquals("before", text(k.value()));
        assertEquals(0, k.version(), "nothing was written without a session");
        assertEquals("a leads", timeline.next(), "the only candidate leads again");
        b.put("k", bytes("after"));
        assertEquals("changed k=after@1", heard.next(), "the watch still hears");
        watch.close();
        leadership.close();
        assertEquals("a leads no more", timeline.next());
    }

    // --- helpers ---

    /**
     * Checks that each key's events come in the order of its writes: versions rise (quick writes of
     * one key may be heard as the last value only), and a removal comes after the key's values.
     */
    private static void assertInOrderPerKey(List<String> events) {
        Map<String, Integer> last = new HashMap<>();
        for (String event : events) {
            if (event.startsWith("removed ")) {
                last.put(event.substring("removed ".length()), Integer.MAX_VALUE);
                continue;
            }
            String key = event.substring("changed ".length(), event.indexOf('='));
            int version = Integer.parseInt(event.substring(event.lastIndexOf('@') + 1));
            Integer before = last.put(key, version);
            assertTrue(before == null || before < version, "versions of " + key + " rise: " + events);
        }
    }

    private static void assertRefused(Executable call, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage() != null && e.getMessage().contains(named), "'" + e.getMessage() + "' names " + named);
    }

    protected static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    protected static String text(byte[] b) {
        return new String(b, UTF_8);
    }

    /** What listeners heard, as lines in order, taken with a wait; and the threads they ran on. */
    protected final class Heard implements StoreListener {
        private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();

        @Override
        public void changed(Versioned value) {
            threads.add(Thread.currentThread());
            events.add("changed " + value.key() + "=" + text(value.value()) + "@" + value.version());
        }

        @Override
        public void removed(String key) {
            threads.add(Thread.currentThread());
            events.add("removed " + key);
        }

        LeadershipListener leadership(String instance) {
            return leader -> {
                threads.add(Thread.currentThread());
                events.add(instance + (leader ? " leads" : " leads no more"));
            };
        }

        String next() throws InterruptedException {
            String event = events.poll(eventWait().toMillis(), TimeUnit.MILLISECONDS);
            if (event == null) {
                fail("nothing heard within " + eventWait());
            }
            return event;
        }

        /** Takes events until every one expected was heard, returning all taken; fails if one does not come. */
        List<String> until(String... expected) throws InterruptedException {
            List<String> taken = new ArrayList<>();
            Set<String> missing = new HashSet<>(List.of(expected));
            long deadline = System.nanoTime() + eventWait().toNanos();
            while (!missing.isEmpty()) {
                String event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (event == null) {
                    throw new AssertionError("never heard " + missing + "; heard " + taken);
                }
                taken.add(event);
                missing.remove(event);
            }
            return Collections.unmodifiableList(taken);
        }

        List<String> drained() {
            List<String> all = new ArrayList<>();
            events.drainTo(all);
            return all;
        }
    }
}
