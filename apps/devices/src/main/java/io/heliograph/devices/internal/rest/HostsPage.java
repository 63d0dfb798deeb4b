package io.heliograph.devices.internal.rest;

import java.net.URL;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.UiPage;

/**
 * The web UI's hosts page (hosts-page.js, a resource of this bundle): the hosts the devices app
 * tracks, searched by MAC or address on the server and shown a page at a time, so it stays usable with
 * thousands of hosts. It reads {@link HostsResource}, so it is in the navigation exactly while that
 * resource is.
 */
@Component(service = UiPage.class)
public final class HostsPage implements UiPage {

    static final String SCRIPT = "hosts-page.js";

    @Reference(target = "(component.name=io.heliograph.devices.internal.rest.HostsResource)")
    RestResource hostsResource;

    @Override
    public String id() {
        return "hosts";
    }

    @Override
    public String title() {
        return "Hosts";
    }

    @Override
    public URL script() {
        return HostsPage.class.getResource(SCRIPT);
    }

    @Override
    public int rank() {
        return HOSTS_RANK;
    }
}
