package io.heliograph.stats.internal;

import java.util.function.Predicate;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyService;

/** Edge ports from the topology service: every port that no discovered link starts or ends at. */
@Component(service = EdgePorts.class)
public final class TopologyEdgePorts implements EdgePorts {

    private final TopologyService topology;
    private Topology lastTopology;
    private Predicate<SwitchPort> lastPredicate;

    @Activate
    public TopologyEdgePorts(@Reference TopologyService topology) {
        this.topology = topology;
    }

    @Override
    public synchronized Predicate<SwitchPort> current() {
        Topology now = topology.getTopology();
        if (now != lastTopology) {
            lastTopology = now;
            lastPredicate = port -> !now.isInterSwitchPort(port);
        }
        return lastPredicate;
    }
}
