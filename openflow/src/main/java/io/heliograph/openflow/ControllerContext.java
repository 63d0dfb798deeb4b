package io.heliograph.openflow;

import io.heliograph.core.spi.PipelineDispatch;

/**
 * What every switch connection needs from the controller: its settings (as of connect), the registry,
 * the pipelines, and the counters of everything the channel layer refuses.
 */
record ControllerContext(OpenFlowSettings settings, SwitchRegistry registry, PipelineDispatch pipeline,
        ChannelCounters counters) {
}
