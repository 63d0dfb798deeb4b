package io.heliograph.cluster.internal;

/**
 * Where the cluster keeps its state in ZooKeeper: everything under {@value #ROOT}, so one ensemble
 * can serve other applications beside Heliograph.
 */
public final class ClusterPaths {

    public static final String ROOT = "/heliograph";
    /** {@code instances/<id>}, ephemeral: membership. */
    public static final String INSTANCES = ROOT + "/instances";
    /** {@code switches/<dpid>/...}: mastership (candidates, master). */
    public static final String SWITCHES = ROOT + "/switches";
    /** {@code store/<key>}: the shared store's values. */
    public static final String STORE = ROOT + "/store";
    /** {@code leaders/<name>}: the shared store's leader elections ({@code SharedStore.lead}). */
    public static final String LEADERS = ROOT + "/leaders";

    private ClusterPaths() {
    }

    /** {@code parent/child}; child is one path segment. */
    public static String child(String parent, String child) {
        return parent + "/" + child;
    }
}
