package io.heliograph.virtue.internal.rest;

import java.net.URL;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.UiPage;

/**
 * The web UI's Virtue page (virtue-page.js and its parts beside it, resources of this bundle): the
 * experiments, an explorer of one experiment's run (time slider, the topology coloured by utilisation
 * and CPU, a resource table a region of the topology filters, charts of the metrics) and its
 * optimisations. It shows what {@link ExperimentsResource} serves, so it is in the navigation exactly
 * while that resource is.
 */
@Component(service = UiPage.class)
public final class VirtuePage implements UiPage {

    static final String SCRIPT = "virtue-page.js";

    @Reference(target = "(component.name=io.heliograph.virtue.internal.rest.ExperimentsResource)")
    RestResource experimentsResource;

    @Override
    public String id() {
        return "virtue";
    }

    @Override
    public String title() {
        return "Virtue";
    }

    @Override
    public URL script() {
        return VirtuePage.class.getResource(SCRIPT);
    }
}
