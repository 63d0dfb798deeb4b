package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * Real ZooKeeper servers and sessions for the unit tests: a TestingServer with a short tick (so
 * the sessions' one-second timeout is granted) and ZooKeeperSessions on it, all closed at the end.
 */
final class TestZooKeeper implements AutoCloseable {

    static final int TICK_MS = 100;
    static final int SESSION_TIMEOUT_MS = 1000;
    /** How long a test waits for something that should happen within a session timeout or two. */
    static final Duration WAIT = Duration.ofSeconds(15);

    private final TestingServer server;
    private final List<AutoCloseable> opened = new ArrayList<>();

    TestZooKeeper(Path dataDir) throws Exception {
        this(dataDir, Map.of());
    }

    /** With server properties beyond the short tick, e.g. {@code maxSessionTimeout} for a long session. */
    TestZooKeeper(Path dataDir, Map<String, Object> serverProperties) throws Exception {
        server = new TestingServer(new InstanceSpec(dataDir.toFile(), -1, -1, -1, false, -1, TICK_MS, -1,
                serverProperties), true);
    }

    TestingServer server() {
        return server;
    }

    String connectString() {
        return server.getConnectString();
    }

    /** A connected session of instance {@code instanceId}. */
    ZooKeeperSession session(String instanceId) throws Exception {
        return session(instanceId, SESSION_TIMEOUT_MS);
    }

    /** A connected session of instance {@code instanceId}, asking for {@code sessionTimeoutMs}. */
    ZooKeeperSession session(String instanceId, int sessionTimeoutMs) throws Exception {
        ZooKeeperSession session = new ZooKeeperSession(settings(connectString(), instanceId, sessionTimeoutMs));
        opened.add(session);
        if (!session.awaitConnected(WAIT)) {
            fail("no ZooKeeper session on " + connectString());
        }
        return session;
    }

    ZooKeeperStore store(ZooKeeperSession session) {
        return track(new ZooKeeperStore(session));
    }

    <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    static ClusterSettings settings(String connect, String instanceId, int sessionTimeoutMs) {
        return new ClusterSettings(connect, instanceId, 0, Path.of("unused"), sessionTimeoutMs, 5000,
                "127.0.0.1:6653", "127.0.0.1:8080", 0);
    }

    @Override
    public void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        server.close();
    }

    /** Polls {@code condition} until it holds, failing after {@link #WAIT}. */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(10); // polling interval
        }
    }

    /** Events a listener heard, taken in order with a deadline. */
    static final class Heard<T> {
        private final BlockingQueue<T> events = new LinkedBlockingQueue<>();

        void add(T event) {
            events.add(event);
        }

        T next(String what) throws InterruptedException {
            T event = events.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (event == null) {
                fail("nothing heard within " + WAIT + " while waiting for " + what);
            }
            return event;
        }

        /** Takes events until one equals {@code expected}, returning those before it; fails if it does not come. */
        List<T> awaitEvent(T expected) throws InterruptedException {
            List<T> skipped = new ArrayList<>();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                T event = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (expected.equals(event)) {
                    return skipped;
                }
                if (event != null) {
                    skipped.add(event);
                }
            }
            throw new AssertionError("never heard " + expected + "; heard " + skipped);
        }

        List<T> drained() {
            List<T> all = new ArrayList<>();
            events.drainTo(all);
            return all;
        }
    }
}
