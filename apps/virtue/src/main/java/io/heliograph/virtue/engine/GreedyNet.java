package io.heliograph.virtue.engine;

import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.Executor;

import io.heliograph.virtue.engine.PmRanges.Candidate;

/**
 * Greedy Net (Algorithm 5, spec §3.7, L976-1011): from the current placement, find the most utilised
 * link; rank the VMs whose flows cross it by the rate they put on it; move the first of them for which
 * some PM lowers the maximum link utilisation, to the PM that lowers it most (the first from the left
 * among equals); repeat until no single move lowers it. It uses the traffic matrix and the topology but
 * no CPU figures (Table 4.1), so only the slot limit binds it, and it tends to pack communicating VMs.
 * Every accepted move strictly lowers the maximum, so it ends.
 *
 * <p>A candidate move is evaluated as the VM taken off its PM and placed on the other (placing only adds
 * load, so the new maximum is the larger of the old one and the figures the VM touches, with a rack's
 * shared figures summed once, {@link LoadState#bestIfPlaced}): the same figures as moving it there and
 * back, so the same result, without updating the loads for every PM tried.
 */
public final class GreedyNet implements PlacementAlgorithm {

    private final PmRanges ranges;

    /** Greedy Net on the calling thread. */
    public GreedyNet() {
        this(Runnable::run, 1);
    }

    /**
     * Greedy Net evaluating each candidate VM's PMs in {@code parts} ranges at once on {@code executor}
     * (the thesis's parallel version, L1209). The result is the
     * same as on one thread: the lowest utilisation wins, and among equals the PM furthest left.
     */
    public GreedyNet(Executor executor, int parts) {
        this.ranges = new PmRanges(executor, parts);
    }

    @Override
    public String name() {
        return "greedyNet";
    }

    @Override
    public Energy energy() {
        return Energy.NETWORK;
    }

    @Override
    public PlacementResult place(PlacementProblem problem, long seed) {
        return place(problem, seed, Progress.NONE);
    }

    /**
     * How many rounds it takes is not known until no move helps, so progress stays at 0 until the end;
     * each round reports it, which lets a caller stop the run between rounds.
     */
    @Override
    public PlacementResult place(PlacementProblem problem, long seed, Progress progress) {
        int n = problem.vmCount();
        int m = problem.pmCount();
        LoadState state = new LoadState(problem, Energy.NETWORK, problem.start);
        LoadState.Scratch[] scratch = new LoadState.Scratch[ranges.count(m)];
        for (int i = 0; i < scratch.length; i++) {
            scratch[i] = new LoadState.Scratch(problem);
        }
        long[] candidateRate = new long[n];
        boolean moved;
        do {
            progress.reached(0);
            moved = false;
            int hottest = state.hottest();
            if (!state.isLink(hottest)) {
                break; // no links at all
            }
            int link = state.linkOf(hottest);
            double curUtil = state.energy();
            Arrays.fill(candidateRate, 0);
            int[] pmOf = state.assignment();
            boolean[][] reached = new boolean[problem.groupCount()][];
            for (int f = 0; f < problem.flowCount(); f++) {
                if (crosses(problem, pmOf, f, link, reached)) {
                    candidateRate[problem.flowSource[f]] += problem.flowRate[f];
                    candidateRate[problem.flowDestination[f]] += problem.flowRate[f];
                }
            }
            Integer[] candidates = Arrays.stream(range(n)).filter(v -> candidateRate[v] > 0).toArray(Integer[]::new);
            Arrays.sort(candidates, Comparator.comparingLong((Integer v) -> -candidateRate[v])); // stable
            double minUtil = curUtil;
            for (int vm : candidates) {
                double bound = minUtil;
                int origin = state.pmOf(vm);
                // the maximum after moving vm to a PM is the maximum with vm off its PM and then placed there
                state.unplace(vm);
                Candidate best = ranges.best(m, new Candidate(-1, bound),
                        (range, from, to) -> state.bestIfPlaced(vm, from, to, bound, origin, scratch[range]));
                state.place(vm, origin);
                minUtil = best.util();
                if (minUtil < curUtil) {
                    state.move(vm, best.pm());
                    moved = true;
                    break; // find the hottest link again
                }
            }
        } while (moved);
        progress.reached(1);
        return PlacementResult.placed(this, problem, state.assignment());
    }

    private static Integer[] range(int n) {
        Integer[] all = new Integer[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        return all;
    }

    /** Marks a group whose paths cross the link nowhere, in {@code reached}. */
    private static final boolean[] NOWHERE = new boolean[0];

    /**
     * Whether a flow crosses a link where its VMs are now. From a PM of a group the path is the PM's
     * edge link up and then the group switch's path, so the PMs that path reaches through the link are
     * found once per group ({@code reached}, filled as needed) instead of walking every flow's path.
     */
    private static boolean crosses(PlacementProblem problem, int[] pmOf, int f, int link, boolean[][] reached) {
        int a = problem.flowSource[f];
        int b = problem.flowDestination[f];
        if (link == problem.upLink(a) || link == problem.downLink(b)) {
            return true;
        }
        int from = pmOf[a];
        int to = pmOf[b];
        if (link >= problem.fabricLinks || from == to) {
            return false;
        }
        int g = problem.pmGroup[from];
        if (g >= 0) {
            if (link == problem.pmEdgeUp[from]) {
                return true;
            }
            if (reached[g] == null) {
                boolean[] through = problem.pmsReachedThrough(g, link);
                reached[g] = through == null ? NOWHERE : through;
            }
            return reached[g] != NOWHERE && reached[g][to];
        }
        boolean[] found = {false};
        problem.forEachFabricLink(from, to, l -> found[0] |= l == link);
        return found[0];
    }
}
