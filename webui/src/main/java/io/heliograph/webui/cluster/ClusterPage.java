package io.heliograph.webui.cluster;

import java.net.URL;

import org.osgi.service.component.annotations.Component;

import io.heliograph.webui.api.UiPage;

/**
 * The cluster page of the web UI (ui/cluster/cluster-page.js): the instances of the cluster with their
 * addresses, version, start and how many switches each is master of, and every switch's mastership
 * with a move to another candidate and a rebalance. The cluster resource is this bundle's own, so the
 * page is there whenever the web UI is; while the cluster bundle is not running it says so.
 */
@Component(service = UiPage.class)
public class ClusterPage implements UiPage {

    /** Where the page's modules are, in this bundle and under /ui/ on the server. */
    static final String FOLDER = "/ui/cluster/";

    @Override
    public String id() {
        return "cluster";
    }

    @Override
    public String title() {
        return "Cluster";
    }

    @Override
    public URL script() {
        return ClusterPage.class.getResource(FOLDER + "cluster-page.js");
    }
}
