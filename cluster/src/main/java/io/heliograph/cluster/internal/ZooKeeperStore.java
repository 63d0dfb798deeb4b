package io.heliograph.cluster.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.SharedStore;

/**
 * The shared store on ZooKeeper: key {@code a/b/c} is the znode {@code /heliograph/store/a/b/c},
 * its value the node's data and its version the node's data version. Conditional writes are
 * ZooKeeper's versioned setData (create for {@link Versioned#ABSENT}); {@link #update} retries
 * read-change-write until its versioned write wins, so concurrent updates from any instances never
 * lose one. Watches are Curator caches on the prefix; leaderships are Curator leader latches under
 * {@code /heliograph/leaders/<name>}, their participants named by instance id.
 *
 * <p>Writing {@code a/b/c} makes {@code a} and {@code a/b} as nodes without data; a node without data
 * is a key without a value (get answers empty, list and watches skip it). So a value is 1 to
 * {@link #MAX_VALUE_BYTES} bytes: an empty one is refused. Deleting a key removes the parents it
 * leaves without value or children. An {@link #update} that deletes a key with keys below it clears
 * its value (atomically) and leaves those keys.
 *
 * <p>Reads ({@link #get}, {@link #list}) first make this instance's ZooKeeper server catch up with the
 * ensemble's leader (a ZooKeeper sync), so they see every write that returned before they started, on
 * any instance: a server outside the write's quorum may otherwise lag behind by a few milliseconds.
 * A listing reads its values in one pipelined round trip.
 *
 * <p>Listeners of watches and leaderships run on one store thread, in order. A watch hears every
 * existing value first, then changes; quick successive writes of one key may reach it as the last
 * value only (versions then jump), never out of order.
 */
@Component(service = SharedStore.class, immediate = true)
public final class ZooKeeperStore implements SharedStore, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperStore.class);
    private static final byte[] NO_VALUE = new byte[0];

    private final ZooKeeperSession session;
    private final CuratorFramework client;
    private final ExecutorService notifications;
    private final Set<Watch> open = ConcurrentHashMap.newKeySet();

    @Activate
    public ZooKeeperStore(@Reference(name = "session") ZooKeeperSession session) {
        this.session = session;
        this.client = session.client();
        this.notifications = WorkerThreads.single("heliograph-store");
    }

    @Override
    public Optional<Versioned> get(String key) {
        String path = path(StoreKeys.requireKey("store key", key));
        available("get", key);
        try {
            catchUp();
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            return hasValue(data) ? Optional.of(new Versioned(key, data, stat.getVersion())) : Optional.empty();
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        } catch (Exception e) {
            throw failure("get", key, e);
        }
    }

    @Override
    public Versioned put(String key, byte[] value) {
        String path = path(StoreKeys.requireKey("store key", key));
        byte[] data = requireValue(key, value);
        available("put", key);
        try {
            while (true) {
                try {
                    return new Versioned(key, data.clone(), client.setData().forPath(path, data).getVersion());
                } catch (KeeperException.NoNodeException absent) {
                    Optional<Versioned> created = create(key, path, data);
                    if (created.isPresent()) {
                        return created.get();
                    }
                }
            }
        } catch (Exception e) {
            throw failure("put", key, e);
        }
    }

    @Override
    public Optional<Versioned> replace(String key, long expectedVersion, byte[] value) {
        String path = path(StoreKeys.requireKey("store key", key));
        byte[] data = requireValue(key, value);
        if (expectedVersion != Versioned.ABSENT && (expectedVersion < 0 || expectedVersion > Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("expected version of store key '" + key
                    + "' must be Versioned.ABSENT (-1) or a version (0-" + Integer.MAX_VALUE + "), got " + expectedVersion);
        }
        available("replace", key);
        try {
            while (true) {
                Stat stat = new Stat();
                byte[] current;
                try {
                    current = client.getData().storingStatIn(stat).forPath(path);
                } catch (KeeperException.NoNodeException e) {
                    if (expectedVersion != Versioned.ABSENT) {
                        return Optional.empty();
                    }
                    Optional<Versioned> created = create(key, path, data);
                    if (created.isPresent()) {
                        return created;
                    }
                    continue;   // created by someone else meanwhile: look again
                }
                boolean matches = expectedVersion == Versioned.ABSENT
                        ? !hasValue(current)
                        : hasValue(current) && stat.getVersion() == expectedVersion;
                if (!matches) {
                    return Optional.empty();
                }
                // the read's version, checked by the write: nothing came in between
                Optional<Versioned> written = setIfVersion(key, path, data, stat.getVersion());
                if (written.isPresent() || expectedVersion != Versioned.ABSENT) {
                    return written;
                }
            }
        } catch (Exception e) {
            throw failure("replace", key, e);
        }
    }

    @Override
    public Optional<Versioned> update(String key, UnaryOperator<byte[]> change) {
        String path = path(StoreKeys.requireKey("store key", key));
        Objects.requireNonNull(change, "change");
        available("update", key);
        try {
            while (true) {
                Stat stat = new Stat();
                byte[] current;
                try {
                    current = client.getData().storingStatIn(stat).forPath(path);
                } catch (KeeperException.NoNodeException e) {
                    current = null;
                    stat = null;
                }
                byte[] old = hasValue(current) ? current : null;
                byte[] next = change.apply(old == null ? null : old.clone());
                if (next == null) {
                    if (old == null || removeValue(path, stat)) {
                        return Optional.empty();
                    }
                    continue;
                }
                byte[] data = requireValue(key, next);
                Optional<Versioned> written = stat == null
                        ? create(key, path, data)
                        : setIfVersion(key, path, data, stat.getVersion());
                if (written.isPresent()) {
                    return written;
                }
            }
        } catch (RuntimeException e) {
            throw e;    // the change's own failure, or a refused value it returned
        } catch (Exception e) {
            throw failure("update", key, e);
        }
    }

    @Override
    public boolean delete(String key) {
        String path = path(StoreKeys.requireKey("store key", key));
        available("delete", key);
        try {
            Stat stat = client.checkExists().forPath(path);
            if (stat == null) {
                return false;
            }
            client.delete().deletingChildrenIfNeeded().forPath(path);
            pruneParents(path);
            return stat.getDataLength() > 0 || stat.getNumChildren() > 0;
        } catch (KeeperException.NoNodeException e) {
            return false;
        } catch (Exception e) {
            throw failure("delete", key, e);
        }
    }

    @Override
    public Map<String, Versioned> list(String parent) {
        String prefix = StoreKeys.requirePrefix("store key", parent);
        String path = prefix.isEmpty() ? ClusterPaths.STORE : path(prefix);
        available("list", parent);
        try {
            catchUp();
            List<String> children;
            try {
                children = client.getChildren().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                return Map.of();
            }
            Collections.sort(children);
            // every read sent at once, answered in order on the one connection: one round trip in all
            List<CompletableFuture<CuratorEvent>> reads = new ArrayList<>(children.size());
            for (String child : children) {
                CompletableFuture<CuratorEvent> read = new CompletableFuture<>();
                client.getData().inBackground((c, event) -> read.complete(event)).forPath(ZKPaths.makePath(path, child));
                reads.add(read);
            }
            Map<String, Versioned> values = new LinkedHashMap<>();
            for (int i = 0; i < children.size(); i++) {
                CuratorEvent read = await(reads.get(i));
                KeeperException.Code code = KeeperException.Code.get(read.getResultCode());
                if (code == KeeperException.Code.NONODE) {
                    continue;   // deleted meanwhile
                }
                if (code != KeeperException.Code.OK) {
                    throw KeeperException.create(code, read.getPath());
                }
                if (hasValue(read.getData())) {
                    String child = children.get(i);
                    String key = prefix.isEmpty() ? child : prefix + "/" + child;
                    values.put(child, new Versioned(key, read.getData(), read.getStat().getVersion()));
                }
            }
            return values;
        } catch (Exception e) {
            throw failure("list", parent, e);
        }
    }

    @Override
    public Watch watch(String prefix, StoreListener listener) {
        String checked = StoreKeys.requirePrefix("store key", prefix);
        Objects.requireNonNull(listener, "listener");
        available("watch", prefix);
        CuratorCache cache = CuratorCache.build(client, checked.isEmpty() ? ClusterPaths.STORE : path(checked));
        StoreWatch watch = new StoreWatch(cache, listener);
        cache.listenable().addListener(watch, notifications);
        open.add(watch);
        cache.start();
        return watch;
    }

    @Override
    public Watch lead(String name, LeadershipListener listener) {
        String path = ZKPaths.makePath(ClusterPaths.LEADERS, StoreKeys.requireKey("leadership name", name));
        Objects.requireNonNull(listener, "listener");
        available("lead", name);
        Leadership leadership = new Leadership(new LeaderLatch(client, path, session.instanceId()), listener);
        open.add(leadership);
        try {
            leadership.start();
        } catch (Exception e) {
            leadership.close();
            throw failure("lead", name, e);
        }
        return leadership;
    }

    /** Ends every watch and leadership this store started (leaders hear that they lead no more). */
    @Deactivate
    @Override
    public void close() {
        open.forEach(Watch::close);
        notifications.shutdown();
    }

    /**
     * Makes the ZooKeeper server this instance talks to catch up with the leader: a read after it sees
     * every write that returned before it was asked, whichever instance wrote.
     */
    private void catchUp() throws Exception {
        CompletableFuture<CuratorEvent> synced = new CompletableFuture<>();
        client.sync().inBackground((c, event) -> synced.complete(event)).forPath(ClusterPaths.STORE);
        CuratorEvent event = await(synced);
        KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
        if (code != KeeperException.Code.OK && code != KeeperException.Code.NONODE) {
            throw KeeperException.create(code, ClusterPaths.STORE);
        }
    }

    /** The answer to a background request, within the connection timeout (Curator retries meanwhile). */
    private CuratorEvent await(CompletableFuture<CuratorEvent> answer) throws Exception {
        try {
            return answer.get(session.settings().connectionTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new KeeperException.OperationTimeoutException();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private Optional<Versioned> create(String key, String path, byte[] data) throws Exception {
        try {
            Stat stat = new Stat();
            client.create().creatingParentsIfNeeded().storingStatIn(stat).forPath(path, data);
            return Optional.of(new Versioned(key, data.clone(), stat.getVersion()));
        } catch (KeeperException.NodeExistsException | KeeperException.NoNodeException raced) {
            // NodeExists: another write came first. NoNode: a parent was pruned between Curator's
            // making it and the create. Either way the caller looks again.
            return Optional.empty();
        }
    }

    private Optional<Versioned> setIfVersion(String key, String path, byte[] data, int version) throws Exception {
        try {
            Stat stat = client.setData().withVersion(version).forPath(path, data);
            return Optional.of(new Versioned(key, data.clone(), stat.getVersion()));
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    /** Deletes the value read at {@code stat}'s version; false when another write came first. */
    private boolean removeValue(String path, Stat stat) throws Exception {
        try {
            if (stat.getNumChildren() > 0) {
                client.setData().withVersion(stat.getVersion()).forPath(path, NO_VALUE);
            } else {
                client.delete().withVersion(stat.getVersion()).forPath(path);
                pruneParents(path);
            }
            return true;
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException
                 | KeeperException.NotEmptyException e) {
            return false;
        }
    }

    /** Deletes the parents of a deleted key that are left with neither value nor children. */
    private void pruneParents(String path) {
        String parent = ZKPaths.getPathAndNode(path).getPath();
        try {
            while (parent.startsWith(ClusterPaths.STORE + "/")) {
                Stat stat = client.checkExists().forPath(parent);
                if (stat != null) {
                    if (stat.getDataLength() > 0 || stat.getNumChildren() > 0) {
                        return;
                    }
                    client.delete().withVersion(stat.getVersion()).forPath(parent);
                }
                parent = ZKPaths.getPathAndNode(parent).getPath();
            }
        } catch (KeeperException.NotEmptyException | KeeperException.BadVersionException
                 | KeeperException.NoNodeException e) {
            // written to meanwhile: it stays
        } catch (Exception e) {
            LOG.debug("store: leaving parent {} of a deleted key: {}", parent, e.toString());
        }
    }

    private static boolean hasValue(byte[] data) {
        return data != null && data.length > 0;
    }

    private static String path(String key) {
        return ClusterPaths.STORE + "/" + key;
    }

    /** The key of a node below the store, or null for the store's root. */
    private static String keyOf(String path) {
        String prefix = ClusterPaths.STORE + "/";
        return path.startsWith(prefix) ? path.substring(prefix.length()) : null;
    }

    private static byte[] requireValue(String key, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("value of store key '" + key + "' is null (delete the key instead)");
        }
        if (value.length == 0) {
            throw new IllegalArgumentException("value of store key '" + key
                    + "' is empty: values are 1-" + MAX_VALUE_BYTES + " bytes (delete the key instead)");
        }
        if (value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("value of store key '" + key + "' has " + value.length
                    + " bytes, more than the " + MAX_VALUE_BYTES + " the store keeps");
        }
        return value.clone();
    }

    private void available(String operation, String key) {
        if (!session.isConnected()) {
            throw new StoreUnavailableException("store: no ZooKeeper session (" + session.connectString() + "): "
                    + operation + " of '" + key + "' was not done", null);
        }
    }

    private RuntimeException failure(String operation, String key, Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        if (e instanceof KeeperException.ConnectionLossException || e instanceof KeeperException.SessionExpiredException
                || e instanceof KeeperException.OperationTimeoutException
                || e instanceof KeeperException.SessionMovedException || e instanceof InterruptedException
                || !session.isConnected()) {
            boolean write = !operation.equals("get") && !operation.equals("list");
            return new StoreUnavailableException("store: ZooKeeper session lost (" + session.connectString()
                    + ") during " + operation + " of '" + key + "'"
                    + (write ? ": it may or may not have been applied" : ""), e);
        }
        return new IllegalStateException("store: " + operation + " of '" + key + "' failed: " + e, e);
    }

    /** A Curator cache on a prefix, reporting values (not the value-less parent nodes). */
    private final class StoreWatch implements Watch, CuratorCacheListener {
        private final CuratorCache cache;
        private final StoreListener listener;
        private volatile boolean closed;

        StoreWatch(CuratorCache cache, StoreListener listener) {
            this.cache = cache;
            this.listener = listener;
        }

        /** On the store thread. */
        @Override
        public void event(Type type, ChildData before, ChildData after) {
            String key = keyOf((after != null ? after : before).getPath());
            if (closed || key == null) {
                return;
            }
            try {
                boolean had = before != null && hasValue(before.getData());
                if (type != Type.NODE_DELETED && hasValue(after.getData())) {
                    listener.changed(new Versioned(key, after.getData().clone(), after.getStat().getVersion()));
                } else if (had) {
                    listener.removed(key);
                }
            } catch (RuntimeException e) {
                LOG.warn("store: watch listener {} failed on '{}'", listener, key, e);
            }
        }

        @Override
        public void close() {
            closed = true;
            open.remove(this);
            cache.close();
        }
    }

    /** A leader latch whose listener hears changes of leadership on the store thread, and false at its close. */
    private final class Leadership implements Watch, LeaderLatchListener {
        private final LeaderLatch latch;
        private final LeadershipListener listener;
        private volatile boolean closed;
        /** Only on the store thread: what the listener was told last. */
        private boolean leader;

        Leadership(LeaderLatch latch, LeadershipListener listener) {
            this.latch = latch;
            this.listener = listener;
        }

        void start() throws Exception {
            latch.addListener(this, notifications);
            latch.start();
        }

        @Override
        public void isLeader() {
            tell(true);
        }

        @Override
        public void notLeader() {
            tell(false);
        }

        private void tell(boolean leading) {
            if (leading == leader || (leading && closed)) {
                return;
            }
            leader = leading;
            try {
                listener.leadershipChanged(leading);
            } catch (RuntimeException e) {
                LOG.warn("store: leadership listener {} failed", listener, e);
            }
        }

        @Override
        public void close() {
            closed = true;
            open.remove(this);
            try {
                latch.close(LeaderLatch.CloseMode.SILENT);
            } catch (Exception e) {
                LOG.debug("store: closing leadership {}: {}", latch.getOurPath(), e.toString());
            }
            if (!notifications.isShutdown()) {
                notifications.execute(() -> tell(false));
            }
        }
    }
}
