package io.heliograph.vdn.engine;

/**
 * The operator's weights of the objective (§4.5): service (priority of each request served) against
 * cost (price times bits moved). Both non-negative, not both zero.
 */
public record Weights(double service, double cost) {

    public static final Weights DEFAULT = new Weights(1, 1);

    public Weights {
        if (!Double.isFinite(service) || service < 0 || !Double.isFinite(cost) || cost < 0) {
            throw new IllegalArgumentException("weights: service " + service + " and cost " + cost
                    + " must be finite and non-negative");
        }
        if (service == 0 && cost == 0) {
            throw new IllegalArgumentException("weights: service and cost are both 0, so nothing is worth doing");
        }
    }
}
