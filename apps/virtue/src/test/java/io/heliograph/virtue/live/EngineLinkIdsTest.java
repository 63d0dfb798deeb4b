package io.heliograph.virtue.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.Energy;
import io.heliograph.virtue.engine.Measurements;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.Utilisations;

/**
 * The live app compares the engine's predicted link utilisations with what it measured, link by link:
 * the engine must name a live EDF's links as the EDF does, VM links on real switch ports included.
 */
class EngineLinkIdsTest {

    @Test
    void predictedUtilisationsAreKeyedByTheEdfsOwnLinkIds() {
        Edf edf = VlanRoutingTest.appendixB();
        PlacementProblem problem = PlacementProblem.of(edf, Measurements.builder()
                .traffic("vm0002", "vm0003", 5e6).traffic("vm0001", "vm0002", 20e6).build());
        Utilisations predicted = Utilisations.estimate(problem.start(), problem, Energy.ALL);

        Set<String> measured = new TreeSet<>(new NetworkSampler(edf, new VlanRouting().plan(edf, "e1"))
                .sample(new NetworkSamplerTest.KnownRates()).links().stream().map(NetworkSample.LinkRate::id).toList());
        assertEquals(measured, new TreeSet<>(predicted.links().keySet()));
        assertEquals(0.1, predicted.links().get("vm0001:0->01:00:00:00:00:00:00:01:2"), 1e-12);

        // a moved VM keeps its ports: the optimised EDF's links are those the estimate names
        Edf moved = problem.edfOf(problem.placement(Map.of("vm0001", "host0002", "vm0002", "host0001",
                "vm0003", "host0002")), Map.of());
        Set<String> movedIds = new TreeSet<>(moved.links().stream().map(Edf.Link::id).toList());
        PlacementProblem after = PlacementProblem.of(moved, Measurements.builder().build());
        assertEquals(movedIds, new TreeSet<>(Utilisations.estimate(after.start(), after, Energy.ALL).links().keySet()));
    }
}
