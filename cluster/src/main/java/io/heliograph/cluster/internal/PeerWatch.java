package io.heliograph.cluster.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one other instance's process through its {@link LivenessListener}, and ends that
 * instance's ZooKeeper session the moment the process is proven gone, so that its switches fail over
 * at once instead of after the session timeout.
 *
 * <p>Proof is a closed connection followed by a refused one (the kernel of a dead process closes its
 * sockets and nothing listens on its port), or by a greeting from another session or instance (a new
 * process took the port). A connection that times out proves nothing (a frozen process, a host or
 * network failure): the watch keeps trying, and the session timeout decides as it would without
 * it. Ending a session that is alive after all (a false verdict) is safe: that instance sees its
 * session expire and joins again; the generation ids keep two masters from writing to one switch.
 */
final class PeerWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PeerWatch.class);
    private static final int CONNECT_TIMEOUT_MS = 1000;
    private static final long RETRY_MS = 1000;
    /**
     * How soon to ask again when a connection made just after the held one closed is reset: a dying
     * process closes its sockets one by one, so the watch's next connection can reach the listener
     * before it closes, and is reset with it. The next attempt is then refused.
     */
    private static final long RESET_RETRY_MS = 10;

    /** Ends another instance's session (as its expiry would, but now). */
    @FunctionalInterface
    interface SessionEnder {
        void end(String instance, long sessionId, byte[] password) throws Exception;
    }

    private final String instance;
    private final InetSocketAddress address;
    private final long sessionId;
    private final byte[] password;
    private final SessionEnder ender;
    private final long retryMs;
    private final Thread thread;
    private final Object lock = new Object();
    private Socket socket;
    private boolean closed;

    private PeerWatch(String instance, InetSocketAddress address, long sessionId, byte[] password, SessionEnder ender,
            long retryMs) {
        this.instance = instance;
        this.address = address;
        this.sessionId = sessionId;
        this.password = password.clone();
        this.ender = ender;
        this.retryMs = retryMs;
        this.thread = new Thread(this::run, "heliograph-peer-watch-" + instance);
        this.thread.setDaemon(true);
    }

    /** Starts watching {@code instance}'s session {@code sessionId}, whose process listens on {@code livenessAddress}. */
    static PeerWatch start(String instance, String livenessAddress, long sessionId, byte[] password, SessionEnder ender) {
        return start(instance, livenessAddress, sessionId, password, ender, RETRY_MS);
    }

    /** As above, asking again after {@code retryMs} when an attempt proves nothing (tests make it long). */
    static PeerWatch start(String instance, String livenessAddress, long sessionId, byte[] password, SessionEnder ender,
            long retryMs) {
        int colon = livenessAddress.lastIndexOf(':');
        InetSocketAddress address = InetSocketAddress.createUnresolved(livenessAddress.substring(0, colon),
                Integer.parseInt(livenessAddress.substring(colon + 1)));
        PeerWatch watch = new PeerWatch(instance, address, sessionId, password, ender, retryMs);
        watch.thread.start();
        return watch;
    }

    long sessionId() {
        return sessionId;
    }

    private void run() {
        long lostAt = 0;
        while (!isClosed()) {
            String gone;
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(address.getHostString(), address.getPort()), CONNECT_TIMEOUT_MS);
                s.setSoTimeout(CONNECT_TIMEOUT_MS);
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                String greeting = in.readLine();
                String expected = LivenessListener.GREETING + " " + instance + " " + Long.toHexString(sessionId);
                if (expected.equals(greeting)) {
                    if (!hold(s)) {
                        return;
                    }
                    lostAt = System.nanoTime(); // the connection closed: ask again at once
                    continue;
                }
                gone = greeting == null ? "its port closed the connection without a greeting"
                        : "its port answers '" + greeting + "'";
            } catch (ConnectException refused) {
                gone = "its liveness port " + address.getHostString() + ":" + address.getPort() + " refuses connections";
            } catch (IOException unknown) {
                // A timeout or an unreachable host proves nothing: ask again later. A reset just after
                // the held connection closed is most likely the process dying: ask again at once.
                LOG.debug("cluster: watching instance {}: {}", instance, unknown.toString());
                boolean justLost = lostAt != 0 && !(unknown instanceof SocketTimeoutException)
                        && System.nanoTime() - lostAt < TimeUnit.MILLISECONDS.toNanos(retryMs);
                if (!justLost) {
                    lostAt = 0;
                }
                if (!pause(justLost ? RESET_RETRY_MS : retryMs)) {
                    return;
                }
                continue;
            }
            endSession(gone, lostAt);
            return;
        }
    }

    /** Holds the connection until it closes: true then, false if this watch was closed. */
    private boolean hold(Socket s) throws IOException {
        synchronized (lock) {
            if (closed) {
                return false;
            }
            socket = s;
        }
        s.setSoTimeout(0);
        try {
            while (s.getInputStream().read() >= 0) {
                // the peer sends nothing after its greeting
            }
        } catch (IOException e) {
            // reset: as good as closed
        }
        synchronized (lock) {
            socket = null;
            return !closed;
        }
    }

    private void endSession(String why, long lostAt) {
        if (isClosed()) {
            return;
        }
        String after = lostAt == 0 ? "" : String.format(", %.1f ms after its liveness connection closed",
                (System.nanoTime() - lostAt) / 1e6);
        LOG.warn("cluster: instance {}'s process is gone ({}{}): ending its ZooKeeper session 0x{} now", instance, why,
                after, Long.toHexString(sessionId));
        long start = System.nanoTime();
        try {
            ender.end(instance, sessionId, password);
            LOG.info("cluster: ended instance {}'s session 0x{} in {} ms", instance, Long.toHexString(sessionId),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("cluster: could not end instance {}'s session 0x{} ({}); it ends when it times out", instance,
                    Long.toHexString(sessionId), e.toString());
        }
    }

    private boolean pause(long ms) {
        synchronized (lock) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
            long left;
            while (!closed && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return !closed;
        }
    }

    private boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /** Stops watching (the instance left, or its session changed); ends nothing. */
    @Override
    public void close() {
        Socket s;
        synchronized (lock) {
            closed = true;
            s = socket;
            lock.notifyAll();
        }
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                LOG.debug("cluster: closing the watch of {}", instance, e);
            }
        }
    }
}
