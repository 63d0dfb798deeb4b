package __PACKAGE__.rest;

import java.net.URL;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.webui.api.RestResource;
import io.heliograph.webui.api.UiPage;

/**
 * The app's page in the web UI (__NAME__-page.js, a resource of this bundle). It reads
 * {@link __CLASS__Resource}, so it is in the navigation exactly while that resource is.
 */
@Component(service = UiPage.class)
public class __CLASS__Page implements UiPage {

    /** Takes the resource only so that the page is registered exactly while the resource is. */
    @Activate
    public __CLASS__Page(@Reference(target = "(component.name=__PACKAGE__.rest.__CLASS__Resource)")
            RestResource resource) {
    }

    @Override
    public String id() {
        return "__NAME__";
    }

    @Override
    public String title() {
        return "__NAME__";
    }

    @Override
    public URL script() {
        return __CLASS__Page.class.getResource("__NAME__-page.js");
    }
}
