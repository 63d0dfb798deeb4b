package io.heliograph.sims.vdn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.sims.kit.Solvers;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TreeOptimiser;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The direction test, on the real VDN optimiser: in Heavy-Tail VDN's mean bitrate is at least
 * CDN's and OM's; in Average Day VDN's cost per satisfied request is below CDN's.
 */
class VdnDirectionTest {

    private static Experiments experiments() throws Exception {
        TreeOptimiser vdn = VdnOptimisers.central(Solvers.find(), Duration.ofSeconds(5));
        return new Experiments(new Experiments.Scale(0.1, 1, 1), Optional.of(vdn), line -> { });
    }

    private static List<Simulator.Metrics> compare(Experiments experiments, Traces.Spec spec) {
        Trace trace = experiments.trace(spec);
        Topology topology = experiments.topology(trace, HoseTopology.Shape.thesis());
        return experiments.compare(trace, topology);
    }

    private static Simulator.Metrics of(List<Simulator.Metrics> results, String name) {
        return VdnSim.find(results, name).orElseThrow();
    }

    @Test
    void vdnGivesHeavyTailAtLeastCdnsAndOmsBitrate() throws Exception {
        List<Simulator.Metrics> results = compare(experiments(), Traces.heavyTail());
        double vdn = of(results, "VDN").averageKbps();
        assertTrue(vdn >= of(results, "CDN").averageKbps(), results.toString());
        assertTrue(vdn >= of(results, "OM").averageKbps(), results.toString());
    }

    @Test
    void vdnServesAverageDayCheaperThanCdn() throws Exception {
        List<Simulator.Metrics> results = compare(experiments(), Traces.averageDay());
        assertTrue(of(results, "VDN").costPerSatisfied() < of(results, "CDN").costPerSatisfied(), results.toString());
    }
}
