package io.heliograph.openflow;

import io.heliograph.core.PipelineService;

/** What every switch connection needs from the controller: its settings (as of connect), the registry, the pipelines. */
record ControllerContext(OpenFlowSettings settings, SwitchRegistry registry, PipelineService pipeline) {
}
