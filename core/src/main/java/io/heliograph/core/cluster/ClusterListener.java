package io.heliograph.core.cluster;

/**
 * Told when instances join or leave the cluster and when this instance's ZooKeeper connection
 * changes. Register an implementation as an OSGi service (whiteboard); it is called on a cluster
 * thread, one call at a time, and must not block.
 */
public interface ClusterListener {

    default void instanceJoined(ClusterInstance instance) {
    }

    default void instanceLeft(ClusterInstance instance) {
    }

    /** This instance's ZooKeeper session is up ({@code true}) or suspended or lost ({@code false}). */
    default void connectionChanged(boolean connected) {
    }
}
