package io.heliograph.vdn;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import io.heliograph.solver.SolverService;
import io.heliograph.solver.internal.Standalone;
import io.heliograph.vdn.engine.CentralOptimiser;
import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.GreedyTrees;
import io.heliograph.vdn.engine.Node;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.VideoObject;
import io.heliograph.vdn.engine.Weights;

/**
 * VDN's decision time (issue 24; spec §4.5 "making it fast", §4.7 "Scalability"): the central optimiser
 * on one 1-minute window of a Heavy-Tail-like workload on §4.7's hose topology, for N = 1,000, 2,000,
 * 5,000 and 10,000 videos, at its defaults (60 s, 1 % gap, 2 workers). Prints per N the window's size,
 * the greedy warm start's time and objective, and the optimiser's time, objective, proven bound and gap.
 * The thesis: under 60 s up to 6,000 videos and ~190 s at 10,000 with Gurobi on 32 cores.
 *
 * <p>The topology (§4.7): 4 sources, each with 100 Mbit/s links to all 10 reflectors; each reflector with
 * 100 Mbit/s links to 30 of the 100 edges (each edge gets 3 reflectors); {@link #GROUPS} client groups at
 * random points, each linked to its 3 nearest edges at 150 Mbit/s. Costs: source-reflector and
 * reflector-edge normal (mean 30, sd 10) clipped to 10..50; edge-group 0 for half of them, else 1..5.
 *
 * <p>The window (§4.7's Heavy-Tail synthesis): 240,000 requests an hour over 10,000 videos is 4,000 a
 * minute, scaled by N / 10,000; each picks a video by Zipf (s = 0.89) over N, a bitrate from {400, 1000,
 * 4500, 30000} kbit/s with P = 0.275, 0.275, 0.275, 0.174, and a client group uniformly; requests of one
 * group for one object are one request with their clients counted. Priority 1 for all (the thesis's
 * "balanced" scheme); weights w_s = 1, w_c = 1e-7 per (cost x kbit/s), so a request is worth more than
 * its cheapest path alone (at most about 105 x 30,000 x 1e-7 = 0.3) and cost decides between trees.
 *
 * <p>Run: {@code java -Xmx3g -cp benchmarks/target/benchmarks.jar io.heliograph.vdn.VdnDecisionTime [N...]}.
 */
public final class VdnDecisionTime {

    static final int GROUPS = 2_000;
    static final long SEED = 24;
    static final int[] BITRATES = {400, 1000, 4500, 30000};
    static final double[] MIX = {0.275, 0.275, 0.275, 0.174};
    static final Weights WEIGHTS = new Weights(1, 1e-7);

    private VdnDecisionTime() {
    }

    public static void main(String[] args) throws IOException {
        int[] sizes = args.length == 0 ? new int[] {1_000, 2_000, 5_000, 10_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        SolverService solver = Standalone.fromClassPath();
        Topology topology = hose(new SplittableRandom(SEED));
        System.out.println(topology + ", OR-Tools " + solver.version() + ", "
                + Runtime.getRuntime().availableProcessors() + " cores");
        // one small solve first, so class loading and the JIT are not charged to N = 1,000
        new CentralOptimiser(solver).optimise(window(topology, 100, new SplittableRandom(SEED)));
        System.out.println("videos  requests  objects  greedy_ms  greedy_objective  ip_ms  ip_objective  ip_bound"
                + "  gap  served");
        for (int videos : sizes) {
            Problem problem = window(topology, videos, new SplittableRandom(SEED + videos));
            Distribution greedy = new GreedyTrees().optimise(problem);
            Distribution central = new CentralOptimiser(solver).optimise(problem);
            check(greedy);
            check(central);
            long served = problem.requests().stream().filter(central::served).count();
            System.out.printf(Locale.ROOT, "%6d  %8d  %7d  %9d  %16.2f  %5d  %12.2f  %8.2f  %.4f  %d/%d%n", videos,
                    problem.requests().size(), problem.objects().size(), greedy.time().toMillis(),
                    greedy.objective(), central.time().toMillis(), central.objective(), central.bound(),
                    central.gap(), served, problem.requests().size());
        }
    }

    private static void check(Distribution distribution) {
        if (!distribution.violations().isEmpty()) {
            throw new IllegalStateException(distribution.method() + " is infeasible: " + distribution.violations());
        }
    }

    /** §4.7's hose topology with {@link #GROUPS} client groups. */
    static Topology hose(SplittableRandom random) {
        Topology.Builder builder = Topology.builder();
        List<Node> sources = new ArrayList<>();
        List<Node> reflectors = new ArrayList<>();
        List<Node> edges = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sources.add(new Node("source" + i, Tier.SOURCE, random.nextDouble(100), random.nextDouble(100)));
        }
        for (int i = 0; i < 10; i++) {
            reflectors.add(new Node("reflector" + i, Tier.REFLECTOR, random.nextDouble(100), random.nextDouble(100)));
        }
        for (int i = 0; i < 100; i++) {
            edges.add(new Node("edge" + i, Tier.EDGE, random.nextDouble(100), random.nextDouble(100)));
        }
        List<Node> groups = new ArrayList<>();
        for (int i = 0; i < GROUPS; i++) {
            groups.add(new Node("group" + i, Tier.CLIENT_GROUP, random.nextDouble(100), random.nextDouble(100)));
        }
        sources.forEach(builder::node);
        reflectors.forEach(builder::node);
        edges.forEach(builder::node);
        groups.forEach(builder::node);
        for (Node reflector : reflectors) {
            for (Node source : sources) {
                builder.link(source.id(), reflector.id(), 100_000, wanCost(random));
            }
        }
        // each reflector to 30 edges, each edge from 3 reflectors: consecutive runs of a shuffled order
        int[] order = shuffled(edges.size(), random);
        for (int r = 0; r < reflectors.size(); r++) {
            for (int k = 0; k < 30; k++) {
                Node edge = edges.get(order[(r * 30 + k) % edges.size()]);
                builder.link(reflectors.get(r).id(), edge.id(), 100_000, wanCost(random));
            }
        }
        for (Node group : groups) {
            List<Node> nearest = edges.stream().sorted(Comparator.comparingDouble(group::distanceTo)).limit(3).toList();
            for (Node edge : nearest) {
                double cost = random.nextBoolean() ? 0 : 1 + random.nextDouble(4);
                builder.link(edge.id(), group.id(), 150_000, cost);
            }
        }
        return builder.build();
    }

    private static double wanCost(SplittableRandom random) {
        // normal (mean 30, sd 10) by Box-Muller, clipped to 10..50
        double normal = Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
        return Math.max(10, Math.min(50, 30 + 10 * normal));
    }

    private static int[] shuffled(int n, SplittableRandom random) {
        int[] order = new int[n];
        Arrays.setAll(order, i -> i);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    /** One minute of Heavy-Tail-like requests over {@code videos} videos. */
    static Problem window(Topology topology, int videos, SplittableRandom random) {
        double[] zipf = new double[videos];
        double total = 0;
        for (int v = 0; v < videos; v++) {
            total += Math.pow(v + 1, -0.89);
            zipf[v] = total;
        }
        List<Node> groups = topology.tier(Tier.CLIENT_GROUP);
        int arrivals = (int) Math.round(4_000.0 * videos / 10_000);
        Map<String, int[]> clients = new LinkedHashMap<>();
        Map<String, VideoObject> objects = new LinkedHashMap<>();
        for (int i = 0; i < arrivals; i++) {
            int at = Arrays.binarySearch(zipf, random.nextDouble() * total);
            int video = at >= 0 ? at : Math.min(videos - 1, -at - 1);
            double u = random.nextDouble();
            int b = 0;
            while (b < BITRATES.length - 1 && u >= MIX[b]) {
                u -= MIX[b];
                b++;
            }
            int bitrate = BITRATES[b];
            VideoObject object = objects.computeIfAbsent("video" + video + "/" + bitrate,
                    k -> new VideoObject("video" + video, bitrate));
            String group = groups.get(random.nextInt(groups.size())).id();
            clients.computeIfAbsent(group + " " + object.key(), k -> new int[1])[0]++;
        }
        List<Request> requests = new ArrayList<>();
        clients.forEach((key, count) -> {
            int space = key.indexOf(' ');
            requests.add(new Request(key.substring(0, space), objects.get(key.substring(space + 1)), count[0]));
        });
        return new Problem(topology, requests, WEIGHTS);
    }
}
