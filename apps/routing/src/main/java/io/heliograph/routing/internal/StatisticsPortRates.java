package io.heliograph.routing.internal;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;

/** Port rates from the statistics app, while it runs. */
@Component(service = PortRates.class)
public final class StatisticsPortRates implements PortRates {

    private final StatisticsService statistics;

    @Activate
    public StatisticsPortRates(@Reference StatisticsService statistics) {
        this.statistics = statistics;
    }

    @Override
    public PortRate apply(SwitchPort port) {
        return statistics.getPortRate(port);
    }
}
