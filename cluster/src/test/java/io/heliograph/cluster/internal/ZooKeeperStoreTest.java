package io.heliograph.cluster.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreListener;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.cluster.SharedStore.Watch;

/**
 * The shared store on a real ZooKeeper server, written and read by two instances' sessions: what it does beyond
 * SharedStore's contract (ZooKeeperStoreContractTest runs that), its nodes, messages and larger loads.
 */
@Timeout(60)
class ZooKeeperStoreTest {

    @TempDir
    static Path serverDir;
    private static TestZooKeeper zookeeper;

    private final List<AutoCloseable> sessions = new ArrayList<>();
    private ZooKeeperSession sessionA;
    private ZooKeeperStore a;
    private ZooKeeperStore b;

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper(serverDir);
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @BeforeEach
    void twoInstances() throws Exception {
        sessionA = open("a");
        a = track(new ZooKeeperStore(sessionA));
        b = track(new ZooKeeperStore(open("b")));
    }

    @AfterEach
    void closeAndClear() throws Exception {
        sessionA.client().delete().quietly().deletingChildrenIfNeeded().forPath(ClusterPaths.ROOT);
        for (int i = sessions.size() - 1; i >= 0; i--) {
            sessions.get(i).close();
        }
    }



    @Test
    void concurrentUpdatesFromTwoInstancesNeverLoseAnIncrement() throws Exception {
        int perThread = 50;
        List<SharedStore> writers = List.of(a, a, b, b);
        ExecutorService threads = Executors.newFixedThreadPool(writers.size());
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger attempts = new AtomicInteger();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (SharedStore store : writers) {
                done.add(threads.submit(() -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        store.update("counters/packets", old -> {
                            attempts.incrementAndGet();
                            return bytes(Long.toString(old == null ? 1 : Long.parseLong(text(old)) + 1));
                        });
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
        System.out.printf("%d concurrent increments from 2 sessions took %d change attempts%n", total, attempts.get());
    }



    @Test
    void deleteRemovesTheKeyWhatIsBelowItAndTheParentsItLeavesEmpty() throws Exception {
        a.put("staticflows/entries/s1/f1", bytes("x"));
        a.put("staticflows/entries/s1/f1/detail", bytes("y"));
        a.put("staticflows/other", bytes("z"));
        assertTrue(b.delete("staticflows/entries/s1/f1"));
        assertEquals(Optional.empty(), a.get("staticflows/entries/s1/f1/detail"));
        assertFalse(b.delete("staticflows/entries/s1/f1"), "nothing left to delete");
        assertNull(sessionA.client().checkExists().forPath(ClusterPaths.STORE + "/staticflows/entries"),
                "the parents left without values or children are gone");
        assertEquals("z", text(a.get("staticflows/other").orElseThrow().value()), "a sibling stays");
    }

    @Test
    void parentsMadeForAKeyAreNotValues() {
        a.put("topology/links/l1", bytes("link"));
        assertEquals(Optional.empty(), b.get("topology"));
        assertEquals(Map.of(), b.list("topology"), "topology/links has no value");
        assertEquals(Set.of("l1"), b.list("topology/links").keySet());

        assertEquals(0, b.put("topology/links", bytes("now a value")).version() - 1,
                "a parent becomes a value by a write (its node's version moves on from 0)");
        assertEquals(Set.of("links"), a.list("topology").keySet());
        assertEquals(Map.of(), a.list(""), "the whole store's top keys: none has a value");
        a.put("version", bytes("1"));
        assertEquals(Set.of("version"), a.list("").keySet());
    }



    @Test
    void badKeysAndValuesAreRefusedNamingTheProblem() {
        assertRefused(() -> a.get("a//b"), "store key 'a//b': empty segment");
        assertRefused(() -> a.put("/abs", bytes("x")), "store key '/abs' starts or ends with '/'");
        assertRefused(() -> a.put("a/", bytes("x")), "store key 'a/' starts or ends with '/'");
        assertRefused(() -> a.put("a b", bytes("x")), "store key 'a b': segment 'a b' has character U+0020");
        assertRefused(() -> a.put("a/../b", bytes("x")), "store key 'a/../b': segment '..' is not allowed");
        assertRefused(() -> a.put("x/" + "s".repeat(201), bytes("x")), "segment of 201 characters (at most 200)");
        assertRefused(() -> a.put("flows/é", bytes("x")), "segment 'é' has character U+00E9");
        assertRefused(() -> a.put("", bytes("x")), "store key is empty");
        assertRefused(() -> a.delete(null), "store key is null");
        assertRefused(() -> a.put("k", new byte[0]), "value of store key 'k' is empty");
        assertRefused(() -> a.put("k", null), "value of store key 'k' is null");
        assertRefused(() -> a.put("k", new byte[SharedStore.MAX_VALUE_BYTES + 1]),
                "value of store key 'k' has 524289 bytes, more than the 524288 the store keeps");
        assertRefused(() -> a.replace("k", -2, bytes("x")), "must be Versioned.ABSENT (-1) or a version");
        assertRefused(() -> a.update("k", old -> new byte[0]), "value of store key 'k' is empty");
        assertRefused(() -> a.lead("a b", leader -> { }), "leadership name 'a b'");
        assertEquals(Map.of(), a.list(""), "nothing was written by the refused calls");
        a.put("ok/with.all_the-allowed:chars@1", bytes("fine"));
    }


    @Test
    void aWatchSeesValuesOfOneKeyInWriteOrder() throws Exception {
        TestZooKeeper.Heard<String> heard = new TestZooKeeper.Heard<>();
        try (Watch watch = b.watch("seq", recorder(heard, ConcurrentHashMap.newKeySet()))) {
            for (int i = 0; i < 20; i++) {
                a.put("seq", bytes(Integer.toString(i)));
            }
            List<String> before = heard.awaitEvent("changed seq=19@19");
            // what came before the last value: in order, versions rising (quick writes may be coalesced)
            int last = -1;
            for (String event : before) {
                int version = Integer.parseInt(event.substring(event.indexOf('@') + 1));
                assertTrue(version > last, "versions rise: " + before);
                last = version;
            }
        }
    }

    @Test
    void leadershipMovesWhenTheLeadersSessionCloses() throws Exception {
        ZooKeeperSession sessionC = open("c");
        ZooKeeperStore c = track(new ZooKeeperStore(sessionC));
        TestZooKeeper.Heard<Boolean> heardA = new TestZooKeeper.Heard<>();
        TestZooKeeper.Heard<Boolean> heardC = new TestZooKeeper.Heard<>();
        track(a.lead("optimiser", heardA::add));
        assertTrue(heardA.next("a to lead alone"));
        Watch cLeads = track(c.lead("optimiser", heardC::add));

        sessionA.close();   // the leader's instance goes away
        assertTrue(heardC.next("c to lead once a's session is closed"));

        TestZooKeeper.Heard<Boolean> heardB = new TestZooKeeper.Heard<>();
        track(b.lead("optimiser", heardB::add));
        cLeads.close();     // giving it up: c hears it, b leads
        assertFalse(heardC.next("c to hear it leads no more"));
        assertTrue(heardB.next("b to lead after c gave it up"));
        sessionA = sessionC;   // for the clean-up: a's session is closed
    }


    private ZooKeeperSession open(String id) throws Exception {
        ZooKeeperSession session = new ZooKeeperSession(TestZooKeeper.settings(zookeeper.connectString(), id,
                TestZooKeeper.SESSION_TIMEOUT_MS));
        sessions.add(session);
        assertTrue(session.awaitConnected(TestZooKeeper.WAIT), "session " + id + " connected");
        return session;
    }

    private <T extends AutoCloseable> T track(T closeable) {
        sessions.add(closeable);
        return closeable;
    }

    private static StoreListener recorder(TestZooKeeper.Heard<String> heard, Set<Thread> threads) {
        return new StoreListener() {
            @Override
            public void changed(Versioned value) {
                threads.add(Thread.currentThread());
                heard.add("changed " + value.key() + "=" + text(value.value()) + "@" + value.version());
            }

            @Override
            public void removed(String key) {
                threads.add(Thread.currentThread());
                heard.add("removed " + key);
            }
        };
    }

    private static void assertRefused(org.junit.jupiter.api.function.Executable call, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(message), "'" + e.getMessage() + "' says " + message);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, UTF_8);
    }
}
