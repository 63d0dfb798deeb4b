package io.heliograph.staticflows.internal.rest;

import java.net.URL;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.UiPage;

/**
 * The web UI's static flows editor (static-flows-page.js, a resource of this bundle): the static
 * flows, groups and meters of every switch, and a form that adds, replaces and deletes them through
 * {@link StaticEntriesResource}, showing its validation messages next to the fields they name. It
 * needs that resource, so it is in the navigation exactly while the resource is.
 */
@Component(service = UiPage.class)
public final class StaticFlowsPage implements UiPage {

    static final String SCRIPT = "static-flows-page.js";

    @Reference(target = "(component.name=io.heliograph.staticflows.internal.rest.StaticEntriesResource)")
    RestResource entriesResource;

    @Override
    public String id() {
        return "static-flows";
    }

    @Override
    public String title() {
        return "Static flows";
    }

    @Override
    public URL script() {
        return StaticFlowsPage.class.getResource(SCRIPT);
    }
}
