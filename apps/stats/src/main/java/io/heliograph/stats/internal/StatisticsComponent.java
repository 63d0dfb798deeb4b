package io.heliograph.stats.internal;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.BoundService;
import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.MetricSource;
import io.heliograph.core.PeriodicTask;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.SwitchService;
import io.heliograph.core.WorkerThreads;
import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;
import io.heliograph.stats.SwitchStatistics;
import io.heliograph.stats.TrafficMatrix;

/**
 * Wires {@link StatisticsCollector} into the controller: polls on a scheduler thread of its own every
 * {@code intervalMs} (changed live), configured by pid {@value #PID}. Uses the topology's edge ports
 * for the traffic matrix while the topology app runs. Its metrics: the statistics requests switches
 * did not answer, and the switches asked less often because of that, by kind.
 */
@Component(service = {StatisticsService.class, MetricSource.class}, configurationPid = StatisticsComponent.PID)
@Designate(ocd = StatisticsConfig.class)
public final class StatisticsComponent implements StatisticsService, MetricSource {

    public static final String PID = "io.heliograph.stats";

    private static final Logger LOG = LoggerFactory.getLogger(StatisticsComponent.class);

    private final ScheduledExecutorService scheduler = WorkerThreads.single("heliograph-stats");
    private final StatisticsCollector collector;
    private final PeriodicTask polling;
    private final BoundService<EdgePorts> edgePorts = new BoundService<>();

    @Activate
    public StatisticsComponent(@Reference SwitchService switches, StatisticsConfig config) {
        collector = new StatisticsCollector(switches, scheduler, StatsClock.SYSTEM, this::currentEdgePorts,
                ConfiguredSettings.orPrevious(LOG, PID, StatsSettings.DEFAULTS, () -> settings(config)));
        collector.portMetrics(config.portMetrics());
        polling = new PeriodicTask(scheduler, "statistics round", collector::poll);
        schedule();
        LOG.info("statistics active ({})", collector.settings());
    }

    @Reference(name = "edgePorts", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void bindEdgePorts(EdgePorts service) {
        edgePorts.bind(service);
    }

    void unbindEdgePorts(EdgePorts service) {
        edgePorts.unbind(service);
    }

    @Modified
    void modified(StatisticsConfig config) {
        collector.portMetrics(config.portMetrics());
        StatsSettings before = collector.settings();
        StatsSettings next = ConfiguredSettings.orPrevious(LOG, PID, before, () -> settings(config));
        if (next == before) {
            return;
        }
        collector.configure(next);
        if (next.intervalMs() != before.intervalMs()) {
            schedule();
        }
        LOG.info("statistics reconfigured ({})", collector.settings());
    }

    @Deactivate
    void deactivate() {
        scheduler.shutdownNow();
        LOG.info("statistics stopped");
    }

    private void schedule() {
        polling.every(collector.settings().intervalMs(), 0);
    }

    private Predicate<SwitchPort> currentEdgePorts() {
        EdgePorts edges = edgePorts.get();
        return edges == null ? null : edges.current();
    }

    private static StatsSettings settings(StatisticsConfig config) {
        return new StatsSettings(config.intervalMs(), config.historySize(), config.timeoutMs(), config.backoffMaxMs());
    }

    StatsSettings settings() {
        return collector.settings();
    }

    @Override
    public PortRate getPortRate(SwitchPort port) {
        return collector.getPortRate(port);
    }

    @Override
    public List<PortRate> getPortRateHistory(SwitchPort port) {
        return collector.getPortRateHistory(port);
    }

    @Override
    public List<PortRate> getPortRates(DatapathId dpid) {
        return collector.getPortRates(dpid);
    }

    @Override
    public List<FlowRate> getFlowRates(DatapathId dpid) {
        return collector.getFlowRates(dpid);
    }

    @Override
    public List<FlowRate> getFlowRateHistory(DatapathId dpid, FlowKey flow) {
        return collector.getFlowRateHistory(dpid, flow);
    }

    @Override
    public SwitchStatistics getSwitchStatistics(DatapathId dpid) {
        return collector.getSwitchStatistics(dpid);
    }

    @Override
    public TrafficMatrix getTrafficMatrix() {
        return collector.getTrafficMatrix();
    }

    @Override
    public List<Sample> samples() {
        return collector.samples();
    }
}
