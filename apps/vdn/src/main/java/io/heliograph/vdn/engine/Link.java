package io.heliograph.vdn.engine;

import java.util.Objects;

/**
 * A directed overlay link from one tier to the next, with the capacity available to video on it
 * (kbit/s) and the relative price of sending a kbit/s over it for a decision's period (§4.5). Its
 * {@code index} is its position in {@link Topology#links()}.
 */
public record Link(int index, String from, String to, long capacityKbps, double cost) {

    public Link {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (capacityKbps < 0) {
            throw new IllegalArgumentException("link " + from + "->" + to + ": capacity " + capacityKbps + " kbit/s is negative");
        }
        if (!Double.isFinite(cost) || cost < 0) {
            throw new IllegalArgumentException("link " + from + "->" + to + ": cost " + cost + " is not a finite, non-negative number");
        }
    }

    /** {@code from->to}, the name links go by in evidence and in REST. */
    public String name() {
        return from + "->" + to;
    }
}
