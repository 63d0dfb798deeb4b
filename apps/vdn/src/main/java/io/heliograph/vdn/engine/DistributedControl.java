package io.heliograph.vdn.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

import io.heliograph.vdn.engine.Advertisement.Distance;

/**
 * Algorithm 1 of §4.4, a local agent's decision for a request without a usable central entry: among
 * the parents at the least distance to a cluster subscribed to the object, those whose path capacity
 * exceeds the object's bitrate are useful; the request is denied when none is (a client is then served
 * by another edge cluster), and otherwise goes to one of them at random, which spreads the load after
 * a failure. A parent that is not subscribed repeats the algorithm itself, up to a subscribed cluster
 * or a source.
 *
 * <p>As the thesis writes it, the least distance is over every parent, useful or not: a nearer parent
 * without capacity hides a farther one with it. Thread-safe as far as the random generator is.
 */
public final class DistributedControl {

    private final RandomGenerator random;

    /** Decisions breaking ties with {@code random} (seeded in tests and the simulator). */
    public DistributedControl(RandomGenerator random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /** The parent to forward a request for object {@code key} to, from this cluster's distance vector; empty: deny. */
    public Optional<String> nextHop(DistanceVector vector, String key) {
        return nextHop(vector.routes(key), Advertisement.bitrateKbps(key));
    }

    /** Algorithm 1 over the distances through each parent, for an object of {@code bitrateKbps}; empty: deny. */
    public Optional<String> nextHop(Map<String, Distance> viaParent, int bitrateKbps) {
        int least = Integer.MAX_VALUE;
        for (Distance d : viaParent.values()) {
            least = Math.min(least, d.hops());
        }
        List<String> useful = new ArrayList<>();
        for (Map.Entry<String, Distance> parent : new TreeMap<>(viaParent).entrySet()) {
            if (parent.getValue().hops() == least && parent.getValue().capacityKbps() > bitrateKbps) {
                useful.add(parent.getKey());
            }
        }
        if (useful.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(useful.size() == 1 ? useful.get(0) : useful.get(random.nextInt(useful.size())));
    }
}
