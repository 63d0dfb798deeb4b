package io.heliograph.webui.bundles;

import java.net.URL;

import org.osgi.service.component.annotations.Component;

import io.heliograph.webui.api.UiPage;

/**
 * The bundles page of the web UI (ui/bundles/bundles-page.js): the controller's OSGi bundles with
 * their state and version, and their life cycle over {@code /api/v1/bundles}: install an uploaded
 * jar, start, stop, update from a jar, uninstall. The bundles resource is this bundle's own, so the
 * page is there whenever the web UI is.
 */
@Component(service = UiPage.class)
public class BundlesPage implements UiPage {

    static final String FOLDER = "/ui/bundles/";

    @Override
    public String id() {
        return "bundles";
    }

    @Override
    public String title() {
        return "Bundles";
    }

    @Override
    public URL script() {
        return BundlesPage.class.getResource(FOLDER + "bundles-page.js");
    }
}
