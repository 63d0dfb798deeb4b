package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.VideoObject;
import io.heliograph.vdn.engine.Weights;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a strategy over a trace's 1-minute windows (§4.7's method) and measures it. In each window the
 * requests of a client group for a video at a bitrate are one {@link Request} (one stream serves the
 * group), arriving when the first of them did. The strategy decides the window's trees; {@link Delivery}
 * says which requests get their object at its bitrate. The clients of the others re-request the next
 * lower bitrate of the ladder, and the strategy decides again for the whole window with those lowered
 * requests (a fresh decision: the served keep their bitrate, the lowered ask for less), until every
 * request is served or at the lowest rung (at most ladder + 1 decisions a window). A request still not
 * served gets nothing.
 */
public final class Simulator {

    /** A run: the trace, the topology, the knobs, and how many of the trace's windows (0: all). */
    public record Setup(Trace trace, Topology topology, Priorities priorities, double costWeight, int windows) {

        public Weights weights() {
            return Priorities.weights(costWeight, topology, trace.ladderKbps());
        }
    }

    /**
     * A strategy's figures, each per window and averaged over the windows, except cost per satisfied
     * request: the windows' cost over the windows' satisfied requests (a window serving none would
     * otherwise make it infinite).
     *
     * @param averageKbps      the clients' mean bitrate (0 for a client served nothing)
     * @param atRequested      the share of clients served at the bitrate they requested
     * @param costPerSatisfied Σ link cost × kbit/s carried over the clients served at their requested bitrate
     * @param decisionSeconds  the strategy's time to decide a window's requests (its first decision; the
     *                         later ones only model the clients' re-requests)
     * @param gap              the optimiser's gap on a window's first decision (NaN: a heuristic)
     * @param requestedKbps    the clients' mean requested bitrate
     * @param bound            §4.7's naive upper bound on {@code atRequested}, from each tier's aggregate
     *                         capacity (see {@link #bound})
     */
    public record Metrics(String strategy, int windows, double averageKbps, double atRequested,
            double costPerSatisfied, double decisionSeconds, double maxDecisionSeconds, double gap,
            double requestedKbps, double bound) {
    }

    /** One window's requests: a group asking for a video at a bitrate. */
    private record Demand(String group, String video, int requestedKbps, long clients, double arrival) {
    }

    private Simulator() {
    }

    public static Metrics run(Setup setup, Strategy strategy, Consumer<String> progress) {
        List<List<Trace.Arrival>> windows = setup.trace().windows();
        int count = setup.windows() > 0 ? Math.min(setup.windows(), windows.size()) : windows.size();
        Weights weights = setup.weights();
        double bitrate = 0;
        double atRequested = 0;
        double cost = 0;
        double satisfied = 0;
        double seconds = 0;
        double maxSeconds = 0;
        double gap = 0;
        int gaps = 0;
        double requested = 0;
        double bound = 0;
        int measured = 0;
        for (int w = 0; w < count; w++) {
            List<Demand> demands = demands(setup.trace(), windows.get(w));
            if (demands.isEmpty()) {
                continue;
            }
            progress.accept(strategy.name() + ": window " + (w + 1) + " of " + count + ", " + demands.size() + " requests");
            Outcome outcome = window(setup, weights, strategy, demands);
            measured++;
            bitrate += outcome.averageKbps;
            atRequested += outcome.atRequested;
            cost += outcome.cost;
            satisfied += outcome.satisfied;
            seconds += outcome.seconds;
            maxSeconds = Math.max(maxSeconds, outcome.seconds);
            if (!Double.isNaN(outcome.gap)) {
                gap += outcome.gap;
                gaps++;
            }
            requested += outcome.requestedKbps;
            bound += outcome.bound;
        }
        int n = Math.max(1, measured);
        return new Metrics(strategy.name(), measured, bitrate / n, atRequested / n,
                satisfied == 0 ? Double.POSITIVE_INFINITY : cost / satisfied, seconds / n, maxSeconds,
                gaps == 0 ? Double.NaN : gap / gaps, requested / n, bound / n);
    }

    private static final class Outcome {
        double averageKbps;
        double atRequested;
        double cost;
        double satisfied;
        double seconds;
        double gap = Double.NaN;
        double requestedKbps;
        double bound;
    }

    /** The window's requests, aggregated per (group, video, bitrate), in order of first arrival. */
    private static List<Demand> demands(Trace trace, List<Trace.Arrival> arrivals) {
        Map<String, Demand> byKey = new LinkedHashMap<>();
        for (Trace.Arrival arrival : arrivals) {
            String group = trace.groups().get(arrival.group()).id();
            byKey.merge(group + " " + arrival.video() + "/" + arrival.bitrateKbps(),
                    new Demand(group, arrival.video(), arrival.bitrateKbps(), arrival.clients(), arrival.seconds()),
                    (a, b) -> new Demand(a.group(), a.video(), a.requestedKbps(), a.clients() + b.clients(),
                            Math.min(a.arrival(), b.arrival())));
        }
        List<Demand> demands = new ArrayList<>(byKey.values());
        demands.sort((a, b) -> Double.compare(a.arrival(), b.arrival()));
        return demands;
    }

    private static Outcome window(Setup setup, Weights weights, Strategy strategy, List<Demand> demands) {
        Trace trace = setup.trace();
        int[] target = new int[demands.size()];
        for (int i = 0; i < target.length; i++) {
            target[i] = demands.get(i).requestedKbps();
        }
        Outcome outcome = new Outcome();
        boolean[] served = new boolean[demands.size()];
        int rounds = trace.ladderKbps().length + 1;
        Delivery delivery = null;
        for (int round = 0; round < rounds; round++) {
            Map<String, Integer> requestIndex = new HashMap<>();
            Map<String, long[]> clients = new LinkedHashMap<>();
            Map<String, Double> arrival = new HashMap<>();
            String[] keyOf = new String[demands.size()];
            for (int i = 0; i < demands.size(); i++) {
                if (target[i] == 0) {
                    continue;
                }
                Demand demand = demands.get(i);
                keyOf[i] = demand.group() + " " + demand.video() + "/" + target[i];
                clients.computeIfAbsent(keyOf[i], k -> new long[1])[0] += demand.clients();
                arrival.merge(keyOf[i], demand.arrival(), Math::min);
            }
            if (clients.isEmpty()) {
                delivery = null;
                break;
            }
            List<Request> requests = new ArrayList<>();
            double[] arrivals = new double[clients.size()];
            for (Map.Entry<String, long[]> entry : clients.entrySet()) {
                String key = entry.getKey();
                int space = key.indexOf(' ');
                int slash = key.lastIndexOf('/');
                int kbps = Integer.parseInt(key.substring(slash + 1));
                VideoObject object = new VideoObject(key.substring(space + 1, slash), kbps,
                        setup.priorities().priority(kbps, trace.ladderKbps()));
                arrivals[requests.size()] = arrival.get(key);
                requestIndex.put(key, requests.size());
                requests.add(new Request(key.substring(0, space), object, (int) Math.min(Integer.MAX_VALUE, entry.getValue()[0])));
            }
            Problem problem = new Problem(setup.topology(), requests, weights);
            Distribution distribution = strategy.decide(problem, arrivals);
            if (round == 0) {
                outcome.seconds = distribution.time().toNanos() / 1e9;
                outcome.gap = distribution.gap();
            }
            delivery = new Delivery(distribution);
            boolean lowered = false;
            for (int i = 0; i < demands.size(); i++) {
                if (target[i] == 0) {
                    served[i] = false;
                    continue;
                }
                served[i] = delivery.served(requests.get(requestIndex.get(keyOf[i])));
                if (!served[i] && round < rounds - 1) {
                    target[i] = trace.below(target[i]);
                    lowered = true;
                }
            }
            if (!lowered) {
                break;
            }
        }
        long total = 0;
        double kbps = 0;
        double requested = 0;
        long atRequested = 0;
        for (int i = 0; i < demands.size(); i++) {
            Demand demand = demands.get(i);
            total += demand.clients();
            requested += (double) demand.clients() * demand.requestedKbps();
            if (served[i]) {
                kbps += (double) demand.clients() * target[i];
                if (target[i] == demand.requestedKbps()) {
                    atRequested += demand.clients();
                }
            }
        }
        outcome.averageKbps = kbps / total;
        outcome.atRequested = (double) atRequested / total;
        outcome.satisfied = atRequested;
        outcome.cost = delivery == null ? 0 : delivery.cost();
        outcome.requestedKbps = requested / total;
        outcome.bound = bound(setup.topology(), demands);
        return outcome;
    }

    /**
     * §4.7's naive upper bound on the share of clients at their requested bitrate, from each tier's
     * aggregate capacity: every object served crosses the source and the reflector tiers at least once,
     * and every (group, object) served has its own edge-to-group stream, so no tier can serve more
     * clients than the best fractional filling of its capacity with those streams (most clients per
     * kbit/s first).
     */
    static double bound(Topology topology, List<Demand> demands) {
        Map<String, long[]> objects = new HashMap<>();
        List<long[]> groupStreams = new ArrayList<>();
        long clients = 0;
        for (Demand demand : demands) {
            long[] object = objects.computeIfAbsent(demand.video() + "/" + demand.requestedKbps(),
                    k -> new long[] {demand.requestedKbps(), 0});
            object[1] += demand.clients();
            groupStreams.add(new long[] {demand.requestedKbps(), demand.clients()});
            clients += demand.clients();
        }
        double upper = Math.min(filling(new ArrayList<>(objects.values()),
                Math.min(capacity(topology, Tier.SOURCE), capacity(topology, Tier.REFLECTOR))),
                filling(groupStreams, capacity(topology, Tier.EDGE)));
        return Math.min(1, upper / clients);
    }

    /** The most clients {@code capacity} carries of streams {kbit/s, clients}, a stream divisible. */
    private static double filling(List<long[]> streams, double capacity) {
        streams.sort((a, b) -> Double.compare((double) b[1] / b[0], (double) a[1] / a[0]));
        double clients = 0;
        double left = capacity;
        for (long[] stream : streams) {
            if (stream[0] <= left) {
                clients += stream[1];
                left -= stream[0];
            } else {
                clients += stream[1] * left / stream[0];
                break;
            }
        }
        return clients;
    }

    private static double capacity(Topology topology, Tier from) {
        double sum = 0;
        for (var node : topology.tier(from)) {
            for (Link link : topology.out(node.id())) {
                sum += link.capacityKbps();
            }
        }
        return sum;
    }
}
