package io.heliograph.cluster.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The port on which the other instances watch this process live. Each peer holds one connection to
 * it, and this side never closes one while the process runs: when the process dies, however it dies
 * (kill -9 included), its kernel closes every connection and the port refuses new ones, which a
 * {@link PeerWatch} takes as proof that the process is gone. A frozen process (SIGSTOP, a long pause)
 * still accepts connections in its kernel, so it is not taken for dead: its session times out as
 * usual.
 *
 * <p>On accepting, it writes one line, {@code heliograph-liveness <instance> <session id in hex>},
 * so that a watcher knows it reached the instance and session it watches and not a process that took
 * the port since.
 */
final class LivenessListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LivenessListener.class);
    static final String GREETING = "heliograph-liveness";

    private final String instanceId;
    private final LongSupplier sessionId;
    private final ServerSocket server;
    private final Set<Socket> peers = ConcurrentHashMap.newKeySet();
    /** Set before the listener and the peers are closed; checked by the acceptor after adding a peer. */
    private volatile boolean closed;

    private LivenessListener(String instanceId, LongSupplier sessionId, ServerSocket server) {
        this.instanceId = instanceId;
        this.sessionId = sessionId;
        this.server = server;
    }

    /** Listens on {@code host:port} (0 = a free port); {@code sessionId} tells peers the current session. */
    static LivenessListener start(String instanceId, String host, int port, LongSupplier sessionId) throws IOException {
        ServerSocket server = new ServerSocket();
        try {
            server.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            server.close();
            throw new IOException("cannot listen for peers' liveness connections on " + host + ":" + port + " ("
                    + ClusterSettings.LIVENESS_PORT + "): " + e.getMessage(), e);
        }
        LivenessListener listener = new LivenessListener(instanceId, sessionId, server);
        Thread accept = new Thread(listener::acceptLoop, "heliograph-liveness-accept");
        accept.setDaemon(true);
        accept.start();
        return listener;
    }

    /** The address peers connect to, {@code host:port}. */
    String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    /** How many peers hold a connection now. */
    int peerCount() {
        return peers.size();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket peer;
            try {
                peer = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("cluster: liveness listener {} stopped accepting: {}", address(), e.toString());
                }
                return;
            }
            peers.add(peer);
            if (closed) { // close() may have gone through the peers before this one was among them
                closeQuietly(peer);
                return;
            }
            Thread hold = new Thread(() -> hold(peer), "heliograph-liveness-" + peer.getRemoteSocketAddress());
            hold.setDaemon(true);
            hold.start();
        }
    }

    /** Greets the peer, then keeps its connection until the peer closes it. */
    private void hold(Socket peer) {
        try (peer) {
            OutputStream out = peer.getOutputStream();
            out.write((GREETING + " " + instanceId + " " + Long.toHexString(sessionId.getAsLong()) + "\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = peer.getInputStream();
            byte[] discard = new byte[64];
            while (in.read(discard) >= 0) {
                // peers send nothing; reading only tells when they leave
            }
        } catch (SocketException e) {
            // the peer went away, or this listener closed
        } catch (IOException e) {
            LOG.debug("cluster: liveness connection {}: {}", peer, e.toString());
        } finally {
            peers.remove(peer);
        }
    }

    /** Stops listening and closes every peer's connection (a clean shutdown, once this instance has left). */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            LOG.debug("cluster: closing the liveness listener", e);
        }
        peers.forEach(LivenessListener::closeQuietly);
    }

    private static void closeQuietly(Socket peer) {
        try {
            peer.close();
        } catch (IOException e) {
            LOG.debug("cluster: closing a liveness connection", e);
        }
    }
}
