package io.heliograph.stats.internal;

import java.util.function.Predicate;

import io.heliograph.core.SwitchPort;

/**
 * Which ports face hosts, for counting traffic where it enters the network. A service inside this
 * bundle so that only {@link TopologyEdgePorts} touches the topology API, which may be absent.
 */
interface EdgePorts {

    /** A predicate over the current topology; the same object as long as the topology is unchanged. */
    Predicate<SwitchPort> current();
}
