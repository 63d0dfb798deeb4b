package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

/**
 * Greedy Fill and Greedy Net evaluate a rack's PMs that host none of a VM's peers by their own CPU and
 * edge-link figures plus the rack's shared figure ({@link LoadState#bestIfPlaced}); the plain algorithms
 * evaluate every PM in full. These compare the two, figure for figure and placement for placement, on
 * random instances, with the plain versions kept here as the reference.
 */
class GreedyEvaluationTest {

    /** Algorithm 6 as written: every VM on every PM, in full, strict less-than. */
    static int[] plainGreedyFill(PlacementProblem problem) {
        int[] none = new int[problem.vmCount()];
        Arrays.fill(none, -1);
        LoadState state = new LoadState(problem, Energy.ALL, none);
        LoadState.Scratch scratch = new LoadState.Scratch(problem);
        for (int vm : GreedyFill.order(problem)) {
            double minUtil = Double.MAX_VALUE;
            int minPm = -1;
            for (int pm = 0; pm < problem.pmCount(); pm++) {
                if (state.fits(vm, pm)) {
                    double util = state.energyIfPlaced(vm, pm, scratch);
                    if (util < minUtil) {
                        minUtil = util;
                        minPm = pm;
                    }
                }
            }
            if (minPm < 0) {
                return null;
            }
            state.place(vm, minPm);
        }
        return state.assignment();
    }

    /** Algorithm 5 as written: each candidate VM moved to every PM and back, the maximum read each time. */
    static int[] plainGreedyNet(PlacementProblem problem) {
        LoadState state = new LoadState(problem, Energy.NETWORK, problem.start);
        int n = problem.vmCount();
        boolean moved;
        do {
            moved = false;
            int hottest = state.hottest();
            if (!state.isLink(hottest)) {
                break;
            }
            int link = state.linkOf(hottest);
            double curUtil = state.energy();
            long[] rate = plainRates(problem, state.assignment(), link);
            List<Integer> candidates = new ArrayList<>();
            for (int v = 0; v < n; v++) {
                if (rate[v] > 0) {
                    candidates.add(v);
                }
            }
            candidates.sort((x, y) -> Long.compare(rate[y], rate[x]));
            double minUtil = curUtil;
            for (int vm : candidates) {
                int origin = state.pmOf(vm);
                int minPm = -1;
                for (int pm = 0; pm < problem.pmCount(); pm++) {
                    if (pm == origin || !state.fits(vm, pm)) {
                        continue;
                    }
                    state.move(vm, pm);
                    double util = state.energy();
                    state.move(vm, origin);
                    if (util < minUtil) {
                        minUtil = util;
                        minPm = pm;
                    }
                }
                if (minUtil < curUtil) {
                    state.move(vm, minPm);
                    moved = true;
                    break;
                }
            }
        } while (moved);
        return state.assignment();
    }

    @Test
    void theThesisTreeAndTheWebWorkloadsPutEveryPmInItsRacksGroup() {
        PlacementProblem problem = LoadStateTest.randomProblem(10, 40, 5, 1);
        assertEquals(4, problem.groupCount());
        for (int p = 0; p < problem.pmCount(); p++) {
            assertEquals(p / 10, problem.pmGroup[p], "PM " + p);
        }
        PlacementProblem web = WebWorkload.of(new ThreeTierTree(3, 2, 4, 100e6, 100e6, 150e6), 4, 4, 6, 3, 4, 1);
        assertEquals(6, web.groupCount());
        // and every rack in its aggregation switch's block
        assertEquals(2, problem.blockCount());
        assertEquals(3, web.blockCount());
        for (int g = 0; g < web.groupCount(); g++) {
            assertEquals(web.groupBlock[web.pmGroup[4 * g]], g / 2, "rack " + g);
        }
    }

    @Test
    void aRackWithASecondWayOutIsInNoBlock() {
        PlacementProblem problem = crossLinkedRacks(1);
        assertEquals(-1, problem.groupBlock[problem.pmGroup[0]]);
        assertEquals(-1, problem.groupBlock[problem.pmGroup[20]]);
        assertTrue(problem.groupBlock[problem.pmGroup[10]] >= 0);
        assertTrue(problem.groupBlock[problem.pmGroup[30]] >= 0);
    }

    @Test
    void theFlowsOnALinkAreThoseFoundByCheckingEveryFlow() {
        SplittableRandom random = new SplittableRandom(3);
        for (long seed = 1; seed <= 3; seed++) {
            for (PlacementProblem problem : List.of(LoadStateTest.randomProblem(10, 60, 5, seed), crossLinked(seed),
                    crossLinkedRacks(seed))) {
                FlowsOnLink onLink = new FlowsOnLink(problem);
                int[] pmOf = problem.start.clone();
                for (int round = 0; round < 4; round++) {
                    for (int link = 0; link < problem.linkCount(); link++) {
                        long[] rates = new long[problem.vmCount()];
                        onLink.rates(link, pmOf, rates);
                        assertArrayEquals(plainRates(problem, pmOf, link), rates, "seed " + seed + " link " + link);
                    }
                    // other placements, some VMs sharing a PM and some racks left empty
                    for (int v = 0; v < pmOf.length; v++) {
                        pmOf[v] = random.nextInt(problem.pmCount() / (round + 1));
                    }
                }
            }
        }
    }

    /** Each VM's rate on a link: every flow's path walked. */
    static long[] plainRates(PlacementProblem problem, int[] pmOf, int link) {
        long[] rate = new long[problem.vmCount()];
        for (int f = 0; f < problem.flowCount(); f++) {
            int a = problem.flowSource[f];
            int b = problem.flowDestination[f];
            boolean[] crosses = {link == problem.upLink(a) || link == problem.downLink(b)};
            problem.forEachFabricLink(pmOf[a], pmOf[b], l -> crosses[0] |= l == link);
            if (crosses[0]) {
                rate[a] += problem.flowRate[f];
                rate[b] += problem.flowRate[f];
            }
        }
        return rate;
    }

    @Test
    void eachCandidateSearchGivesThePlainSearchsPmAndFigure() {
        SplittableRandom random = new SplittableRandom(5);
        for (long seed = 1; seed <= 6; seed++) {
            PlacementProblem problem = switch ((int) (seed % 3)) {
                case 0 -> LoadStateTest.randomProblem(10, 60, 5, seed);
                case 1 -> crossLinked(seed);
                default -> crossLinkedRacks(seed);
            };
            for (Energy kind : new Energy[] {Energy.ALL, Energy.NETWORK}) {
                LoadState state = new LoadState(problem, kind, problem.start);
                LoadState.Scratch fast = new LoadState.Scratch(problem);
                LoadState.Scratch plain = new LoadState.Scratch(problem);
                int m = problem.pmCount();
                for (int round = 0; round < 150; round++) {
                    int vm = random.nextInt(problem.vmCount());
                    int origin = state.pmOf(vm);
                    state.unplace(vm);
                    int from = random.nextInt(m);
                    int to = from + 1 + random.nextInt(m - from);
                    double bound = random.nextInt(4) == 0 ? state.energy() : Double.MAX_VALUE;
                    int skip = random.nextBoolean() ? origin : -1;
                    double minUtil = bound;
                    int minPm = -1;
                    for (int pm = from; pm < to; pm++) {
                        if (pm != skip && state.fits(vm, pm)) {
                            double util = state.energyIfPlaced(vm, pm, plain);
                            if (util < minUtil) {
                                minUtil = util;
                                minPm = pm;
                            }
                        }
                    }
                    assertEquals(new PmRanges.Candidate(minPm, minUtil),
                            state.bestIfPlaced(vm, from, to, bound, skip, fast), "seed " + seed + " round " + round);
                    // leave some VMs off their PMs, so later searches see partial placements as Greedy Fill does
                    if (random.nextInt(3) > 0) {
                        state.place(vm, random.nextInt(3) == 0 && minPm >= 0 ? minPm : origin);
                    }
                }
            }
        }
    }

    @Test
    void greedyFillAndGreedyNetPlaceAsThePlainAlgorithmsDo() {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            List<PlacementProblem> problems = new ArrayList<>();
            for (long seed = 1; seed <= 4; seed++) {
                problems.add(LoadStateTest.randomProblem(10, 40, 5, seed));
                problems.add(crossLinked(seed));
                problems.add(crossLinkedRacks(seed));
                // many VMs that tie (every Memcached VM is placed before its Web VMs): the leftmost must win
                problems.add(WebWorkload.of(ThreeTierTree.thesis(10), 6, 6, 8, 4, 4, seed));
                problems.add(WebWorkload.of(new ThreeTierTree(3, 2, 4, 100e6, 100e6, 150e6), 12, 10, 14, 5, 3, seed));
            }
            for (PlacementProblem problem : problems) {
                int[] fill = plainGreedyFill(problem);
                PlacementResult fast = new GreedyFill().place(problem, 0);
                assertEquals(fill != null, fast.feasible());
                if (fill != null) {
                    assertArrayEquals(fill, fast.placement().orElseThrow().assignment());
                    assertArrayEquals(fill, new GreedyFill(two, 3).place(problem, 0).placement().orElseThrow()
                            .assignment());
                }
                int[] net = plainGreedyNet(problem);
                assertArrayEquals(net, new GreedyNet().place(problem, 0).placement().orElseThrow().assignment());
                assertArrayEquals(net, new GreedyNet(two, 2).place(problem, 0).placement().orElseThrow().assignment());
            }
        } finally {
            two.shutdownNow();
        }
    }

    /**
     * A thesis tree with an extra pair of links between the switches of PM 0 (rack 0) and PM 12 (rack 1):
     * those two PMs are in no group (evaluated in full), and rack 0's fewest-hops paths to PM 12 go
     * through PM 0's switch.
     */
    static PlacementProblem crossLinked(long seed) {
        PlacementProblem base = LoadStateTest.randomProblem(10, 40, 5, seed);
        List<Edf.Switch> software = base.edf().switches().stream().filter(Edf.Switch::software).toList();
        PlacementProblem problem = linked(base, software.get(0).id(), software.get(12).id(), 2, seed);
        assertEquals(-1, problem.pmGroup[0]);
        assertEquals(-1, problem.pmGroup[12]);
        assertTrue(problem.pmGroup[1] >= 0 && problem.pmGroup[13] >= 0);
        return problem;
    }

    /**
     * A thesis tree of 4 racks of 10 PMs with an extra pair of links between the switches of rack 0 (under
     * the first aggregation switch) and rack 2 (under the second): those racks are in no block, and rack
     * 1's fewest-hops paths to rack 2 go through rack 0's switch.
     */
    static PlacementProblem crossLinkedRacks(long seed) {
        PlacementProblem base = LoadStateTest.randomProblem(10, 40, 5, seed);
        return linked(base, torOf(base, 0), torOf(base, 20), 100, seed);
    }

    private static String torOf(PlacementProblem problem, int pm) {
        String pmSwitch = problem.pmSwitchIds[pm];
        return problem.edf().links().stream().filter(l -> l.sourceId().equals(pmSwitch))
                .filter(l -> problem.edf().switches().stream().anyMatch(s -> s.id().equals(l.destinationId())))
                .findFirst().orElseThrow().destinationId();
    }

    /** The problem's network with a link each way between two switches, at the given port of each. */
    private static PlacementProblem linked(PlacementProblem base, String a, String b, int port, long seed) {
        Edf edf = base.edf();
        List<Edf.Link> links = new ArrayList<>(edf.links());
        Map<String, String> speed = Map.of(Edf.LINK_SPEED, "100000000");
        links.add(new Edf.Link(Edf.Link.idOf(a, port, b, port), a, port, b, port, speed));
        links.add(new Edf.Link(Edf.Link.idOf(b, port, a, port), b, port, a, port, speed));
        Measurements.Builder measured = Measurements.builder();
        SplittableRandom random = new SplittableRandom(seed);
        for (int v = 0; v < base.vmCount(); v++) {
            measured.cpu(base.vmIds[v], random.nextDouble(0.05e9, 1.2e9));
        }
        for (int f = 0; f < base.flowCount(); f++) {
            measured.traffic(base.vmIds[base.flowSource[f]], base.vmIds[base.flowDestination[f]],
                    base.flowRate[f] / PlacementProblem.SCALE);
        }
        return PlacementProblem.of(new Edf(edf.parameters(), edf.pms(), edf.switches(), links, edf.routes()),
                measured.build());
    }
}
