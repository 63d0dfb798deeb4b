package io.heliograph.openflow;

import io.heliograph.core.PipelineService;

/**
 * What every switch connection needs from the controller: its settings (as of connect), the registry,
 * the pipelines, and the counters of everything the channel layer refuses.
 */
record ControllerContext(OpenFlowSettings settings, SwitchRegistry registry, PipelineService pipeline,
        ChannelCounters counters) {
}
