package io.heliograph.webui.topology;

import java.net.URL;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.UiPage;

/**
 * The topology page of the web UI: the graph of switches, links and hosts (ui/topology/topology-page.js).
 * Its links come from the topology app, so the page is in the navigation exactly while that app's REST
 * resource is: when the app stops, the page leaves with it, as an app's own page would.
 */
@Component(service = UiPage.class)
public class TopologyPage implements UiPage {

    static final String TOPOLOGY_RESOURCE = "io.heliograph.topology.internal.rest.TopologyResource";

    @Reference(target = "(component.name=" + TOPOLOGY_RESOURCE + ")")
    RestResource topologyResource;

    @Override
    public String id() {
        return "topology";
    }

    @Override
    public String title() {
        return "Topology";
    }

    @Override
    public URL script() {
        return TopologyPage.class.getResource(TopologyGraphFiles.FOLDER + "topology-page.js");
    }

    @Override
    public int rank() {
        return TOPOLOGY_RANK;
    }
}
