package io.heliograph.virtue.engine;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Greedy Fill (Algorithm 6, spec §3.8, L1013-1050): unassign every VM, then take them in ascending order
 * of their traffic (NIC rates sent plus received; ties in the EDF's order) and put each on the PM that
 * gives the lowest maximum CPU or link utilisation given the VMs placed so far, the first such PM from
 * the left when several tie. Traffic to a VM not yet placed counts for nothing: its route is unknown.
 * A PM that is full, or whose CPU the VM would overflow, is not a candidate; a VM with no candidate
 * makes the request infeasible.
 *
 * <p>Ascending order is the thesis's deliberate choice: a VM heavy only because it talks a little to
 * many others, placed first, would leave no room near it for its peers.
 */
public final class GreedyFill implements PlacementAlgorithm {

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
        int n = problem.vmCount();
        int[] none = new int[n];
        Arrays.fill(none, -1);
        LoadState state = new LoadState(problem, Energy.ALL, none);
        for (int vm : order(problem)) {
            double minUtil = Double.MAX_VALUE;
            int minPm = -1;
            for (int pm = 0; pm < problem.pmCount(); pm++) {
                if (!state.fits(vm, pm)) {
                    continue;
                }
                state.place(vm, pm);
                double util = state.energy();
                state.unplace(vm);
                if (util < minUtil) {
                    minUtil = util;
                    minPm = pm;
                }
            }
            if (minPm < 0) {
                return PlacementResult.infeasible(this, problem.vmIds[vm] + " fits on no PM: every PM is full or "
                        + "lacks the CPU for its " + problem.vmCpu[vm] / PlacementProblem.SCALE + " cycles/s");
            }
            state.place(vm, minPm);
        }
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
