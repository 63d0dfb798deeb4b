package io.heliograph.core.cluster;

import java.util.Map;

/**
 * The instances of this controller's cluster: those with a live ZooKeeper session, this one
 * included. A single controller is a cluster of one on its embedded ZooKeeper.
 */
public interface ClusterService {

    /** This instance. */
    ClusterInstance getLocalInstance();

    /** The live instances by id, this one included; as last seen while connected to ZooKeeper. */
    Map<String, ClusterInstance> getInstances();

    /**
     * Whether this instance holds a live ZooKeeper session now. While it does not, it is master of
     * no switch and the shared store refuses writes.
     */
    boolean isConnected();

    /** The ZooKeeper connect string this instance uses ({@code host:port,...}). */
    String getConnectString();
}
