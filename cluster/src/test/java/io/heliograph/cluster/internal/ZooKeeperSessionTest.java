package io.heliograph.cluster.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;

/** The session's connection states on a real server that stops and starts, and the embedded server. */
@Timeout(60)
class ZooKeeperSessionTest {

    @TempDir
    Path dir;

    @Test
    void listenersHearSuspendedWhenTheServerStopsAndReconnectedWhenItIsBack() throws Exception {
        try (TestZooKeeper zookeeper = new TestZooKeeper(dir.resolve("server"))) {
            ZooKeeperSession session = zookeeper.session("a");
            ZooKeeperStore store = zookeeper.store(session);
            store.put("k", "before".getBytes(UTF_8));
            TestZooKeeper.Heard<String> heard = new TestZooKeeper.Heard<>();
            session.addListener(state -> heard.add(state + " connected=" + session.isConnected()));
            assertTrue(session.isConnected());
            assertEquals("connected", metricState(session));

            zookeeper.server().stop();
            assertEquals("SUSPENDED connected=false", heard.next("SUSPENDED after the server stopped"));
            assertEquals("suspended", metricState(session), "the metric follows the state the listeners heard");
            StoreUnavailableException refused = assertThrows(StoreUnavailableException.class,
                    () -> store.put("k", "during".getBytes(UTF_8)));
            assertTrue(refused.getMessage().contains("no ZooKeeper session (" + zookeeper.connectString() + ")"),
                    refused.getMessage());
            assertThrows(StoreUnavailableException.class, () -> store.get("k"));

            zookeeper.server().restart();
            String back = heard.next("the connection to come back");
            if (back.startsWith("LOST")) {
                back = heard.next("a new session after the lost one");
            }
            assertEquals("RECONNECTED connected=true", back);
            assertEquals("connected", metricState(session));
            assertEquals("before", new String(store.get("k").orElseThrow().value(), UTF_8),
                    "nothing was written while suspended, and the value survived the server's restart");
        }
    }

    /** The one state the session's metric marks 1 (the others are there, at 0). */
    private static String metricState(ZooKeeperSession session) {
        var samples = session.samples();
        assertEquals(ZooKeeperSession.STATES.size(), samples.size());
        var on = samples.stream().filter(s -> s.value() == 1).map(s -> s.labels().get("state")).toList();
        assertEquals(1, on.size(), samples.toString());
        return on.get(0);
    }

    @Test
    void aRemovedListenerHearsNothingMore() throws Exception {
        try (TestZooKeeper zookeeper = new TestZooKeeper(dir.resolve("server"))) {
            ZooKeeperSession session = zookeeper.session("a");
            TestZooKeeper.Heard<ConnectionState> kept = new TestZooKeeper.Heard<>();
            TestZooKeeper.Heard<ConnectionState> removed = new TestZooKeeper.Heard<>();
            session.addListener(kept::add);
            session.addListener(removed::add).close();
            zookeeper.server().stop();
            assertEquals(ConnectionState.SUSPENDED, kept.next("SUSPENDED"));
            assertEquals(java.util.List.of(), removed.drained());
        }
    }

    @Test
    void theEmbeddedServerGrantsTheConfiguredSessionTimeoutAndKeepsItsDataAcrossRestarts() throws Exception {
        Path data = dir.resolve("embedded");
        int firstPort;
        for (int timeout : new int[] {1000, 300, 9000}) {
            try (ZooKeeperSession session = new ZooKeeperSession(embedded(data, timeout))) {
                assertTrue(session.awaitConnected(TestZooKeeper.WAIT), "connected to the embedded server");
                EmbeddedZooKeeper server = session.embedded();
                assertEquals(timeout, session.negotiatedSessionTimeoutMs(), "negotiated session timeout");
                assertTrue(server.minSessionTimeout() <= timeout && timeout <= server.maxSessionTimeout());
                assertEquals(EmbeddedZooKeeper.tickFor(timeout), server.tickTime());
                assertEquals("127.0.0.1:" + server.port(), session.connectString());
                System.out.printf("embedded ZooKeeper: asked %d ms, negotiated %d ms, tick %d ms%n", timeout,
                        session.negotiatedSessionTimeoutMs(), server.tickTime());
            }
        }

        try (ZooKeeperSession first = new ZooKeeperSession(embedded(data, 1000))) {
            assertTrue(first.awaitConnected(TestZooKeeper.WAIT));
            firstPort = first.embedded().port();
            try (ZooKeeperStore store = new ZooKeeperStore(first)) {
                store.put("staticflows/entries/f1", "{\"priority\":10}".getBytes(UTF_8));
            }
            // a second embedded server at once, as a second controller on this machine: another free port
            try (ZooKeeperSession other = new ZooKeeperSession(embedded(dir.resolve("other"), 1000))) {
                assertTrue(other.awaitConnected(TestZooKeeper.WAIT));
                assertNotEquals(firstPort, other.embedded().port());
            }
        }
        try (ZooKeeperSession again = new ZooKeeperSession(embedded(data, 1000));
             ZooKeeperStore store = new ZooKeeperStore(again)) {
            assertTrue(again.awaitConnected(TestZooKeeper.WAIT));
            assertEquals("{\"priority\":10}",
                    new String(store.get("staticflows/entries/f1").orElseThrow().value(), UTF_8),
                    "the embedded server's data survives its restart");
        }
    }

    @Test
    void closingStopsTheEmbeddedServer() throws Exception {
        ZooKeeperSession session = new ZooKeeperSession(embedded(dir.resolve("embedded"), 1000));
        EmbeddedZooKeeper server = session.embedded();
        assertTrue(server.isRunning());
        session.close();
        assertFalse(server.isRunning());
        assertFalse(session.isConnected());
    }

    private static ClusterSettings embedded(Path data, int sessionTimeoutMs) {
        return new ClusterSettings(null, "solo", 0, data, sessionTimeoutMs, 5000, "127.0.0.1:6653", "127.0.0.1:8080", 0);
    }
}
