package io.heliograph.core.cluster;

import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The DS face that every app sharing through a {@link ClusterSharing} has alike: the optional,
 * dynamic {@link SharedStore} and {@link ClusterService} references, handed to that sharing as they
 * come and go, and the cluster's events (the component registers as a {@link ClusterListener}),
 * handed to the sharing open now. The component extends it and names its sharing.
 *
 * <p>These references are the component's own only if its bundle's {@code bnd.bnd} says
 * {@code -dsannotations-options: inherit}; without it bnd ignores the annotations of a superclass and
 * the app runs alone.
 */
public abstract class SharingComponent implements ClusterListener {

    /** The app's binding to the store and the cluster. */
    protected abstract ClusterSharing<?> clusterSharing();

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void setSharedStore(SharedStore service) {
        clusterSharing().bindStore(service);
    }

    public void unsetSharedStore(SharedStore service) {
        clusterSharing().unbindStore(service);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void setClusterService(ClusterService service) {
        clusterSharing().bindCluster(service);
    }

    public void unsetClusterService(ClusterService service) {
        clusterSharing().unbindCluster(service);
    }

    @Override
    public void instanceJoined(ClusterInstance instance) {
        clusterSharing().instanceJoined(instance);
    }

    @Override
    public void instanceLeft(ClusterInstance instance) {
        clusterSharing().instanceLeft(instance);
    }

    @Override
    public void connectionChanged(boolean connected) {
        clusterSharing().connectionChanged(connected);
    }
}
