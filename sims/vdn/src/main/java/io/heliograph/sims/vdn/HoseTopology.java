package io.heliograph.sims.vdn;

import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The thesis's CDN topology (§4.7), drawn from a seed for a trace: sources and reflectors at random
 * points of the grid, edge clusters in cities drawn at random among the trace's 100 largest, and every
 * client group of the trace at its city, linked to its nearest edges. Hose-model capacities: by default
 * each source's 1 Gbit/s is 100 Mbit/s links to each of the 10 reflectors, each reflector's 3 Gbit/s is
 * 100 Mbit/s links to 30 of the 100 edges, and each group has 150 Mbit/s links to its 3 nearest edges.
 * Costs: source-reflector and reflector-edge normal (mean 30, deviation 10) clamped to 10-50;
 * edge-group 0 for half the links and uniform 1-5 for the rest.
 */
public final class HoseTopology {

    /** The edges are placed in the trace's largest cities. */
    static final int EDGE_CITIES = 100;
    static final long MBPS = 1_000;
    static final long GBPS = 1_000_000;

    private HoseTopology() {
    }

    /**
     * The shape: tier sizes; connectivity (x, y, z) = reflectors connect to x sources, edges to y
     * reflectors, client groups to z edges (§4.7's Fig 4.13); and the aggregate capacity of the
     * source-reflector and reflector-edge tiers, shared equally by their links. {@code groupKbps} is a
     * group's capacity, shared by its z links. The edges' hose towards clients (9 Gbit/s each, 900
     * Gbit/s in all) is not a link of the model, so it is not enforced (one stream serves a whole group,
     * so only Large Event's games come near it).
     */
    public record Shape(String name, int sources, int reflectors, int edges, int x, int y, int z,
            long sourceTierKbps, long reflectorTierKbps, long groupKbps) {

        public Shape {
            if (sources < 1 || reflectors < 1 || edges < 1) {
                throw new IllegalArgumentException(name + ": " + sources + " sources, " + reflectors + " reflectors, "
                        + edges + " edges; every tier has a node");
            }
            if (x < 1 || x > sources || y < 1 || y > reflectors || z < 1 || z > edges) {
                throw new IllegalArgumentException(name + ": connectivity (" + x + ", " + y + ", " + z
                        + ") is not within (1-" + sources + ", 1-" + reflectors + ", 1-" + edges + ")");
            }
            if (sourceTierKbps <= 0 || reflectorTierKbps <= 0 || groupKbps <= 0) {
                throw new IllegalArgumentException(name + ": tier capacities are positive");
            }
        }

        /** The thesis's default: 4 sources, 10 reflectors, 100 edges, (4, 3, 3), source-constrained. */
        public static Shape thesis() {
            return new Shape("(4, 3, 3)", 4, 10, 100, 4, 3, 3, 4 * GBPS, 30 * GBPS, 450 * MBPS);
        }

        /** The same with {@code edges} edges, each reflector-edge link still 100 Mbit/s. */
        public Shape withEdges(int edges) {
            return new Shape(name + ", " + edges + " edges", sources, reflectors, edges, x, y, Math.min(z, edges),
                    sourceTierKbps, reflectorTierKbps / ((long) this.edges * y) * ((long) edges * y), groupKbps);
        }

        /** The same aggregate capacities with connectivity (x, y, z). */
        public Shape withConnectivity(int x, int y, int z) {
            return new Shape("(" + x + ", " + y + ", " + z + ")", sources, reflectors, edges, x, y, z, sourceTierKbps,
                    reflectorTierKbps, groupKbps);
        }

        /** The same connectivity with other aggregate capacities of the first two tiers. */
        public Shape withTiers(String name, long sourceTierKbps, long reflectorTierKbps) {
            return new Shape(name, sources, reflectors, edges, x, y, z, sourceTierKbps, reflectorTierKbps, groupKbps);
        }

        long sourceLinkKbps() {
            return sourceTierKbps / ((long) reflectors * x);
        }

        long reflectorLinkKbps() {
            return reflectorTierKbps / ((long) edges * y);
        }

        long groupLinkKbps() {
            return groupKbps / z;
        }
    }

    /** Fig 4.14's bottleneck placements, aggregate Gbit/s per tier: (4, 30, 900), (400, 30, 900), (4000, 3000, 900). */
    public static List<Shape> bottlenecks() {
        Shape base = Shape.thesis();
        return List.of(base.withTiers("source-constrained (4, 30, 900)", 4 * GBPS, 30 * GBPS),
                base.withTiers("reflector-constrained (400, 30, 900)", 400 * GBPS, 30 * GBPS),
                base.withTiers("edge-constrained (4000, 3000, 900)", 4000 * GBPS, 3000 * GBPS));
    }

    /** Fig 4.13's connectivity, from sparse to dense, the aggregate capacity of each tier held. */
    public static List<Shape> connectivities() {
        Shape base = Shape.thesis();
        return List.of(base.withConnectivity(1, 1, 1), base.withConnectivity(2, 2, 2), base,
                base.withConnectivity(4, 5, 5), base.withConnectivity(4, 10, 10));
    }

    /** The topology for a trace; the same trace, shape and seed give the same topology. */
    public static Topology build(Trace trace, Shape shape, long seed) {
        Random random = new Random(seed);
        Topology.Builder builder = Topology.builder();
        List<String> sources = new ArrayList<>();
        List<String> reflectors = new ArrayList<>();
        for (int i = 0; i < shape.sources(); i++) {
            sources.add("s" + i);
            builder.node("s" + i, Tier.SOURCE, 1000 * random.nextDouble(), 1000 * random.nextDouble());
        }
        for (int i = 0; i < shape.reflectors(); i++) {
            reflectors.add("r" + i);
            builder.node("r" + i, Tier.REFLECTOR, 1000 * random.nextDouble(), 1000 * random.nextDouble());
        }
        List<Trace.City> largest = trace.cities().subList(0, Math.min(EDGE_CITIES, trace.cities().size()));
        List<Trace.City> edgeCities = new ArrayList<>();
        for (int i = 0; i < shape.edges(); i++) {
            Trace.City city = largest.get(random.nextInt(largest.size()));
            edgeCities.add(city);
            builder.node("e" + i, Tier.EDGE, city.x(), city.y());
        }
        Trace.City[] byId = new Trace.City[trace.cities().size()];
        trace.cities().forEach(c -> byId[c.id()] = c);
        for (Trace.Group group : trace.groups()) {
            Trace.City city = byId[group.city()];
            builder.node(group.id(), Tier.CLIENT_GROUP, city.x(), city.y());
        }
        connect(builder, reflectors, sources, shape.x(), shape.sourceLinkKbps(), random);
        List<String> edges = new ArrayList<>();
        for (int i = 0; i < shape.edges(); i++) {
            edges.add("e" + i);
        }
        connect(builder, edges, reflectors, shape.y(), shape.reflectorLinkKbps(), random);
        for (Trace.Group group : trace.groups()) {
            Trace.City city = byId[group.city()];
            List<Integer> nearest = new ArrayList<>();
            for (int i = 0; i < edgeCities.size(); i++) {
                nearest.add(i);
            }
            nearest.sort(Comparator.comparingDouble((Integer i) -> Math.hypot(edgeCities.get(i).x() - city.x(),
                    edgeCities.get(i).y() - city.y())).thenComparingInt(i -> i));
            for (int i = 0; i < shape.z(); i++) {
                double cost = random.nextBoolean() ? 0 : 1 + 4 * random.nextDouble();
                builder.link("e" + nearest.get(i), group.id(), shape.groupLinkKbps(), cost);
            }
        }
        return builder.build();
    }

    /**
     * Each child gets {@code degree} distinct parents, the parents' links as equal in number as can be:
     * the children's slots are dealt to the parents in turn, in a random order of each.
     */
    private static void connect(Topology.Builder builder, List<String> children, List<String> parents, int degree,
            long kbps, Random random) {
        List<String> shuffledParents = new ArrayList<>(parents);
        Collections.shuffle(shuffledParents, random);
        List<String> shuffledChildren = new ArrayList<>(children);
        Collections.shuffle(shuffledChildren, random);
        int slot = 0;
        for (String child : shuffledChildren) {
            for (int k = 0; k < degree; k++, slot++) {
                builder.link(shuffledParents.get(slot % parents.size()), child, kbps, tierCost(random));
            }
        }
    }

    /** Normal, mean 30 and deviation 10, clamped to 10-50. */
    private static double tierCost(Random random) {
        return Math.max(10, Math.min(50, 30 + 10 * random.nextGaussian()));
    }
}
