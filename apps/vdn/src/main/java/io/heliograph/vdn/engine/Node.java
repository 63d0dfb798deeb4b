package io.heliograph.vdn.engine;

import java.util.Objects;

/**
 * A CDN cluster (source, reflector, edge) or a client group, with a position on the plane: the
 * thesis's anonymised cities get random grid coordinates, used for "nearest" and "close" (§4.7).
 */
public record Node(String id, Tier tier, double x, double y) {

    public Node {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tier, "tier");
        if (id.isBlank()) {
            throw new IllegalArgumentException("a node's id is blank");
        }
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            throw new IllegalArgumentException("node " + id + ": coordinates (" + x + ", " + y + ") are not finite");
        }
    }

    public double distanceTo(Node other) {
        return Math.hypot(x - other.x, y - other.y);
    }
}
