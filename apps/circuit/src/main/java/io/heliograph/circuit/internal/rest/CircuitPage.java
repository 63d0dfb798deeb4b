package io.heliograph.circuit.internal.rest;

import java.net.URL;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.UiPage;

/**
 * The web UI's circuit page (circuit-page.js and its parts beside it, resources of this bundle): the
 * current week as a timeline of days and nights, circuit and packet bytes per rack pair, the demand as a
 * heat map, the scheduler and estimator in use with a form to change them, and the executor's status. It
 * shows what {@link CircuitResource} serves, so it is in the navigation exactly while that resource is.
 */
@Component(service = UiPage.class)
public final class CircuitPage implements UiPage {

    static final String SCRIPT = "circuit-page.js";

    @Reference(target = "(component.name=io.heliograph.circuit.internal.rest.CircuitResource)")
    RestResource circuitResource;

    @Override
    public String id() {
        return "circuit";
    }

    @Override
    public String title() {
        return "Circuit";
    }

    @Override
    public URL script() {
        return CircuitPage.class.getResource(SCRIPT);
    }
}
