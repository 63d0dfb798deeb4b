package io.heliograph.sims.vdn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Node;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HoseTopologyTest {

    private static final Trace TRACE = Traces.generate(Traces.averageDay().scaled(0.1, true), 4);

    private static long out(Topology topology, Tier tier) {
        return topology.tier(tier).stream().flatMap(n -> topology.out(n.id()).stream()).mapToLong(Link::capacityKbps).sum();
    }

    @Test
    void theThesisTopologyHasItsDegreesCapacitiesAndCosts() {
        Topology topology = HoseTopology.build(TRACE, HoseTopology.Shape.thesis(), 1);
        assertEquals(4, topology.tier(Tier.SOURCE).size());
        assertEquals(10, topology.tier(Tier.REFLECTOR).size());
        assertEquals(100, topology.tier(Tier.EDGE).size());
        assertEquals(TRACE.groups().size(), topology.tier(Tier.CLIENT_GROUP).size());
        for (Node source : topology.tier(Tier.SOURCE)) {
            assertEquals(10, topology.out(source.id()).size(), "1 Gbit/s as links to each of the 10 reflectors");
            topology.out(source.id()).forEach(l -> assertEquals(100_000, l.capacityKbps()));
        }
        for (Node reflector : topology.tier(Tier.REFLECTOR)) {
            assertEquals(30, topology.out(reflector.id()).size(), "3 Gbit/s as links to 30 of the edges");
            topology.out(reflector.id()).forEach(l -> assertEquals(100_000, l.capacityKbps()));
        }
        topology.tier(Tier.EDGE).forEach(e -> assertEquals(3, topology.in(e.id()).size()));
        Set<String> largest = new HashSet<>();
        TRACE.cities().subList(0, 100).forEach(c -> largest.add(c.x() + " " + c.y()));
        for (Node edge : topology.tier(Tier.EDGE)) {
            assertTrue(largest.contains(edge.x() + " " + edge.y()), "edges sit in the 100 largest cities");
        }
        List<Node> edges = topology.tier(Tier.EDGE);
        int free = 0;
        for (Node group : topology.tier(Tier.CLIENT_GROUP)) {
            List<Link> in = topology.in(group.id());
            assertEquals(3, in.size());
            double farthestUsed = 0;
            for (Link link : in) {
                assertEquals(150_000, link.capacityKbps());
                assertTrue(link.cost() == 0 || (link.cost() >= 1 && link.cost() <= 5), "edge-group cost " + link.cost());
                free += link.cost() == 0 ? 1 : 0;
                farthestUsed = Math.max(farthestUsed, topology.node(link.from()).orElseThrow().distanceTo(group));
            }
            double third = edges.stream().map(e -> e.distanceTo(group)).sorted(Comparator.naturalOrder()).toList().get(2);
            assertEquals(third, farthestUsed, 1e-9, "linked to its 3 nearest edges");
        }
        assertEquals(0.5, (double) free / (3 * TRACE.groups().size()), 0.05);
        for (Link link : topology.links()) {
            if (topology.node(link.to()).orElseThrow().tier() != Tier.CLIENT_GROUP) {
                assertTrue(link.cost() >= 10 && link.cost() <= 50, "tier cost " + link.cost());
            }
        }
    }

    @Test
    void variantsHoldEachTiersAggregateCapacity() {
        for (HoseTopology.Shape shape : HoseTopology.connectivities()) {
            Topology topology = HoseTopology.build(TRACE, shape, 2);
            assertEquals(4_000_000, out(topology, Tier.SOURCE), 40 * shape.x(), shape.name());
            assertEquals(30_000_000, out(topology, Tier.REFLECTOR), 1_000 * shape.y(), shape.name());
            assertEquals(450_000L * TRACE.groups().size(), out(topology, Tier.EDGE), 3.0 * TRACE.groups().size(), shape.name());
            topology.tier(Tier.REFLECTOR).forEach(r -> assertEquals(shape.x(), topology.in(r.id()).size()));
            topology.tier(Tier.CLIENT_GROUP).forEach(g -> assertEquals(shape.z(), topology.in(g.id()).size()));
        }
        List<HoseTopology.Shape> bottlenecks = HoseTopology.bottlenecks();
        long[][] gbps = {{4, 30}, {400, 30}, {4000, 3000}};
        for (int i = 0; i < 3; i++) {
            Topology topology = HoseTopology.build(TRACE, bottlenecks.get(i), 3);
            assertEquals(gbps[i][0] * 1_000_000, out(topology, Tier.SOURCE));
            assertEquals(gbps[i][1] * 1_000_000, out(topology, Tier.REFLECTOR));
        }
        Topology big = HoseTopology.build(TRACE, HoseTopology.Shape.thesis().withEdges(2_000), 4);
        assertEquals(2_000, big.tier(Tier.EDGE).size());
        big.tier(Tier.REFLECTOR).forEach(r -> topologyLinksAre(big, r, 100_000));
    }

    private static void topologyLinksAre(Topology topology, Node node, long kbps) {
        topology.out(node.id()).forEach(l -> assertEquals(kbps, l.capacityKbps()));
    }
}
