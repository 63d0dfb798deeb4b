package io.heliograph.virtue.engine;

import java.util.Objects;
import java.util.Optional;

/**
 * What an algorithm produced: a placement with its predicted utilisations, or why no placement within
 * the constraints was found.
 */
public final class PlacementResult {

    private final String algorithm;
    private final Placement placement;
    private final Utilisations predicted;
    private final String infeasibility;

    private PlacementResult(String algorithm, Placement placement, Utilisations predicted, String infeasibility) {
        this.algorithm = algorithm;
        this.placement = placement;
        this.predicted = predicted;
        this.infeasibility = infeasibility;
    }

    static PlacementResult placed(PlacementAlgorithm algorithm, PlacementProblem problem, int[] pmOf) {
        Placement placement = new Placement(problem, pmOf);
        return new PlacementResult(algorithm.name(), placement,
                Utilisations.estimate(placement, problem, algorithm.energy()), null);
    }

    static PlacementResult infeasible(PlacementAlgorithm algorithm, String why) {
        return new PlacementResult(algorithm.name(), null, null, Objects.requireNonNull(why));
    }

    public String algorithm() {
        return algorithm;
    }

    public boolean feasible() {
        return placement != null;
    }

    /** The new placement; empty when infeasible. */
    public Optional<Placement> placement() {
        return Optional.ofNullable(placement);
    }

    /** The utilisations the new placement is predicted to cause; empty when infeasible. */
    public Optional<Utilisations> predicted() {
        return Optional.ofNullable(predicted);
    }

    /** Why no placement was returned; empty when one was. */
    public Optional<String> infeasibility() {
        return Optional.ofNullable(infeasibility);
    }

    @Override
    public String toString() {
        return feasible() ? algorithm + ": minimax " + predicted.minimax() + " at " + predicted.hottest()
                : algorithm + ": infeasible, " + infeasibility;
    }
}
