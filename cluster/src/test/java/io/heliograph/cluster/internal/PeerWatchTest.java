package io.heliograph.cluster.internal;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A peer's process watched through its liveness port, with real sockets on loopback. */
@Timeout(60)
class PeerWatchTest {

    private static final byte[] PASSWORD = {1, 2, 3, 4};
    private final BlockingQueue<String> ended = new LinkedBlockingQueue<>();
    private final PeerWatch.SessionEnder ender = (instance, session, password) ->
            ended.add(instance + " 0x" + Long.toHexString(session) + " " + password.length);

    @Test
    void aProcessThatDiesHasItsSessionEnded() throws Exception {
        LivenessListener peer = LivenessListener.start("c2", "127.0.0.1", 0, () -> 0x1234L);
        try (PeerWatch watch = PeerWatch.start("c2", peer.address(), 0x1234L, PASSWORD, ender)) {
            TestZooKeeper.await(() -> peer.peerCount() == 1, "the watch to connect");
            assertNull(ended.poll(), "nothing ended while the process lives");
            peer.close(); // as the kernel does for a killed process: connections closed, port refusing
            assertEquals("c2 0x1234 4", ended.poll(TestZooKeeper.WAIT.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void aPortThatAnswersForAnotherSessionMeansTheWatchedOneIsGone() throws Exception {
        LivenessListener restarted = LivenessListener.start("c2", "127.0.0.1", 0, () -> 0x99L);
        try (restarted; PeerWatch watch = PeerWatch.start("c2", restarted.address(), 0x1234L, PASSWORD, ender)) {
            assertEquals("c2 0x1234 4", ended.poll(TestZooKeeper.WAIT.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void aConnectionResetAsTheProcessDiesIsFollowedAtOnceNotAfterThePause() throws Exception {
        // A dying process closes its sockets one by one: the watch's next connection can reach the
        // listener before it closes, and is reset with it. Then the port refuses connections.
        try (ServerSocket dying = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread process = new Thread(() -> {
                try (Socket held = dying.accept()) {
                    held.getOutputStream().write((LivenessListener.GREETING + " c2 1234\n").getBytes(US_ASCII));
                    held.getOutputStream().flush();
                    held.close(); // the process dies: the watch reads the greeting, then the close
                    Socket late = dying.accept();
                    late.setSoLinger(true, 0);
                    late.close(); // a reset
                    dying.close(); // refused from now on
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            process.setDaemon(true);
            process.start();
            // A pause after an inconclusive attempt longer than the test may run: only asking again at
            // once ends the session in time.
            try (PeerWatch watch = PeerWatch.start("c2", "127.0.0.1:" + dying.getLocalPort(), 0x1234L, PASSWORD,
                    ender, TimeUnit.HOURS.toMillis(1))) {
                assertEquals("c2 0x1234 4", ended.poll(TestZooKeeper.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            }
        }
    }

    @Test
    void aFrozenProcessIsNotTakenForDead() throws Exception {
        // a stopped process: its kernel still accepts connections, nobody answers them
        AtomicInteger accepted = new AtomicInteger();
        List<Socket> held = new ArrayList<>();
        try (ServerSocket frozen = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(frozen.accept());
                        accepted.incrementAndGet();
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (PeerWatch watch = PeerWatch.start("c2", "127.0.0.1:" + frozen.getLocalPort(), 0x1234L, PASSWORD,
                    ender)) {
                TestZooKeeper.await(() -> accepted.get() >= 3, "the watch to ask three times");
                assertNull(ended.poll(), "a process that accepts but does not answer may only be slow");
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void aClosedWatchEndsNothing() throws Exception {
        LivenessListener peer = LivenessListener.start("c2", "127.0.0.1", 0, () -> 0x1234L);
        PeerWatch watch = PeerWatch.start("c2", peer.address(), 0x1234L, PASSWORD, ender);
        TestZooKeeper.await(() -> peer.peerCount() == 1, "the watch to connect");
        watch.close();  // the instance left cleanly, or its session changed
        TestZooKeeper.await(() -> peer.peerCount() == 0, "the watch's connection to close");
        peer.close();
        assertNull(ended.poll(2, TimeUnit.SECONDS), "a closed watch ends no session");
    }
}
