package io.heliograph.core.cluster;

/**
 * A component whose app shares through a {@link ClusterSharing}: registered as a
 * {@link ClusterListener}, it hands the cluster's events to that sharing, which passes them to the
 * sharing open now. The component only names its sharing.
 */
public interface SharingComponent extends ClusterListener {

    /** The app's binding to the store and the cluster. */
    ClusterSharing<?> clusterSharing();

    @Override
    default void instanceJoined(ClusterInstance instance) {
        clusterSharing().instanceJoined(instance);
    }

    @Override
    default void instanceLeft(ClusterInstance instance) {
        clusterSharing().instanceLeft(instance);
    }

    @Override
    default void connectionChanged(boolean connected) {
        clusterSharing().connectionChanged(connected);
    }
}
