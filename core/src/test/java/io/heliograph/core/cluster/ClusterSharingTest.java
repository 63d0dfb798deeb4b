package io.heliograph.core.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.InMemorySharedStore;

/**
 * The binding of an app to the store and the cluster as they come, go and change. Its sharing here,
 * {@link Presence}, writes this instance's key into the store it was opened through and deletes it
 * when closed, so the store shows which sharing is open; every step is logged with its thread.
 */
class ClusterSharingTest {

    private final List<String> log = new CopyOnWriteArrayList<>();
    private final InMemorySharedStore storeOne = new InMemorySharedStore();
    private final InMemorySharedStore storeTwo = new InMemorySharedStore();
    private final FakeClusterService clusterOne = new FakeClusterService("a");
    private final FakeClusterService clusterTwo = new FakeClusterService("a");
    private final ClusterSharing<Presence> sharing = new ClusterSharing<>("test", this::open,
            ended -> log.add("ended " + ended.name + " on " + Thread.currentThread().getName()));

    /** An app's sharing: its instance's key is in the store while it is open. */
    private final class Presence implements ClusterSharing.Sharing {
        final String name;
        final SharedStore store;
        final String self;
        final List<String> heard = new CopyOnWriteArrayList<>();

        Presence(String name, SharedStore store, String self) {
            this.name = name;
            this.store = store;
            this.self = self;
        }

        @Override
        public void start() {
            log.add("start " + name);
            store.put("test/present/" + self, name.getBytes(UTF_8));
        }

        @Override
        public void close() {
            log.add("close " + name);
            store.delete("test/present/" + self);
        }

        @Override
        public void instanceJoined(ClusterInstance instance) {
            heard.add("joined " + instance.id());
        }

        @Override
        public void instanceLeft(ClusterInstance instance) {
            heard.add("left " + instance.id());
        }

        @Override
        public void connectionChanged(boolean connected) {
            heard.add("connected " + connected);
        }
    }

    private Presence open(SharedStore store, ClusterService cluster, ScheduledExecutorService thread) {
        String name = (store == storeOne ? "store1" : "store2") + "+" + (cluster == clusterOne ? "cluster1" : "cluster2");
        log.add("open " + name + " on " + Thread.currentThread().getName());
        return new Presence(name, store, cluster.getLocalInstance().id());
    }

    @AfterEach
    void stop() {
        sharing.stop();
    }

    /** Waits until the changes asked for so far have been made on the sharing's thread. */
    private void settle() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        sharing.execute(done::countDown);
        assertTrue(done.await(5, TimeUnit.SECONDS), "the sharing's thread answers");
    }

    private static String present(InMemorySharedStore store) {
        return store.get("test/present/a").map(v -> new String(v.value(), UTF_8)).orElse(null);
    }

    @Test
    void servicesBoundBeforeItStartsAreSharedThroughWhenItStartsOnItsOwnThread() throws InterruptedException {
        sharing.bindStore(storeOne);
        sharing.bindCluster(clusterOne);
        assertNull(sharing.current(), "nothing before the app's state is ready");
        assertEquals(List.of(), log);
        sharing.start();
        settle();
        assertEquals(List.of("open store1+cluster1 on heliograph-test-store", "start store1+cluster1"), log);
        assertEquals("store1+cluster1", present(storeOne));
        assertSame(storeOne, sharing.store());
    }

    @Test
    void itSharesOnlyWhileBothTheStoreAndTheClusterAreBound() throws InterruptedException {
        sharing.start();
        sharing.bindStore(storeOne);
        settle();
        assertNull(sharing.current(), "a store without a cluster");
        sharing.bindCluster(clusterOne);
        settle();
        assertNotNull(sharing.current());
        assertEquals("store1+cluster1", present(storeOne));

        sharing.unbindCluster(clusterOne);
        settle();
        assertNull(sharing.current());
        assertNull(present(storeOne), "this instance's part left the store with the cluster");
        assertEquals(List.of("open store1+cluster1 on heliograph-test-store", "start store1+cluster1",
                "close store1+cluster1", "ended store1+cluster1 on heliograph-test-store"), log);

        sharing.unbindStore(storeOne);
        sharing.bindCluster(clusterOne);
        settle();
        assertNull(sharing.current(), "a cluster without a store");
        sharing.bindStore(storeOne);
        settle();
        assertEquals("store1+cluster1", present(storeOne), "shared again when both are back");
    }

    /**
     * DS binds a greedy reference's better service before it unbinds the old one: the sharing moves
     * to the new store at once (the old one closed and ended first), and the late unbinding of the
     * old store changes nothing.
     */
    @Test
    void aReplacedStoreEndsTheOldSharingBeforeTheNewOneOpens() throws InterruptedException {
        sharing.bindStore(storeOne);
        sharing.bindCluster(clusterOne);
        sharing.start();
        settle();
        log.clear();
        sharing.bindStore(storeTwo);
        sharing.unbindStore(storeOne);
        settle();
        assertEquals(List.of("close store1+cluster1", "ended store1+cluster1 on heliograph-test-store",
                "open store2+cluster1 on heliograph-test-store", "start store2+cluster1"), log);
        assertNull(present(storeOne), "gone from the old store");
        assertEquals("store2+cluster1", present(storeTwo));
        assertSame(storeTwo, sharing.store());

        log.clear();
        sharing.bindCluster(clusterTwo);
        sharing.unbindCluster(clusterOne);
        settle();
        assertEquals(List.of("close store2+cluster1", "ended store2+cluster1 on heliograph-test-store",
                "open store2+cluster2 on heliograph-test-store", "start store2+cluster2"), log);
    }

    @Test
    void clusterEventsReachTheSharingOpenNowAndNoOther() throws InterruptedException {
        sharing.start();
        sharing.instanceJoined(clusterOne.join("b")); // nothing open: dropped, no failure
        sharing.bindStore(storeOne);
        sharing.bindCluster(clusterOne);
        settle();
        Presence first = sharing.current();
        sharing.instanceJoined(clusterOne.join("c"));
        sharing.connectionChanged(false);
        sharing.bindStore(storeTwo);
        settle();
        Presence second = sharing.current();
        sharing.instanceLeft(clusterOne.leave("c"));
        assertEquals(List.of("joined c", "connected false"), first.heard);
        assertEquals(List.of("left c"), second.heard);
    }

    @Test
    void stoppingClosesTheSharingWithoutEndingItAndLaterBindingsDoNothing() throws InterruptedException {
        sharing.bindStore(storeOne);
        sharing.bindCluster(clusterOne);
        sharing.start();
        settle();
        log.clear();
        sharing.stop();
        assertEquals(List.of("close store1+cluster1"), log, "the app is stopping: nothing to drop");
        assertNull(present(storeOne), "this instance's part left the store with the app");
        assertNull(sharing.current());
        sharing.bindStore(storeTwo);
        sharing.execute(() -> log.add("ran after stop"));
        assertEquals(List.of("close store1+cluster1"), log);
        assertNull(present(storeTwo));
    }

    @Test
    void aSharingThatFailsToOpenIsLoggedAndTheNextChangeStillShares() throws InterruptedException {
        Set<SharedStore> refused = Set.of(storeOne);
        ClusterSharing<Presence> picky = new ClusterSharing<>("picky", (store, cluster, thread) -> {
            if (refused.contains(store)) {
                throw new IllegalStateException("refused");
            }
            return open(store, cluster, thread);
        }, ended -> { });
        try {
            picky.start();
            picky.bindCluster(clusterOne);
            picky.bindStore(storeOne);
            picky.bindStore(storeTwo);
            CountDownLatch done = new CountDownLatch(1);
            picky.execute(done::countDown);
            assertTrue(done.await(5, TimeUnit.SECONDS));
            assertEquals("store2+cluster1", present(storeTwo));
            assertEquals("store2+cluster1", picky.current().name);
        } finally {
            picky.stop();
        }
    }
}
