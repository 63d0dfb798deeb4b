package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.CommandResult;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.ZooKeeperEnsemble;
import io.heliograph.testbed.ZooKeeperServerProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The distribution's standalone ZooKeeper ({@code heliograph zookeeper}) as an ensemble of three real
 * servers, each its own JVM: a client's write is on every server; with one server stopped (the
 * leader, cleanly) or paused, writes go on; with two down there is no quorum and a write fails; after
 * every server was killed with SIGKILL and started again on its data directory, everything written is
 * still there. A bad flag is refused with exit status 2 naming it. No switches, no root needed.
 */
@Timeout(180)
// Isolated: three ZooKeeper server JVMs; quorum and re-election times measured
@Isolated
class ZooKeeperEnsembleIT {

    private static final Duration QUORUM = Duration.ofSeconds(60);
    private static final Duration WRITE = Duration.ofSeconds(30);
    private static final Duration STOP = Duration.ofSeconds(20);
    private static final Duration REFUSAL = Duration.ofSeconds(60);
    /** Longer than a leader change takes, so the client keeps its session through one. */
    private static final int SESSION_TIMEOUT_MS = 10_000;
    private static final String NODE = "/zookeeper-ensemble-it";

    @TempDir
    Path scratch;

    private ControllerDistribution distribution;
    private Path logs;

    @BeforeEach
    void copyDistribution() {
        distribution = ControllerDistribution.copyOfBuilt(scratch);
        logs = ArtifactDirectory.forTest("ZooKeeperEnsembleIT");
    }

    @AfterEach
    void deleteDistribution() {
        distribution.close();
    }

    @Test
    void threeServersKeepServingWithOneDownRefuseWritesWithoutAQuorumAndKeepTheirDataOnDisk() throws Exception {
        try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.start(distribution, logs, 3)) {
            long started = System.nanoTime();
            ensemble.awaitQuorum(QUORUM);
            System.out.printf("ZooKeeperEnsembleIT: a quorum %d ms after the 3 JVMs were started (modes %s)%n",
                    millisSince(started), ensemble.modes());
            try (ZooKeeper client = connect(ensemble.connectString())) {
                client.create(NODE, bytes("v1"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                assertEquals("v1", read(client, NODE));
                for (ZooKeeperServerProcess server : ensemble.servers()) {
                    try (ZooKeeper direct = connect(server.connectString())) {
                        direct.sync(NODE, (rc, path, ctx) -> { }, null);
                        assertEquals("v1", read(direct, NODE), "the write is on the server on " + server.clientPort());
                    }
                }
                System.out.printf("ZooKeeperEnsembleIT: all 3 serving %d ms after their JVMs were started%n",
                        millisSince(started));

                // One server paused (SIGSTOP): two of three are a quorum, writes go on; it serves again after SIGCONT.
                ZooKeeperServerProcess follower = ensemble.servers().stream()
                        .filter(s -> s.mode().equals(Optional.of("follower"))).findFirst().orElseThrow();
                follower.pause();
                assertFalse(follower.isServing(), "a paused server answers nothing");
                write(client, NODE, "v2");
                follower.resume();
                follower.awaitServing(QUORUM);

                // The leader stopped cleanly (SIGTERM): the other two elect a leader, and writes go on.
                ZooKeeperServerProcess leader = ensemble.leader().orElseThrow();
                assertEquals(143, leader.stop(STOP), "exit status after SIGTERM (128 + 15)");
                assertTrue(leader.log().contains("ZooKeeper server stopped"), "a clean stop\n" + leader.log());
                long stopped = System.nanoTime();
                ensemble.awaitQuorum(QUORUM);
                System.out.printf("ZooKeeperEnsembleIT: a new leader %d ms after the leader stopped%n",
                        millisSince(stopped));
                write(client, NODE, "v3");
                client.create(NODE + "/written-with-two", bytes("x"), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);

                // A second server down: the last one runs but has no quorum, so it serves nobody.
                ZooKeeperServerProcess second = ensemble.servers().stream().filter(ZooKeeperServerProcess::isAlive)
                        .findFirst().orElseThrow();
                second.kill();
                ZooKeeperServerProcess last = ensemble.servers().stream().filter(ZooKeeperServerProcess::isAlive)
                        .findFirst().orElseThrow();
                Poll.until("the last server to stop serving without a quorum", QUORUM, () -> !last.isServing());
                assertTrue(last.isRunning(), "it still runs and answers ruok\n" + last.log());
                KeeperException refused = assertThrows(KeeperException.class,
                        () -> client.setData(NODE, bytes("v4"), -1), "a write with one server of three");
                assertEquals(KeeperException.Code.CONNECTIONLOSS, refused.code(), refused.toString());

                // Every server killed, then started again on its own data directory.
                last.kill();
            }
            long restarted = System.nanoTime();
            for (ZooKeeperServerProcess server : ensemble.servers()) {
                server.restart();
            }
            ensemble.awaitQuorum(QUORUM);
            System.out.printf("ZooKeeperEnsembleIT: a quorum %d ms after restarting the 3 killed servers%n",
                    millisSince(restarted));
            try (ZooKeeper client = connect(ensemble.connectString())) {
                assertEquals("v3", read(client, NODE), "the last acknowledged write survives SIGKILL of every server");
                assertEquals(List.of("written-with-two"), client.getChildren(NODE, false));
            }
        }
    }

    /**
     * {@code deploy/heliograph zookeeper} itself, run from a copy of the tree's layout (the script and
     * the distribution at deploy/target/heliograph) so that it finds nothing to rebuild.
     */
    @Test
    void aBadFlagIsRefusedWithItsNameAndExitStatus2() throws IOException {
        Path script = ControllerDistribution.built().getParent().getParent().resolve("heliograph");
        Path tree = Files.createDirectories(scratch.resolve("tree/deploy/target"));
        Files.copy(script, tree.getParent().resolve("heliograph"));
        Files.createSymbolicLink(tree.resolve("heliograph"), distribution.home());

        CommandResult refused = Command.of("bash", tree.getParent().resolve("heliograph").toString(), "zookeeper",
                "--port", "abc").timeout(REFUSAL).run();
        assertEquals(2, refused.exitCode(), refused.toString());
        assertTrue(refused.stderr().contains("heliograph zookeeper: --port must be a TCP port number (1-65535), got"
                + " 'abc'"), refused.stderr());

        CommandResult badEnsemble = ZooKeeperServerProcess.runToExit(distribution, REFUSAL, "--ensemble",
                "127.0.0.1:2888:3888:2181,127.0.0.1:2889:3889", "--server-id", "1");
        assertEquals(2, badEnsemble.exitCode(), badEnsemble.toString());
        assertTrue(badEnsemble.stderr().contains("--ensemble takes HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,...;"
                + " '127.0.0.1:2889:3889' is not that"), badEnsemble.stderr());
    }

    private static ZooKeeper connect(String connectString) throws IOException {
        ZooKeeper client = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> { });
        try {
            Poll.until("a ZooKeeper session with " + connectString, QUORUM, () -> client.getState().isConnected());
        } catch (RuntimeException | AssertionError e) {
            closeQuietly(client);
            throw e;
        }
        return client;
    }

    /** A write retried over the connection losses of a leader change; setting a value is idempotent. */
    private static void write(ZooKeeper client, String path, String value) {
        Poll.until("writing " + value + " to " + path, WRITE, () -> {
            try {
                client.setData(path, bytes(value), -1);
                return true;
            } catch (KeeperException.ConnectionLossException e) {
                return false;
            } catch (KeeperException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }, Boolean::booleanValue);
        try {
            assertEquals(value, read(client, path));
        } catch (KeeperException e) {
            throw new AssertionError("reading back " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String read(ZooKeeper client, String path) throws KeeperException, InterruptedException {
        return new String(client.getData(path, false, null), StandardCharsets.UTF_8);
    }

    private static long millisSince(long nanoTime) {
        return (System.nanoTime() - nanoTime) / 1_000_000;
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static void closeQuietly(ZooKeeper client) {
        try {
            client.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
