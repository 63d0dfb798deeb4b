package io.heliograph.webui.cluster;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import io.heliograph.core.cluster.ClusterInstance;
import io.heliograph.core.cluster.ClusterService;

/** A cluster membership the test sets up: instances added in any order, the ZooKeeper session up or down. */
public final class FakeCluster implements ClusterService {

    public static final String ZOOKEEPER = "127.0.0.1:2181,127.0.0.1:2182";

    private final ClusterInstance local;
    private final Map<String, ClusterInstance> instances = new LinkedHashMap<>();
    private volatile boolean connected = true;

    public FakeCluster(String localId) {
        local = instance(localId);
        instances.put(localId, local);
    }

    public static ClusterInstance instance(String id) {
        int n = Math.abs(id.hashCode() % 100);
        return new ClusterInstance(id, "10.0.0." + n + ":6653", "10.0.0." + n + ":8080", "0.1.0.test",
                Instant.parse("2024-05-01T12:00:00Z").plusSeconds(n));
    }

    public FakeCluster join(String id) {
        instances.put(id, instance(id));
        return this;
    }

    public FakeCluster leave(String id) {
        instances.remove(id);
        return this;
    }

    public FakeCluster connected(boolean up) {
        connected = up;
        return this;
    }

    @Override
    public ClusterInstance getLocalInstance() {
        return local;
    }

    @Override
    public Map<String, ClusterInstance> getInstances() {
        return Map.copyOf(instances);
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    @Override
    public String getConnectString() {
        return ZOOKEEPER;
    }
}
