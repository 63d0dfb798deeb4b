package io.heliograph.vdn.engine;

import java.time.Duration;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One decision: for each object, the links that carry it ({@code Serves_{l,o} = 1}, §4.5), which make
 * its distribution tree; a client group is served an object when a link into it carries the object.
 * With how it was found: the optimiser, the objective it reached and the best bound proven (equal for
 * a heuristic that proves nothing: NaN bound), and the time it took. Immutable.
 */
public final class Distribution {

    private final Problem problem;
    private final Map<String, BitSet> serves;
    private final String method;
    private final double bound;
    private final Duration time;

    /**
     * @param serves for each object key, the indices of the topology's links that carry it; objects
     *               not named carry nowhere
     * @param bound  the best bound proven on the objective (NaN when none)
     */
    public Distribution(Problem problem, Map<String, BitSet> serves, String method, double bound, Duration time) {
        this.problem = Objects.requireNonNull(problem, "problem");
        this.method = Objects.requireNonNull(method, "method");
        this.time = Objects.requireNonNull(time, "time");
        this.bound = bound;
        Map<String, BitSet> copy = new LinkedHashMap<>();
        int links = problem.topology().links().size();
        serves.forEach((key, set) -> {
            if (!problem.objects().containsKey(key)) {
                throw new IllegalArgumentException("the distribution carries " + key + ", which is not requested");
            }
            if (set.length() > links) {
                throw new IllegalArgumentException("the distribution carries " + key + " on link " + (set.length() - 1)
                        + " of " + links);
            }
            copy.put(key, (BitSet) set.clone());
        });
        this.serves = Collections.unmodifiableMap(copy);
    }

    public Problem problem() {
        return problem;
    }

    public String method() {
        return method;
    }

    public Duration time() {
        return time;
    }

    /** Whether a link carries an object. */
    public boolean carries(Link link, String objectKey) {
        BitSet set = serves.get(objectKey);
        return set != null && set.get(link.index());
    }

    /** The links that carry an object (a copy). */
    public BitSet links(String objectKey) {
        BitSet set = serves.get(objectKey);
        return set == null ? new BitSet() : (BitSet) set.clone();
    }

    /** Whether a request's client group receives its object. */
    public boolean served(Request request) {
        return reaches(request.clientGroup(), request.object().key());
    }

    /** Whether a node receives an object: a source always does, another node when a link into it carries it. */
    public boolean reaches(String node, String objectKey) {
        if (problem.topology().node(node).orElseThrow().tier() == Tier.SOURCE) {
            return true;
        }
        return parent(node, objectKey).isPresent();
    }

    /** The parent a node receives an object from (the first link into it carrying it), if any: its next hop. */
    public Optional<String> parent(String node, String objectKey) {
        BitSet set = serves.get(objectKey);
        if (set == null) {
            return Optional.empty();
        }
        for (Link link : problem.topology().in(node)) {
            if (set.get(link.index())) {
                return Optional.of(link.from());
            }
        }
        return Optional.empty();
    }

    /** The kbit/s each link carries, by link index. */
    public long[] loadKbps() {
        long[] load = new long[problem.topology().links().size()];
        serves.forEach((key, set) -> {
            int bitrate = problem.objects().get(key).bitrateKbps();
            set.stream().forEach(i -> load[i] += bitrate);
        });
        return load;
    }

    /** Σ priority over the requests served: the service term of the objective, before its weight. */
    public double service() {
        double service = 0;
        for (Request request : problem.requests()) {
            if (served(request)) {
                service += request.object().priority();
            }
        }
        return service;
    }

    /** Σ cost(l) · bitrate(o) over the links carrying each object: the cost term, before its weight. */
    public double cost() {
        double cost = 0;
        List<Link> links = problem.topology().links();
        for (Map.Entry<String, BitSet> entry : serves.entrySet()) {
            int bitrate = problem.objects().get(entry.getKey()).bitrateKbps();
            for (int i = entry.getValue().nextSetBit(0); i >= 0; i = entry.getValue().nextSetBit(i + 1)) {
                cost += links.get(i).cost() * bitrate;
            }
        }
        return cost;
    }

    /** {@code w_s · service − w_c · cost}, the objective of §4.5. */
    public double objective() {
        return problem.weights().service() * service() - problem.weights().cost() * cost();
    }

    /** The best bound proven on the objective; NaN for a heuristic. */
    public double bound() {
        return bound;
    }

    /** {@code |bound − objective| / max(1, |objective|)}; NaN without a bound. */
    public double gap() {
        if (Double.isNaN(bound)) {
            return Double.NaN;
        }
        double objective = objective();
        return Math.abs(bound - objective) / Math.max(1, Math.abs(objective));
    }

    /**
     * What makes this distribution infeasible (§4.5's constraints): a link over its capacity, or one
     * carrying an object its tail does not receive. Empty when feasible.
     */
    public List<String> violations() {
        List<String> problems = new java.util.ArrayList<>();
        long[] load = loadKbps();
        for (Link link : problem.topology().links()) {
            if (load[link.index()] > link.capacityKbps()) {
                problems.add("link " + link.name() + " carries " + load[link.index()] + " kbit/s over its capacity "
                        + link.capacityKbps());
            }
        }
        serves.forEach((key, set) -> set.stream().forEach(i -> {
            Link link = problem.topology().links().get(i);
            if (!reaches(link.from(), key)) {
                problems.add("link " + link.name() + " carries " + key + ", which " + link.from() + " does not receive");
            }
        }));
        return problems;
    }

    @Override
    public String toString() {
        return "Distribution(" + method + ", objective " + objective() + ", gap " + gap() + ", " + time.toMillis() + " ms)";
    }
}
