package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TreeOptimiser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The runs of §4.7's experiments: a trace, a topology and the knobs, each system measured on the same
 * windows. VDN (and OM, which runs VDN's optimiser per channel) need the optimiser; without it only EE,
 * CDN and CDN-1 run.
 */
final class Experiments {

    /** The test suite's scale: a tenth of each trace (cities and groups too), on the thesis's topology. */
    static final double SHORT_FACTOR = 0.1;
    static final int SHORT_WINDOWS = 2;
    static final int DEFAULT_WINDOWS = 10;

    /** How big the runs are: the trace's share, the windows run (0: all), the seed of trace and topology. */
    record Scale(double factor, int windows, long seed) {

        static Scale full(int windows, long seed) {
            return new Scale(1, windows, seed);
        }

        static Scale quick(long seed) {
            return new Scale(SHORT_FACTOR, SHORT_WINDOWS, seed);
        }

        boolean reduced() {
            return factor < 1;
        }
    }

    private final Scale scale;
    private final Optional<TreeOptimiser> vdn;
    private final Consumer<String> progress;

    Experiments(Scale scale, Optional<TreeOptimiser> vdn, Consumer<String> progress) {
        this.scale = scale;
        this.vdn = vdn;
        this.progress = progress;
    }

    Scale scale() {
        return scale;
    }

    boolean hasVdn() {
        return vdn.isPresent();
    }

    /** The trace of a spec at this scale. */
    Trace trace(Traces.Spec spec) {
        Traces.Spec sized = scale.reduced() ? spec.scaled(scale.factor(), true) : spec;
        progress.accept("drawing " + sized.name() + ": " + sized.requests() + " requests, " + sized.videos() + " videos");
        return Traces.generate(sized, scale.seed());
    }

    Topology topology(Trace trace, HoseTopology.Shape shape) {
        return HoseTopology.build(trace, shape, scale.seed());
    }

    /** EE, OM, CDN, CDN-1 and VDN, those that can run; a fresh CDN cache each call. */
    List<Strategy> strategies() {
        List<Strategy> strategies = new ArrayList<>();
        strategies.add(Strategy.of(new EverythingEverywhere()));
        vdn.ifPresent(optimiser -> strategies.add(Strategy.of(new OverlayMulticast(optimiser))));
        strategies.add(DnsCdn.cdn());
        strategies.add(DnsCdn.cdn1());
        vdn.ifPresent(optimiser -> strategies.add(Strategy.of("VDN", optimiser)));
        return strategies;
    }

    Optional<Strategy> vdnStrategy() {
        return vdn.map(optimiser -> Strategy.of("VDN", optimiser));
    }

    /** Every strategy on the trace and topology, balanced priorities, cost weight 1. */
    List<Simulator.Metrics> compare(Trace trace, Topology topology) {
        return compare(trace, topology, strategies(), Priorities.BALANCED, 1);
    }

    List<Simulator.Metrics> compare(Trace trace, Topology topology, List<Strategy> strategies, Priorities priorities,
            double costWeight) {
        Simulator.Setup setup = new Simulator.Setup(trace, topology, priorities, costWeight, scale.windows());
        List<Simulator.Metrics> results = new ArrayList<>();
        for (Strategy strategy : strategies) {
            results.add(Simulator.run(setup, strategy, line -> progress.accept(trace.name() + " " + line)));
        }
        return results;
    }
}
