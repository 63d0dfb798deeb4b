package io.heliograph.virtue.internal;

import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.ClusterSingleton;

/**
 * What the Virtue app keeps open through the cluster: the two singletons, measurement and optimiser,
 * each run on one instance and taken over by another when that one dies.
 */
final class VirtueSharing implements ClusterSharing.Sharing {

    private final ClusterSingleton measurement;
    private final ClusterSingleton optimiser;

    VirtueSharing(ClusterSingleton measurement, ClusterSingleton optimiser) {
        this.measurement = measurement;
        this.optimiser = optimiser;
    }

    @Override
    public void start() {
        measurement.start();
        optimiser.start();
    }

    @Override
    public void connectionChanged(boolean connected) {
        measurement.connectionChanged(connected);
        optimiser.connectionChanged(connected);
    }

    /** Whether this instance measures the running experiments now. */
    boolean measuring() {
        return measurement.running();
    }

    /** Whether this instance runs the optimisations now. */
    boolean optimising() {
        return optimiser.running();
    }

    @Override
    public void close() {
        measurement.close();
        optimiser.close();
    }
}
