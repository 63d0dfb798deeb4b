package io.heliograph.core.testing;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.heliograph.core.cluster.ClusterInstance;
import io.heliograph.core.cluster.ClusterService;

/**
 * The membership of a test's cluster, one view per instance: the test says who is live
 * ({@link #join}, {@link #leave}) and, as the cluster bundle would, then tells the instance's
 * ClusterListeners itself. Views made with {@link #anotherInstance} share the members, as every
 * instance of a real cluster sees the same ZooKeeper. Thread-safe.
 */
public final class FakeClusterService implements ClusterService {

    private final Map<String, ClusterInstance> members;
    private final ClusterInstance local;
    private volatile boolean connected = true;

    /** A cluster of one instance, {@code localId}. */
    public FakeClusterService(String localId) {
        this(new ConcurrentHashMap<>(), localId);
    }

    private FakeClusterService(Map<String, ClusterInstance> members, String localId) {
        this.members = members;
        this.local = instance(localId);
        members.put(localId, local);
    }

    /** Another instance of the same cluster, live from now on. */
    public FakeClusterService anotherInstance(String id) {
        return new FakeClusterService(members, id);
    }

    /** An instance becomes live; returns it, for the listeners' instanceJoined. */
    public ClusterInstance join(String id) {
        ClusterInstance joined = instance(id);
        members.put(id, joined);
        return joined;
    }

    /** An instance is no longer live (its session expired); returns it, for the listeners' instanceLeft. */
    public ClusterInstance leave(String id) {
        ClusterInstance gone = members.remove(id);
        if (gone == null) {
            throw new IllegalArgumentException("instance " + id + " is not live; live: " + members.keySet());
        }
        return gone;
    }

    public void setConnected(boolean connected) {
        this.connected = connected;
    }

    private static ClusterInstance instance(String id) {
        return new ClusterInstance(id, "127.0.0.1:6653", "127.0.0.1:8080", "test", Instant.EPOCH);
    }

    @Override
    public ClusterInstance getLocalInstance() {
        return local;
    }

    @Override
    public Map<String, ClusterInstance> getInstances() {
        return Map.copyOf(members);
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    @Override
    public String getConnectString() {
        return "127.0.0.1:2181";
    }
}
