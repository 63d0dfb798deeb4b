package io.heliograph.virtue.engine;

import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.Executor;

import io.heliograph.virtue.engine.PmRanges.Candidate;

/**
 * Greedy Fill (Algorithm 6, spec §3.8, L1013-1050): unassign every VM, then take them in ascending order
 * of their traffic (NIC rates sent plus received; ties in the EDF's order) and put each on the PM that
 * gives the lowest maximum CPU or link utilisation given the VMs placed so far, the first such PM from
 * the left when several tie. Traffic to a VM not yet placed counts for nothing: its route is unknown.
 * A PM that is full, or whose CPU the VM would overflow, is not a candidate; a VM with no candidate
 * makes the request infeasible.
 *
 * <p>Algorithm 6 evaluates every VM on every PM; here a PM that hosts none of the VM's peers costs only
 * its own CPU and edge-link figures, the rest being shared by its rack ({@link LoadState#bestIfPlaced}),
 * with the same figures and so the same placement.
 *
 * <p>Ascending order is the thesis's deliberate choice: a VM heavy only because it talks a little to
 * many others, placed first, would leave no room near it for its peers.
 */
public final class GreedyFill implements PlacementAlgorithm {

    private final PmRanges ranges;

    /** Greedy Fill on the calling thread. */
    public GreedyFill() {
        this(Runnable::run, 1);
    }

    /**
     * Greedy Fill evaluating each VM's candidate PMs in {@code parts} ranges at once on {@code executor}
     * (the thesis's parallel version, L1209). The result is the same as on one thread: the lowest
     * utilisation wins, and among equals the PM furthest left.
     */
    public GreedyFill(Executor executor, int parts) {
        this.ranges = new PmRanges(executor, parts);
    }

    @Override
    public String name() {
        return "greedyFill";
    }

    @Override
    public Energy energy() {
        return Energy.ALL;
    }

    @Override
    public PlacementResult place(PlacementProblem problem, long seed) {
        return place(problem, seed, Progress.NONE);
    }

    /** Progress is the share of VMs placed. */
    @Override
    public PlacementResult place(PlacementProblem problem, long seed, Progress progress) {
        int n = problem.vmCount();
        int m = problem.pmCount();
        int[] none = new int[n];
        Arrays.fill(none, -1);
        LoadState state = new LoadState(problem, Energy.ALL, none);
        LoadState.Scratch[] scratch = new LoadState.Scratch[ranges.count(m)];
        for (int i = 0; i < scratch.length; i++) {
            scratch[i] = new LoadState.Scratch(problem);
        }
        int placed = 0;
        for (int vm : order(problem)) {
            progress.reached((double) placed++ / n);
            Candidate best = ranges.best(m, new Candidate(-1, Double.MAX_VALUE),
                    (range, from, to) -> state.bestIfPlaced(vm, from, to, Double.MAX_VALUE, -1, scratch[range]));
            if (best.pm() < 0) {
                return PlacementResult.infeasible(this, problem.vmIds[vm] + " fits on no PM: every PM is full or "
                        + "lacks the CPU for its " + problem.vmCpu[vm] / PlacementProblem.SCALE + " cycles/s");
            }
            state.place(vm, best.pm());
        }
        progress.reached(1);
        return PlacementResult.placed(this, problem, state.assignment());
    }

    /** The VMs in the order they are placed: ascending traffic, ties in the EDF's order. */
    static Integer[] order(PlacementProblem problem) {
        Integer[] order = new Integer[problem.vmCount()];
        for (int v = 0; v < order.length; v++) {
            order[v] = v;
        }
        Arrays.sort(order, Comparator.comparingLong(v -> problem.vmTx[v] + problem.vmRx[v])); // stable
        return order;
    }
}
