package io.heliograph.vdn.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** The optimisers' test problems: the thesis's worked example (Fig 4.9) and small random four-tier ones. */
final class OptimiserFixtures {

    static final VideoObject V1_200 = new VideoObject("V1", 200);
    static final VideoObject V1_800 = new VideoObject("V1", 800);
    static final VideoObject V2_300 = new VideoObject("V2", 300);
    static final VideoObject V2_900 = new VideoObject("V2", 900, 100);
    /** Service worth 500 a request of priority 1; cost counted at a tenth of cost × kbit/s. */
    static final Weights FIG_4_9_WEIGHTS = new Weights(500, 0.1);

    private OptimiserFixtures() {
    }

    /**
     * Fig 4.9's structure: source S feeds reflectors X (cheap) and Y; Y reaches edge A only over YA,
     * cost 10; X reaches edges B and C. Groups G1 (edges A, B) and G2 (edges A, C) can share one copy
     * through A, or get one copy each through B and C; G3 hangs off A alone. All links carry 10 Mbit/s.
     */
    static Topology fig49() {
        return Topology.builder()
                .node("S", Tier.SOURCE, 0, 0)
                .node("X", Tier.REFLECTOR, -1, 1)
                .node("Y", Tier.REFLECTOR, 1, 1)
                .node("A", Tier.EDGE, 0, 2)
                .node("B", Tier.EDGE, -2, 2)
                .node("C", Tier.EDGE, 2, 2)
                .node("G1", Tier.CLIENT_GROUP, -1, 3)
                .node("G2", Tier.CLIENT_GROUP, 1, 3)
                .node("G3", Tier.CLIENT_GROUP, 0, 3)
                .link("S", "X", 10_000, 1)
                .link("S", "Y", 10_000, 1)
                .link("X", "B", 10_000, 1)
                .link("X", "C", 10_000, 1)
                .link("Y", "A", 10_000, 10)
                .link("A", "G1", 10_000, 0)
                .link("B", "G1", 10_000, 0)
                .link("A", "G2", 10_000, 0)
                .link("C", "G2", 10_000, 0)
                .link("A", "G3", 10_000, 0)
                .build();
    }

    /** G1 and G2 ask for V1 at 800 kbit/s; with {@code premium}, G3 asks for (V2, 900) at priority 100. */
    static Problem fig49Problem(boolean premium) {
        List<Request> requests = new ArrayList<>(List.of(new Request("G1", V1_800, 10), new Request("G2", V1_800, 10)));
        if (premium) {
            requests.add(new Request("G3", V2_900, 1));
        }
        return new Problem(fig49(), requests, FIG_4_9_WEIGHTS);
    }

    /**
     * A random four-tier problem: {@code sources}, {@code reflectors}, {@code edges} and {@code groups}
     * nodes, each reflector fed by every source, each edge by 2 reflectors, each group by 2 edges; link
     * capacities of 1 to 3 Mbit/s (so not everything fits), costs 1 to 5 (groups' links 0 to 2); each
     * group asks for a few of {@code videos} videos at one of {400, 1000, 2000} kbit/s, priority 1 or 3.
     */
    static Problem random(long seed, int sources, int reflectors, int edges, int groups, int videos,
            int requestsPerGroup) {
        SplittableRandom random = new SplittableRandom(seed);
        Topology.Builder builder = Topology.builder();
        for (int i = 0; i < sources; i++) {
            builder.node("s" + i, Tier.SOURCE, random.nextDouble(), random.nextDouble());
        }
        for (int i = 0; i < reflectors; i++) {
            builder.node("r" + i, Tier.REFLECTOR, random.nextDouble(), random.nextDouble());
        }
        for (int i = 0; i < edges; i++) {
            builder.node("e" + i, Tier.EDGE, random.nextDouble(), random.nextDouble());
        }
        for (int i = 0; i < groups; i++) {
            builder.node("g" + i, Tier.CLIENT_GROUP, random.nextDouble(), random.nextDouble());
        }
        for (int r = 0; r < reflectors; r++) {
            for (int s = 0; s < sources; s++) {
                builder.link("s" + s, "r" + r, random.nextLong(1_000, 3_001), random.nextInt(1, 6));
            }
        }
        for (int e = 0; e < edges; e++) {
            int first = random.nextInt(reflectors);
            builder.link("r" + first, "e" + e, random.nextLong(1_000, 3_001), random.nextInt(1, 6));
            int second = (first + 1 + random.nextInt(reflectors - 1)) % reflectors;
            builder.link("r" + second, "e" + e, random.nextLong(1_000, 3_001), random.nextInt(1, 6));
        }
        for (int g = 0; g < groups; g++) {
            int first = random.nextInt(edges);
            builder.link("e" + first, "g" + g, random.nextLong(1_000, 3_001), random.nextInt(0, 3));
            int second = (first + 1 + random.nextInt(edges - 1)) % edges;
            builder.link("e" + second, "g" + g, random.nextLong(1_000, 3_001), random.nextInt(0, 3));
        }
        int[] bitrates = {400, 1000, 2000};
        VideoObject[][] objects = new VideoObject[videos][bitrates.length];
        for (int v = 0; v < videos; v++) {
            for (int b = 0; b < bitrates.length; b++) {
                objects[v][b] = new VideoObject("v" + v, bitrates[b], random.nextInt(4) == 0 ? 3 : 1);
            }
        }
        List<Request> requests = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            boolean[] asked = new boolean[videos];
            for (int k = 0; k < requestsPerGroup; k++) {
                int v = random.nextInt(videos);
                if (!asked[v]) {
                    asked[v] = true;
                    requests.add(new Request("g" + g, objects[v][random.nextInt(bitrates.length)], 1));
                }
            }
        }
        // a request is worth about a path of cost 10 at 1 Mbit/s, so cost matters
        return new Problem(builder.build(), requests, new Weights(10, 0.001));
    }
}
