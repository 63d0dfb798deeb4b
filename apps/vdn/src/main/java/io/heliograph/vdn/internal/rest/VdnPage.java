package io.heliograph.vdn.internal.rest;

import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.UiPage;
import java.net.URL;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The web UI's VDN page (vdn-page.js and its parts beside it, resources of this bundle): the latest
 * central decision and the knobs, every cluster with its RIB and FIB, a video's distribution trees on the
 * topology, and the agents' join times and bitrates over time. It shows what {@link VdnResource} serves,
 * so it is in the navigation exactly while that resource is.
 */
@Component(service = UiPage.class)
public final class VdnPage implements UiPage {

    static final String SCRIPT = "vdn-page.js";

    @Reference(target = "(component.name=io.heliograph.vdn.internal.rest.VdnResource)")
    RestResource vdnResource;

    @Override
    public String id() {
        return "vdn";
    }

    @Override
    public String title() {
        return "VDN";
    }

    @Override
    public URL script() {
        return VdnPage.class.getResource(SCRIPT);
    }
}
