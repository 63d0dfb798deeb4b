package io.heliograph.topology.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.heliograph.core.MetricSource.Sample;

class TopologyMetricsTest {

    @Test
    void linksAreCountedByDirectionWithTheSwitchesAndIslandsOfTheSameSnapshot() {
        // a ring of three, a one-way link from 3 to a lone switch 9, and a lone switch 7
        TopologyGraph graph = Graphs.ring(3).oneWay(3, 5, 9, 1).switches(7).build();

        Map<String, Double> samples = TopologyMetrics.samples(graph).stream().collect(Collectors.toMap(
                s -> s.name() + s.labels().getOrDefault("direction", ""), Sample::value));

        assertEquals(Map.of("heliograph_topology_linksbidirectional", 6.0,
                "heliograph_topology_linksunidirectional", 1.0,
                "heliograph_topology_switches", 5.0,
                "heliograph_topology_islands", 3.0), samples);
    }
}
