package io.heliograph.webui.pipelines;

import java.net.URL;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.core.PipelineService;
import io.heliograph.webui.api.UiPage;

/**
 * The pipelines page of the web UI (ui/pipelines/pipelines-page.js): each OpenFlow message type's
 * listeners in the order they run, reordered by dragging (or by move buttons) and saved through
 * {@code /api/v1/pipelines/{type}}. Without the core's pipeline service (the core bundle stopped)
 * there is nothing to show or reorder, so the page is in the navigation exactly while that service is.
 */
@Component(service = UiPage.class)
public class PipelinesPage implements UiPage {

    static final String FOLDER = "/ui/pipelines/";

    @Reference
    PipelineService pipelines;

    @Override
    public String id() {
        return "pipelines";
    }

    @Override
    public String title() {
        return "Pipelines";
    }

    @Override
    public URL script() {
        return PipelinesPage.class.getResource(FOLDER + "pipelines-page.js");
    }
}
