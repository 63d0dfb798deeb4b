package io.heliograph.cluster.internal;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterInstance;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterService;

/**
 * Membership: this instance's ephemeral node {@code instances/<id>} (see {@link InstanceRecord}),
 * made again whenever a new session starts, and a cache of everyone's nodes that tells
 * {@link ClusterListener} services (whiteboard) who joins and leaves, and when this instance's
 * connection changes. Listeners are called on one cluster thread in order; a listener registered
 * late first hears {@code instanceJoined} for every instance already known.
 *
 * <p>An id is one live instance's: a second instance with the same id waits, at most twice the
 * session timeout, for the first one's node to go (a controller restarted after a crash finds its
 * previous session's node until that session expires), then is refused with a
 * {@link DuplicateInstanceException} naming the id and the instance that holds it.
 */
@Component(service = ClusterService.class, immediate = true)
public final class ClusterMembership implements ClusterService, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterMembership.class);

    private final ZooKeeperSession session;
    private final CuratorFramework client;
    private final ClusterInstance local;
    private final String path;
    private final Duration staleSessionWait;
    private final ExecutorService events;
    private final Map<String, ClusterInstance> instances = new ConcurrentHashMap<>();
    private final List<ClusterListener> listeners = new CopyOnWriteArrayList<>();
    private final CuratorCache cache;
    private final ZooKeeperSession.Registration sessionRegistration;
    /** Where the others watch this process; null if it could not listen (fail-over then waits for the session timeout). */
    private final LivenessListener liveness;
    /** The others' processes, watched by instance id; touched on the events thread only. */
    private final Map<String, PeerWatch> watches = new TreeMap<>();
    private volatile boolean registered;
    private volatile boolean closed;

    @Activate
    public ClusterMembership(@Reference(name = "session") ZooKeeperSession session, BundleContext context)
            throws Exception {
        this(session, context.getBundle().getVersion().toString(), Instant.now());
    }

    /** Joins the cluster now if connected (refused if the id is taken), else on connection. */
    public ClusterMembership(ZooKeeperSession session, String version, Instant started) throws Exception {
        this.session = session;
        this.client = session.client();
        ClusterSettings settings = session.settings();
        this.local = new ClusterInstance(settings.instanceId(), settings.openflowAddress(), settings.httpAddress(),
                version, started);
        this.path = ClusterPaths.child(ClusterPaths.INSTANCES, local.id());
        this.staleSessionWait = Duration.ofMillis(2L * settings.sessionTimeoutMs());
        this.events = WorkerThreads.single("heliograph-cluster-membership");
        this.liveness = listen(settings, session);
        this.cache = CuratorCache.build(client, ClusterPaths.INSTANCES);
        cache.listenable().addListener(this::cacheEvent, events);
        // listening first: a connection change while joining is heard (joining twice is harmless)
        this.sessionRegistration = session.addListener(this::sessionChanged);
        try {
            cache.start();
            if (session.isConnected()) {
                register();
            }
        } catch (Exception | Error e) {
            closed = true;
            sessionRegistration.close();
            cache.close();
            events.shutdownNow();
            if (liveness != null) {
                liveness.close();
            }
            throw e;
        }
    }

    private static LivenessListener listen(ClusterSettings settings, ZooKeeperSession session) {
        try {
            return LivenessListener.start(settings.instanceId(), settings.advertisedHost(), settings.livenessPort(),
                    session::sessionId);
        } catch (IOException e) {
            LOG.error("cluster: {}; without it the others take this instance's switches only when its session times "
                    + "out ({} ms), not as soon as its process dies", e.getMessage(), settings.sessionTimeoutMs());
            return null;
        }
    }

    @Override
    public ClusterInstance getLocalInstance() {
        return local;
    }

    @Override
    public Map<String, ClusterInstance> getInstances() {
        Map<String, ClusterInstance> all = new TreeMap<>(instances);
        if (registered) {
            all.putIfAbsent(local.id(), local);
        }
        return all;
    }

    @Override
    public boolean isConnected() {
        return session.isConnected();
    }

    @Override
    public String getConnectString() {
        return session.connectString();
    }

    /** Where the others watch this process; null if it could not listen. */
    LivenessListener liveness() {
        return liveness;
    }

    /** Whether this instance's node is registered in the current session. */
    boolean isRegistered() {
        return registered;
    }

    @Reference(name = "listener", cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            unbind = "removeListener")
    void addListener(ClusterListener listener) {
        events.execute(() -> {
            listeners.add(listener);
            instances.values().forEach(instance -> call(listener, l -> l.instanceJoined(instance)));
        });
    }

    void removeListener(ClusterListener listener) {
        listeners.remove(listener);
    }

    private void sessionChanged(ConnectionState state) {
        boolean connected = state.isConnected();
        if (!connected) {
            registered &= state != ConnectionState.LOST;
        }
        events.execute(() -> {
            listeners.forEach(listener -> call(listener, l -> l.connectionChanged(connected)));
            if (connected && !closed) {
                try {
                    register();
                } catch (DuplicateInstanceException e) {
                    LOG.error("cluster: {}", e.getMessage());
                } catch (Exception e) {
                    LOG.warn("cluster: instance {} could not register in ZooKeeper {} after {}: {}", local.id(),
                            session.connectString(), state, e.toString());
                }
            }
        });
    }

    /** Makes this instance's node in the current session, unless it is there already. */
    private synchronized void register() throws Exception {
        byte[] data = InstanceRecord.write(local, liveness == null ? null
                : new InstanceRecord.Liveness(liveness.address(), session.sessionPassword()));
        long deadline = System.nanoTime() + staleSessionWait.toNanos();
        while (true) {
            long sessionId = client.getZookeeperClient().getZooKeeper().getSessionId();
            try {
                client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
                registered = true;
                LOG.info("cluster: instance {} joined (openflow {}, http {})", local.id(), local.openflowAddress(),
                        local.httpAddress());
                return;
            } catch (KeeperException.NodeExistsException e) {
                Stat stat = new Stat();
                byte[] held;
                try {
                    held = client.getData().storingStatIn(stat).forPath(path);
                } catch (KeeperException.NoNodeException gone) {
                    continue;
                }
                if (stat.getEphemeralOwner() == sessionId) {
                    registered = true;  // ours: made by this session before a connection loss
                    return;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || !awaitDeletion(left)) {
                    throw new DuplicateInstanceException(duplicate(held));
                }
            }
        }
    }

    /** Waits for this instance's node (held by another session) to be deleted; false on timeout. */
    private boolean awaitDeletion(long nanos) throws Exception {
        CountDownLatch deleted = new CountDownLatch(1);
        Stat stat = client.checkExists().usingWatcher((Watcher) event -> {
            if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
                deleted.countDown();
            }
        }).forPath(path);
        return stat == null || deleted.await(nanos, TimeUnit.NANOSECONDS);
    }

    private String duplicate(byte[] held) {
        String holder;
        try {
            ClusterInstance other = InstanceRecord.read(local.id(), held);
            holder = "openflow " + other.openflowAddress() + ", http " + other.httpAddress() + ", started "
                    + other.started();
        } catch (IllegalArgumentException e) {
            holder = "unreadable node: " + e.getMessage();
        }
        return "instance id '" + local.id() + "' is already used by a live instance in ZooKeeper "
                + session.connectString() + " (" + holder + "), whose session did not end within "
                + staleSessionWait.toMillis() + " ms: give each instance its own id (--instance-id, or "
                + ClusterSettings.INSTANCE_ID + " in etc/" + ClusterSettings.PID + ".cfg)";
    }

    private void cacheEvent(CuratorCacheListener.Type type, ChildData before, ChildData after) {
        ChildData node = after != null ? after : before;
        String id = idOf(node.getPath());
        if (id == null) {
            return;
        }
        if (!id.equals(local.id())) {
            watch(id, type == CuratorCacheListener.Type.NODE_DELETED ? null : after);
        }
        if (type == CuratorCacheListener.Type.NODE_DELETED) {
            ClusterInstance left = instances.remove(id);
            if (left != null) {
                LOG.info("cluster: instance {} left", id);
                listeners.forEach(listener -> call(listener, l -> l.instanceLeft(left)));
            }
            return;
        }
        ClusterInstance instance;
        try {
            instance = InstanceRecord.read(id, after.getData());
        } catch (IllegalArgumentException e) {
            LOG.warn("cluster: ignoring {}", e.getMessage());
            return;
        }
        ClusterInstance previous = instances.put(id, instance);
        if (previous == null) {
            if (!id.equals(local.id())) {
                LOG.info("cluster: instance {} joined (openflow {}, http {})", id, instance.openflowAddress(),
                        instance.httpAddress());
            }
            listeners.forEach(listener -> call(listener, l -> l.instanceJoined(instance)));
        }
    }

    /** Watches the process behind another instance's node (null: the node is gone), one watch per session. */
    private void watch(String id, ChildData node) {
        InstanceRecord.Liveness peer = node == null ? null : InstanceRecord.liveness(node.getData());
        long sessionId = node == null ? 0 : node.getStat().getEphemeralOwner();
        PeerWatch current = watches.get(id);
        if (current != null && peer != null && current.sessionId() == sessionId) {
            return;
        }
        if (current != null) {
            watches.remove(id).close();
        }
        if (peer != null && !closed) {
            watches.put(id, PeerWatch.start(id, peer.address(), sessionId, peer.sessionPassword(),
                    (instance, session, password) -> this.session.endSession(session, password)));
        }
    }

    /** The instance id of a node directly below {@code instances}, else null. */
    private static String idOf(String nodePath) {
        String prefix = ClusterPaths.INSTANCES + "/";
        if (!nodePath.startsWith(prefix) || nodePath.indexOf('/', prefix.length()) >= 0) {
            return null;
        }
        return nodePath.substring(prefix.length());
    }

    private void call(ClusterListener listener, java.util.function.Consumer<ClusterListener> call) {
        try {
            call.accept(listener);
        } catch (RuntimeException e) {
            LOG.warn("cluster: listener {} failed", listener, e);
        }
    }

    /** Leaves the cluster: this instance's node goes now, not when the session ends. */
    @Deactivate
    @Override
    public void close() {
        closed = true;
        sessionRegistration.close();
        cache.close();
        events.shutdown();
        try {
            events.awaitTermination(1, TimeUnit.SECONDS); // its last events may still start watches
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watches.values().forEach(PeerWatch::close);
        if (registered && session.isConnected()) {
            try {
                Stat stat = client.checkExists().forPath(path);
                if (stat != null && stat.getEphemeralOwner() == session.sessionId()) {
                    client.delete().withVersion(stat.getVersion()).forPath(path);
                }
            } catch (Exception e) {
                LOG.debug("cluster: leaving: {}", e.toString());
            }
        }
        registered = false;
        if (liveness != null) {
            liveness.close(); // once this instance has left, so that no peer takes the closing for a death
        }
    }
}
