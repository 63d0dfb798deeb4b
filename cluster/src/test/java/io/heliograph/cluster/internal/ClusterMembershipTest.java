package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.heliograph.core.cluster.ClusterInstance;
import io.heliograph.core.cluster.ClusterListener;

/** Membership with two instances (two sessions) on a real ZooKeeper server. */
@Timeout(60)
class ClusterMembershipTest {

    private static final Instant STARTED = Instant.parse("2026-11-22T10:15:30Z");

    @TempDir
    Path dir;

    @Test
    void anInstanceSeesASecondOneJoinAndLeave() throws Exception {
        try (TestZooKeeper zookeeper = new TestZooKeeper(dir)) {
            ClusterMembership one = zookeeper.track(new ClusterMembership(zookeeper.session("c1"), "1.2.3", STARTED));
            TestZooKeeper.Heard<String> heard = new TestZooKeeper.Heard<>();
            one.addListener(recorder(heard));
            assertEquals("joined c1 127.0.0.1:6653 127.0.0.1:8080 1.2.3 " + STARTED, heard.next("itself, replayed"));

            ZooKeeperSession secondSession = zookeeper.session("c2");
            ClusterMembership two = zookeeper.track(new ClusterMembership(secondSession, "1.2.4", STARTED));
            assertEquals("joined c2 127.0.0.1:6653 127.0.0.1:8080 1.2.4 " + STARTED, heard.next("the second instance"));
            assertEquals(Set.of("c1", "c2"), one.getInstances().keySet());
            assertEquals("1.2.4", one.getInstances().get("c2").version());
            assertEquals(zookeeper.connectString(), two.getConnectString());
            assertEquals("c2", two.getLocalInstance().id());

            secondSession.close();   // its node is ephemeral: it goes with the session
            assertEquals("left c2", heard.next("the second instance to leave"));
            assertEquals(Set.of("c1"), one.getInstances().keySet());
        }
    }

    @Test
    void aSecondLiveInstanceWithTheSameIdIsRefusedNamingIt() throws Exception {
        try (TestZooKeeper zookeeper = new TestZooKeeper(dir)) {
            zookeeper.track(new ClusterMembership(zookeeper.session("c1"), "1", STARTED));
            ZooKeeperSession impostor = zookeeper.session("c1");
            long start = System.nanoTime();
            DuplicateInstanceException refused = assertThrows(DuplicateInstanceException.class,
                    () -> new ClusterMembership(impostor, "1", STARTED));
            System.out.printf("duplicate id refused after %d ms%n", (System.nanoTime() - start) / 1_000_000);
            assertTrue(refused.getMessage().startsWith("instance id 'c1' is already used by a live instance in ZooKeeper "
                    + zookeeper.connectString() + " (openflow 127.0.0.1:6653, http 127.0.0.1:8080, started " + STARTED
                    + ")"), refused.getMessage());
            assertTrue(refused.getMessage().contains("--instance-id"), refused.getMessage());
        }
    }

    @Test
    void anInstanceWhoseSessionExpiredJoinsAgainWithItsNewSession() throws Exception {
        try (TestZooKeeper zookeeper = new TestZooKeeper(dir)) {
            ZooKeeperSession session = zookeeper.session("c1");
            ClusterMembership one = zookeeper.track(new ClusterMembership(session, "1", STARTED));
            long firstSession = session.sessionId();
            TestZooKeeper.Heard<String> heard = new TestZooKeeper.Heard<>();
            session.addListener(state -> heard.add(state.toString()));

            // as if this JVM had paused past its session timeout: the client sees the expiry
            session.client().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
            heard.awaitEvent("LOST");
            heard.awaitEvent("RECONNECTED");
            // registered again on the new session, once the old session's node has gone with it
            String path = ClusterPaths.child(ClusterPaths.INSTANCES, one.getLocalInstance().id());
            Stat stat = awaitNode(session.client(), path, s -> s != null && s.getEphemeralOwner() == session.sessionId());
            assertNotEquals(firstSession, stat.getEphemeralOwner());
            TestZooKeeper.await(one::isRegistered, "registered: the node is there a moment before the flag");
            assertEquals(Set.of("c1"), one.getInstances().keySet());
        }
    }

    @Test
    void whenAnInstancesProcessDiesTheOthersEndItsSessionWithoutWaitingForItToTimeOut() throws Exception {
        int longSession = 60_000;
        try (TestZooKeeper zookeeper = new TestZooKeeper(dir, Map.of("maxSessionTimeout", Integer.toString(longSession)))) {
            ClusterMembership one = zookeeper.track(new ClusterMembership(zookeeper.session("c1"), "1", STARTED));
            TestZooKeeper.Heard<String> heard = new TestZooKeeper.Heard<>();
            one.addListener(recorder(heard));
            heard.awaitEvent("joined c1 127.0.0.1:6653 127.0.0.1:8080 1 " + STARTED);
            ZooKeeperSession doomed = zookeeper.session("c2", longSession);
            assertEquals(longSession, doomed.negotiatedSessionTimeoutMs());
            TestZooKeeper.Heard<String> doomedHeard = new TestZooKeeper.Heard<>();
            doomed.addListener(state -> doomedHeard.add(state.toString()));
            ClusterMembership two = zookeeper.track(new ClusterMembership(doomed, "1", STARTED));
            heard.awaitEvent("joined c2 127.0.0.1:6653 127.0.0.1:8080 1 " + STARTED);
            TestZooKeeper.await(() -> two.liveness().peerCount() == 1, "c1 watching c2's process");

            // what the kernel does to a process killed with SIGKILL: its connections close, its port refuses
            long died = System.nanoTime();
            two.liveness().close();
            assertEquals(List.of(), heard.awaitEvent("left c2"), "c2 left, before its 60 s session could time out");
            System.out.printf("a dead instance's node went %d ms after its process died (session timeout %d ms)%n",
                    (System.nanoTime() - died) / 1_000_000, longSession);
            doomedHeard.awaitEvent("LOST"); // its session was ended, not merely its node deleted
            assertEquals(Set.of("c1"), one.getInstances().keySet());
        }
    }

    /** Waits, on ZooKeeper's watch events, until the node's stat (null: no node) satisfies {@code done}. */
    private static Stat awaitNode(CuratorFramework client, String path, Predicate<Stat> done) throws Exception {
        long deadline = System.nanoTime() + TestZooKeeper.WAIT.toNanos();
        while (true) {
            CountDownLatch changed = new CountDownLatch(1);
            Stat stat = client.checkExists().usingWatcher((Watcher) event -> changed.countDown()).forPath(path);
            if (done.test(stat)) {
                return stat;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !changed.await(left, TimeUnit.NANOSECONDS)) {
                throw new AssertionError("node " + path + " never got there; last " + stat);
            }
        }
    }

    private static ClusterListener recorder(TestZooKeeper.Heard<String> heard) {
        return new ClusterListener() {
            @Override
            public void instanceJoined(ClusterInstance i) {
                heard.add("joined " + i.id() + " " + i.openflowAddress() + " " + i.httpAddress() + " " + i.version()
                        + " " + i.started());
            }

            @Override
            public void instanceLeft(ClusterInstance i) {
                heard.add("left " + i.id());
            }

            @Override
            public void connectionChanged(boolean connected) {
                heard.add("connected " + connected);
            }
        };
    }
}
