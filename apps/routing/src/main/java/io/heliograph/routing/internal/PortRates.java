package io.heliograph.routing.internal;

import java.util.function.Function;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.PortRate;

/**
 * A port's latest measured rate, or null. A service inside this bundle so that only
 * {@link StatisticsPortRates} touches the statistics API, which may be absent: its import is
 * optional, and without it that component just stays unsatisfied.
 */
interface PortRates extends Function<SwitchPort, PortRate> {
}
