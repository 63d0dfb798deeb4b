package io.heliograph.topology.internal;

import java.util.List;
import java.util.Map;

import io.heliograph.core.MetricSource.Sample;
import io.heliograph.core.MetricSource.Type;
import io.heliograph.topology.Topology;

/** The topology's size as metrics, read from one published snapshot (so the figures agree with each other). */
final class TopologyMetrics {

    private TopologyMetrics() {
    }

    static List<Sample> samples(Topology topology) {
        int oneWay = topology.unidirectionalLinks().size();
        String links = "Directed links LLDP discovered (a cable seen both ways is two), by whether the reverse "
                + "direction is seen too";
        return List.of(
                new Sample("heliograph_topology_links", Type.GAUGE, links, Map.of("direction", "bidirectional"),
                        topology.links().size() - oneWay),
                new Sample("heliograph_topology_links", Type.GAUGE, links, Map.of("direction", "unidirectional"),
                        oneWay),
                new Sample("heliograph_topology_switches", Type.GAUGE, "Switches in the topology", Map.of(),
                        topology.switches().size()),
                new Sample("heliograph_topology_islands", Type.GAUGE,
                        "Islands: sets of switches joined by links seen both ways (a lone switch is one)", Map.of(),
                        topology.islands().size()));
    }
}
