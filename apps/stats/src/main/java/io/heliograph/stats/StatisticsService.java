package io.heliograph.stats;

import java.util.List;

import io.heliograph.core.SwitchPort;

/** Periodically collected switch statistics, with rates and a bounded recent history. */
public interface StatisticsService {

    /** The latest rates of a port, or null before two samples exist. */
    PortRate getPortRate(SwitchPort port);

    /** The recent rates of a port, oldest first (bounded). */
    List<PortRate> getPortRateHistory(SwitchPort port);
}
