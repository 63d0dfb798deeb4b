package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.solver.LinearModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The program's variables: only links on a source-to-group path to a group requesting the object. */
class ServeProgramTest {

    /**
     * Sources S1, S2; reflectors R1 (fed by S1), R2 (fed by S2) and R3 (fed by no source); edges E1 (from
     * R1 and R3), E2 (from R2), E3 (from R1); groups G1, G2, G3 under E1, E2, E3.
     */
    private static Topology topology() {
        Topology.Builder builder = Topology.builder();
        for (String s : List.of("S1", "S2")) {
            builder.node(s, Tier.SOURCE, 0, 0);
        }
        for (String r : List.of("R1", "R2", "R3")) {
            builder.node(r, Tier.REFLECTOR, 0, 1);
        }
        for (String e : List.of("E1", "E2", "E3")) {
            builder.node(e, Tier.EDGE, 0, 2);
        }
        for (String g : List.of("G1", "G2", "G3")) {
            builder.node(g, Tier.CLIENT_GROUP, 0, 3);
        }
        return builder.link("S1", "R1", 5_000, 1).link("S2", "R2", 5_000, 1)
                .link("R1", "E1", 5_000, 1).link("R3", "E1", 5_000, 1).link("R2", "E2", 5_000, 1)
                .link("R1", "E3", 5_000, 1)
                .link("E1", "G1", 5_000, 0).link("E2", "G2", 5_000, 0).link("E3", "G3", 5_000, 0)
                .build();
    }

    @Test
    void createsVariablesOnlyOnLinksLeadingFromASourceToARequester() {
        Topology topology = topology();
        VideoObject one = new VideoObject("one", 1000);
        VideoObject two = new VideoObject("two", 1000);
        Problem problem = new Problem(topology, List.of(new Request("G1", one, 1), new Request("G1", two, 1),
                new Request("G2", two, 1)), Weights.DEFAULT);
        ServeIndex index = new ServeIndex(problem);
        ServeProgram program = new ServeProgram(index);

        assertEquals(List.of("S1->R1", "R1->E1", "E1->G1"), names(topology, index.candidates(0)));
        assertEquals(List.of("S1->R1", "S2->R2", "R1->E1", "R2->E2", "E1->G1", "E2->G2"),
                names(topology, index.candidates(1)));
        assertEquals(9, program.linkVariables());
        assertEquals(-1, program.variable(topology.link("R3", "E1").orElseThrow().index(), 0));
        assertEquals(-1, program.variable(topology.link("R1", "E3").orElseThrow().index(), 1));

        LinearModel relaxation = program.linear(false).model;
        assertEquals(9 + 3, relaxation.variables().size(), "the link variables and one per request");
        // no capacity row (nothing can overflow 5 Mbit/s); "only send what you received" for each variable
        // not out of a source (2 + 4); per request one "served" row and two cuts (into its edges, into
        // the reflectors above them)
        assertEquals(6 + 3 + 2 * 3, relaxation.constraints().size());
        assertTrue(relaxation.constraints().stream().noneMatch(c -> c.name().startsWith("cap")));
    }

    @Test
    void writesACapacityRowWhereTheCandidatesCouldOverflowALink() {
        Topology topology = topology();
        Problem problem = new Problem(topology, List.of(new Request("G1", new VideoObject("a", 3000), 1),
                new Request("G1", new VideoObject("b", 3000), 1)), Weights.DEFAULT);

        LinearModel relaxation = new ServeProgram(new ServeIndex(problem)).linear(false).model;

        // S1->R1, R1->E1 and E1->G1 each could carry 6 Mbit/s of their 5
        assertEquals(3, relaxation.constraints().stream().filter(c -> c.name().startsWith("cap")).count());
        // and each holds one whole 3 Mbit/s object, not the 5/3 the capacity row allows in fractions
        List<LinearModel.Constraint> cardinality = relaxation.constraints().stream()
                .filter(c -> c.name().startsWith("card")).toList();
        assertEquals(3, cardinality.size());
        assertTrue(cardinality.stream().allMatch(c -> c.upper() == 1 && c.expression().terms().size() == 2), cardinality.toString());
    }

    @Test
    void writesNoCardinalityRowWhereTheCapacityRowSaysAsMuch() {
        Topology topology = topology();
        Problem problem = new Problem(topology, List.of(new Request("G1", new VideoObject("a", 2500), 1),
                new Request("G1", new VideoObject("b", 2500), 1), new Request("G1", new VideoObject("c", 2500), 1)),
                Weights.DEFAULT);

        LinearModel relaxation = new ServeProgram(new ServeIndex(problem)).linear(false).model;

        // two of 2.5 Mbit/s fill 5 exactly: the capacity row already allows no more than two in fractions
        assertEquals(3, relaxation.constraints().stream().filter(c -> c.name().startsWith("cap")).count());
        assertEquals(0, relaxation.constraints().stream().filter(c -> c.name().startsWith("card")).count());
    }

    private static List<String> names(Topology topology, int[] links) {
        return java.util.Arrays.stream(links).mapToObj(l -> topology.links().get(l).name()).sorted(
                java.util.Comparator.comparing((String name) -> tierOf(topology, name)).thenComparing(n -> n)).toList();
    }

    private static int tierOf(Topology topology, String link) {
        return topology.node(link.substring(0, link.indexOf('-'))).orElseThrow().tier().ordinal();
    }
}
