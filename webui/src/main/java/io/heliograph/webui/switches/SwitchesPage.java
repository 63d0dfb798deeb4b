package io.heliograph.webui.switches;

import java.net.URL;

import org.osgi.service.component.annotations.Component;

import io.heliograph.webui.api.UiPage;

/**
 * The switches pages of the web UI (ui/switches/switches-page.js): the list of connected switches at
 * {@code #/switches}, and one switch at {@code #/switches/<dpid>[/<tab>]} with its ports and their live
 * rates, flows, tables, groups and meters. The switch resources are the web bundle's own, so the page is
 * there whenever the web UI is; the rates come from the statistics app when it runs, and the page says
 * so when it does not.
 */
@Component(service = UiPage.class)
public class SwitchesPage implements UiPage {

    /** Where the page's modules are, in this bundle and under /ui/ on the server. */
    static final String FOLDER = "/ui/switches/";

    @Override
    public String id() {
        return "switches";
    }

    @Override
    public String title() {
        return "Switches";
    }

    @Override
    public URL script() {
        return SwitchesPage.class.getResource(FOLDER + "switches-page.js");
    }

    @Override
    public int rank() {
        return SWITCHES_RANK;
    }
}
