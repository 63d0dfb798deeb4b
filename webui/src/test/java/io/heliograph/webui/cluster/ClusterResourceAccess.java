package io.heliograph.webui.cluster;

import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.MastershipService;
import io.heliograph.webui.api.RestResource;

/** The cluster resource for tests outside its package, with its services bound as Declarative Services would. */
public final class ClusterResourceAccess {

    private final ClusterResource resource = new ClusterResource();

    public void bind(ClusterService cluster, MastershipService masterships) {
        resource.cluster = cluster;
        resource.masterships = masterships;
    }

    public RestResource resource() {
        return resource;
    }
}
