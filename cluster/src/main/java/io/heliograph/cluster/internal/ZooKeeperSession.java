package io.heliograph.cluster.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MetricSource;

/**
 * This instance's one ZooKeeper session: the CuratorFramework every part of the cluster bundle
 * uses, on the ensemble of pid {@value ClusterSettings#PID} or on the {@link EmbeddedZooKeeper} it
 * starts when none is configured. SUSPENDED is an error state (Curator's standard policy): the
 * moment the connection drops, everyone who listens hears it, before the session can expire and
 * another instance take over what this one held.
 *
 * <p>How a component of this bundle uses it (the class is registered as a service of its own type,
 * visible only inside the bundle):
 * <pre>
 * &#64;Component(service = MastershipService.class)
 * public class MastershipElection implements MastershipService {
 *     &#64;Activate
 *     public MastershipElection(&#64;Reference ZooKeeperSession session) {
 *         registration = session.addListener(state -&gt; { ... });   // SUSPENDED, LOST, RECONNECTED, CONNECTED
 *         if (session.isConnected()) { ... }                        // the state before the first event
 *         session.client().create()...                               // paths under ClusterPaths.SWITCHES
 *     }
 *     &#64;Deactivate
 *     void deactivate() { registration.close(); }
 * }
 * </pre>
 * A static reference is enough: a configuration change replaces the session, and Declarative
 * Services restarts the components that use it.
 *
 * <p>Listeners are called on Curator's connection-state thread, one event at a time in order, every
 * listener of an event before the next event; {@link #isConnected()} already answers for an event
 * when its listeners hear it, and a listener added after that hears only later events. They must
 * return quickly (do ZooKeeper I/O elsewhere): the next listener, and isConnected() callers, wait. Events: CONNECTED (first connection), SUSPENDED (connection lost: stop acting as
 * master now), LOST (the session expired or is presumed expired: its ephemeral nodes are gone),
 * RECONNECTED (connected again; after a LOST, on a new session).
 */
@Component(service = {ZooKeeperSession.class, MetricSource.class}, configurationPid = ClusterSettings.PID,
        immediate = true)
public final class ZooKeeperSession implements AutoCloseable, MetricSource {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperSession.class);

    /** Hears this instance's ZooKeeper connection change; see the class comment for when and where. */
    @FunctionalInterface
    public interface Listener {
        void sessionChanged(ConnectionState state);
    }

    /** A listener's registration; closing it removes the listener. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    private final ClusterSettings settings;
    private final EmbeddedZooKeeper embedded;
    private final CuratorFramework client;
    private final String connectString;
    /** Guarded by stateLock, as is the state: changes and registrations happen one at a time. */
    private final List<Listener> listeners = new ArrayList<>();
    private final Object stateLock = new Object();
    private boolean connected;
    private boolean closed;
    /** The last state the listeners heard, for the metrics; null before the first. */
    private volatile ConnectionState lastState;

    @Activate
    public ZooKeeperSession(BundleContext context, Map<String, Object> config)
            throws IOException, InterruptedException {
        this(ClusterSettings.from(config, context::getProperty));
    }

    /**
     * Starts the embedded server if the settings name no ensemble, then the session, and waits up to
     * the connection timeout for it to connect. Not connected by then is not an error: the instance
     * runs disconnected (master of nothing, the store refusing) until ZooKeeper answers.
     */
    public ZooKeeperSession(ClusterSettings settings) throws IOException, InterruptedException {
        this.settings = settings;
        long start = System.nanoTime();
        Thread thread = Thread.currentThread();
        ClassLoader caller = thread.getContextClassLoader();
        // ZooKeeper and Curator load some classes by name; inside OSGi they must come from this bundle
        thread.setContextClassLoader(ZooKeeperSession.class.getClassLoader());
        EmbeddedZooKeeper server = null;
        try {
            server = settings.embedded()
                    ? EmbeddedZooKeeper.start(settings.embeddedDir(), settings.embeddedPort(), settings.sessionTimeoutMs())
                    : null;
            embedded = server;
            connectString = server != null ? server.connectString() : settings.connectString();
            client = CuratorFrameworkFactory.builder()
                    .connectString(connectString)
                    .sessionTimeoutMs(settings.sessionTimeoutMs())
                    .connectionTimeoutMs(settings.connectionTimeoutMs())
                    .retryPolicy(new BoundedExponentialBackoffRetry(50, 1000, 3))
                    .connectionStateErrorPolicy(new StandardConnectionStateErrorPolicy())
                    // the operator's connect string is the ensemble: no rewriting from the servers' dynamic config
                    .ensembleTracker(false)
                    // creates without data store nothing (Curator's default is this host's address)
                    .defaultData(new byte[0])
                    .build();
            client.getConnectionStateListenable().addListener((c, state) -> stateChanged(state));
            client.start();
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        } finally {
            thread.setContextClassLoader(caller);
        }
        if (awaitConnected(Duration.ofMillis(settings.connectionTimeoutMs()))) {
            LOG.info("cluster: instance {} on ZooKeeper {} ({}), session 0x{} of {} ms, ready in {} ms",
                    settings.instanceId(), connectString, embedded != null ? "embedded" : "external",
                    Long.toHexString(sessionId()), negotiatedSessionTimeoutMs(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } else {
            LOG.warn("cluster: instance {} not connected to ZooKeeper {} within {} ms; it keeps trying and is master "
                    + "of no switch until then", settings.instanceId(), connectString, settings.connectionTimeoutMs());
        }
    }

    /** The session's client. Paths: {@link ClusterPaths}. */
    public CuratorFramework client() {
        return client;
    }

    /** Whether the session is connected, as of the last event the listeners heard. */
    public boolean isConnected() {
        synchronized (stateLock) {
            return connected;
        }
    }

    /** Waits until connected; false if not connected within {@code timeout} (or closed). */
    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (stateLock) {
            while (!connected && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(stateLock, left);
            }
            return connected;
        }
    }

    /**
     * Adds a listener of connection changes; see the class comment. It hears the changes after the
     * state {@link #isConnected()} answers once this returns, never one that state already reflects.
     * Once its registration is closed, it hears nothing more.
     */
    public Registration addListener(Listener listener) {
        synchronized (stateLock) {
            listeners.add(listener);
        }
        return () -> {
            synchronized (stateLock) {
                listeners.remove(listener);
            }
        };
    }

    public ClusterSettings settings() {
        return settings;
    }

    /** This instance's id (configured, from the launcher, or kept in the data directory). */
    public String instanceId() {
        return settings.instanceId();
    }

    /** The ensemble this session uses: the configured one or the embedded server's. */
    public String connectString() {
        return connectString;
    }

    /** The embedded server, or null when this instance uses an external ensemble. */
    public EmbeddedZooKeeper embedded() {
        return embedded;
    }

    /** The current ZooKeeper session's id; 0 before the first connection. */
    public long sessionId() {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return 0;
        }
    }

    /** The current session's password, which lets another client end it ({@link #endSession}); empty before the first connection. */
    public byte[] sessionPassword() {
        try {
            byte[] password = client.getZookeeperClient().getZooKeeper().getSessionPasswd();
            return password == null ? new byte[0] : password;
        } catch (Exception e) {
            return new byte[0];
        }
    }

    /**
     * Ends another client's session, as its expiry would but now: every ephemeral node it holds goes
     * and watchers hear it. It joins that session with its id and password and closes it. A session
     * that has already ended is left alone.
     */
    public void endSession(long sessionId, byte[] password) throws IOException, InterruptedException {
        Thread thread = Thread.currentThread();
        ClassLoader caller = thread.getContextClassLoader();
        thread.setContextClassLoader(ZooKeeperSession.class.getClassLoader());
        CountDownLatch answered = new CountDownLatch(1);
        AtomicBoolean joined = new AtomicBoolean();
        ZooKeeper other;
        try {
            other = new ZooKeeper(connectString, settings.sessionTimeoutMs(), event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    joined.set(true);
                    answered.countDown();
                } else if (event.getState() == Watcher.Event.KeeperState.Expired) {
                    answered.countDown();
                }
            }, sessionId, password);
        } finally {
            thread.setContextClassLoader(caller);
        }
        try {
            if (!answered.await(settings.connectionTimeoutMs(), TimeUnit.MILLISECONDS)) {
                throw new IOException("ZooKeeper " + connectString + " did not answer within "
                        + settings.connectionTimeoutMs() + " ms");
            }
        } finally {
            if (joined.get()) {
                other.close(); // sends closeSession and waits for the server's answer
            } else {
                // never joined: nothing to close on the server; closing the handle must not wait for one
                Thread closer = new Thread(() -> {
                    try {
                        other.close();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "heliograph-zookeeper-close");
                closer.setDaemon(true);
                closer.start();
            }
        }
    }

    /** The session timeout the server granted (the configured one unless the server's bounds differ). */
    public int negotiatedSessionTimeoutMs() {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionTimeout();
        } catch (Exception e) {
            return settings.sessionTimeoutMs();
        }
    }

    private void stateChanged(ConnectionState state) {
        if (state.isConnected()) {
            int negotiated = negotiatedSessionTimeoutMs();
            LOG.info("cluster: ZooKeeper {} ({}), session 0x{}, timeout {} ms", state, connectString,
                    Long.toHexString(sessionId()), negotiated);
            if (negotiated != settings.sessionTimeoutMs()) {
                LOG.warn("cluster: ZooKeeper {} granted a session timeout of {} ms, not the {} ms of {}: fail-over "
                                + "takes that long (see the servers' minSessionTimeout/maxSessionTimeout)",
                        connectString, negotiated, settings.sessionTimeoutMs(), ClusterSettings.SESSION_TIMEOUT);
            }
        } else {
            LOG.warn("cluster: ZooKeeper {} ({}): this instance is master of no switch until it reconnects",
                    state, connectString);
        }
        // the new state and its listeners at once: isConnected() and addListener() wait for both
        synchronized (stateLock) {
            connected = state.isConnected();
            lastState = state;
            stateLock.notifyAll();
            for (Listener listener : List.copyOf(listeners)) {
                try {
                    listener.sessionChanged(state);
                } catch (RuntimeException e) {
                    LOG.warn("cluster: session listener {} failed on {}", listener, state, e);
                }
            }
        }
    }

    /** The session's states, as the metric {@code heliograph_cluster_zookeeper_state} names them. */
    static final List<String> STATES = List.of("connected", "suspended", "lost", "read_only", "not_connected");

    /**
     * {@code heliograph_cluster_zookeeper_state}: one series per state, 1 for the session's (connected
     * again counts as connected; not_connected until the first connection).
     */
    @Override
    public List<Sample> samples() {
        ConnectionState state = lastState;
        String now = state == null ? "not_connected" : switch (state) {
            case CONNECTED, RECONNECTED -> "connected";
            case SUSPENDED -> "suspended";
            case LOST -> "lost";
            case READ_ONLY -> "read_only";
        };
        List<Sample> out = new ArrayList<>();
        for (String s : STATES) {
            out.add(new Sample("heliograph_cluster_zookeeper_state", MetricSource.Type.GAUGE,
                    "This instance's ZooKeeper session: 1 for its state (suspended: master of nothing until it "
                            + "reconnects)", Map.of("state", s), s.equals(now) ? 1 : 0));
        }
        return out;
    }

    /** Ends the session (its ephemeral nodes go at once), then the embedded server if there is one. */
    @Deactivate
    @Override
    public void close() {
        synchronized (stateLock) {
            closed = true;
            connected = false;
            stateLock.notifyAll();
        }
        client.close();
        if (embedded != null) {
            embedded.close();
        }
    }
}
