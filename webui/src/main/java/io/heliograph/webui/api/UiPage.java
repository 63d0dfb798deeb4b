package io.heliograph.webui.api;

import java.net.URL;

/**
 * A page an app adds to the web UI, registered as an OSGi service while the app runs: the navigation
 * lists it, and the single-page app loads its script (an ES module exporting
 * {@code render(element, api)}) when the operator opens it. When the service goes away the page
 * leaves the navigation.
 *
 * @see RestResource for the matching REST side
 */
public interface UiPage {

    /** The page's id in the UI's address ({@code #/<id>}): lower case letters, digits and dashes. */
    String id();

    /** The title shown in the navigation. */
    String title();

    /** The ES module that renders the page, usually a resource of the app's own bundle. */
    URL script();

    /**
     * Where the page goes in the navigation: lower ranks first, pages of equal rank by title. The pages
     * an operator opens first have low ranks (topology {@value #TOPOLOGY_RANK}, switches
     * {@value #SWITCHES_RANK}, hosts {@value #HOSTS_RANK}); an app's page that says nothing comes after
     * them, at {@value #DEFAULT_RANK}.
     */
    default int rank() {
        return DEFAULT_RANK;
    }

    int TOPOLOGY_RANK = 10;
    int SWITCHES_RANK = 20;
    int HOSTS_RANK = 30;
    int DEFAULT_RANK = 100;
}
