package io.heliograph.virtue.engine;

import io.heliograph.solver.SolverService;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The thesis's algorithms by the name an EDF's {@code OPTIMIZER} parameter carries. The Model
 * ({@value Model#NAME}) needs a solver, so it is found only with one ({@link #byName(String, SolverService)}).
 */
public final class Algorithms {

    private static final Map<String, PlacementAlgorithm> BY_NAME = new LinkedHashMap<>();

    static {
        for (PlacementAlgorithm algorithm : List.of(new RandomPlacement(),
                new SimulatedAnnealing(Energy.CPU), new SimulatedAnnealing(Energy.CPU_NIC),
                new SimulatedAnnealing(Energy.CPU_NIC_TRAFFIC), new SimulatedAnnealing(Energy.ALL),
                new GreedyNet(), new GreedyFill())) {
            BY_NAME.put(algorithm.name(), algorithm);
        }
    }

    private Algorithms() {
    }

    /** Random, SA C, SA CN, SA CNTM, SA All, Greedy Net, Greedy Fill, in the thesis's order. */
    public static List<PlacementAlgorithm> all() {
        return List.copyOf(BY_NAME.values());
    }

    public static Optional<PlacementAlgorithm> byName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** As {@link #byName(String)}, and {@value Model#NAME}: the {@link Model} on {@code solver}, with its defaults. */
    public static Optional<PlacementAlgorithm> byName(String name, SolverService solver) {
        return Model.NAME.equals(name) ? Optional.of(new Model(solver)) : byName(name);
    }
}
