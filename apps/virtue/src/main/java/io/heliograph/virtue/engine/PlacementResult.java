package io.heliograph.virtue.engine;

import java.util.Objects;
import java.util.Optional;

/**
 * What an algorithm produced: a placement with its predicted utilisations, or why no placement within
 * the constraints was found; from a solver (the Model) also how far from optimal it may be.
 */
public final class PlacementResult {

    /**
     * A solver's account of its search: how it ended ({@code OPTIMAL}, {@code FEASIBLE} when the time
     * limit stopped it with a placement, {@code INFEASIBLE}, {@code NOT_SOLVED} when it stopped with none),
     * the lowest Minimax it proved possible (NaN where it proved nothing) and the relative gap between the
     * placement's Minimax and that bound (0 when proven optimal; NaN without a placement).
     */
    public record Bound(String status, double minimax, double gap) {
    }

    private final String algorithm;
    private final Placement placement;
    private final Utilisations predicted;
    private final String infeasibility;
    private final Bound bound;

    private PlacementResult(String algorithm, Placement placement, Utilisations predicted, String infeasibility,
            Bound bound) {
        this.algorithm = algorithm;
        this.placement = placement;
        this.predicted = predicted;
        this.infeasibility = infeasibility;
        this.bound = bound;
    }

    static PlacementResult placed(PlacementAlgorithm algorithm, PlacementProblem problem, int[] pmOf) {
        Placement placement = new Placement(problem, pmOf);
        return new PlacementResult(algorithm.name(), placement,
                Utilisations.estimate(placement, problem, algorithm.energy()), null, null);
    }

    static PlacementResult infeasible(PlacementAlgorithm algorithm, String why) {
        return new PlacementResult(algorithm.name(), null, null, Objects.requireNonNull(why), null);
    }

    /** This result with a solver's bound attached. */
    PlacementResult withBound(Bound bound) {
        return new PlacementResult(algorithm, placement, predicted, infeasibility, Objects.requireNonNull(bound));
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

    /** A solver's status, bound and gap; empty for the heuristics, which prove nothing. */
    public Optional<Bound> bound() {
        return Optional.ofNullable(bound);
    }

    @Override
    public String toString() {
        String proof = bound == null ? "" : " (" + bound + ")";
        return (feasible() ? algorithm + ": minimax " + predicted.minimax() + " at " + predicted.hottest()
                : algorithm + ": infeasible, " + infeasibility) + proof;
    }
}
