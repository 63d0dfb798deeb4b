package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.cluster.Mastership;

class MastershipMetricsTest {

    @Test
    void theSwitchesThisInstanceMastersAreCountedAmongTheClusters() {
        List<Mastership> masterships = List.of(
                new Mastership(DatapathId.of(1), "a", 3, Set.of("a", "b")),
                new Mastership(DatapathId.of(2), "b", 4, Set.of("a", "b")),
                new Mastership(DatapathId.of(3), "a", 5, Set.of("a")),
                new Mastership(DatapathId.of(4), null, 0, Set.of("b")));

        assertEquals(List.of("heliograph_cluster_switches 4.0", "heliograph_cluster_switches_mastered 2.0"),
                MastershipComponent.samples("a", masterships).stream().map(s -> s.name() + " " + s.value()).toList());
        assertEquals(List.of("heliograph_cluster_switches 4.0", "heliograph_cluster_switches_mastered 1.0"),
                MastershipComponent.samples("b", masterships).stream().map(s -> s.name() + " " + s.value()).toList());
    }
}
