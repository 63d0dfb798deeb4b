package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.testing.SharedStoreContract;

/**
 * The SharedStore contract on the ZooKeeper store: each instance has its own session on one real
 * ZooKeeper server. Sessions are lost by stopping the server, and expired as a paused JVM's would be.
 */
class ZooKeeperStoreContractTest extends SharedStoreContract {

    /**
     * Longer than the one second of the other tests. An expiry injected into a client leaves the
     * server holding the session until its timeout; with one second, a loaded machine could let the
     * server end it, and hand its leadership to another, before the client's own threads told its
     * leader, so the order the contract checks would be the machine's load and not the store's.
     * With five, another leads only once the expired client's new session deletes its old latch
     * node, which Curator's latch does on reconnecting, after the loss that told its leader.
     */
    private static final int SESSION_TIMEOUT_MS = 5000;

    @TempDir
    static Path serverDir;
    private static TestZooKeeper zookeeper;

    private final Map<SharedStore, ZooKeeperSession> sessions = new IdentityHashMap<>();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void startServer() throws Exception {
        zookeeper = new TestZooKeeper(serverDir, Map.of("maxSessionTimeout", String.valueOf(SESSION_TIMEOUT_MS)));
    }

    @AfterAll
    static void stopServer() throws Exception {
        zookeeper.close();
    }

    @Override
    protected SharedStore instance(String name) throws Exception {
        ZooKeeperSession session = new ZooKeeperSession(TestZooKeeper.settings(zookeeper.connectString(), name,
                SESSION_TIMEOUT_MS));
        opened.add(session);
        assertTrue(session.awaitConnected(TestZooKeeper.WAIT), "session " + name + " connected");
        ZooKeeperStore store = new ZooKeeperStore(session);
        opened.add(store);
        sessions.put(store, session);
        return store;
    }

    @AfterEach
    void closeAndClear() throws Exception {
        ZooKeeperSession any = sessions.values().iterator().next();
        assertTrue(any.awaitConnected(TestZooKeeper.WAIT), "a session to clear the store with");
        any.client().delete().quietly().deletingChildrenIfNeeded().forPath(ClusterPaths.ROOT);
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Override
    protected void loseSessions() throws Exception {
        zookeeper.server().stop();
        for (ZooKeeperSession session : sessions.values()) {
            TestZooKeeper.await(() -> !session.isConnected(), session.instanceId() + " to see the server gone");
        }
    }

    @Override
    protected void restoreSessions() throws Exception {
        zookeeper.server().restart();
        for (ZooKeeperSession session : sessions.values()) {
            assertTrue(session.awaitConnected(TestZooKeeper.WAIT), session.instanceId() + " connected again");
        }
    }

    /** As if the instance's JVM had paused past its session timeout: the client sees the expiry, the server ends it. */
    @Override
    protected void expireSession(SharedStore instance) throws Exception {
        sessions.get(instance).client().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
    }
}
