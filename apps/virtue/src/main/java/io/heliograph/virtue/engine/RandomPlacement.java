package io.heliograph.virtue.engine;

import java.util.SplittableRandom;

/**
 * The thesis's baseline (spec §3.2, L898-904): each VM on a uniformly random PM, drawn again while the
 * PM is full (at most {@link PlacementProblem#maxVmsPerPm()} VMs). It knows nothing of CPU or the
 * network, so only the slot limit binds it; its seed is the EDF's {@code mappingSeed}.
 */
public final class RandomPlacement implements PlacementAlgorithm {

    @Override
    public String name() {
        return "random";
    }

    @Override
    public Energy energy() {
        return Energy.ALL;
    }

    @Override
    public PlacementResult place(PlacementProblem problem, long seed) {
        int n = problem.vmCount();
        int m = problem.pmCount();
        long slots = (long) m * problem.maxVmsPerPm();
        if (n > slots) {
            return PlacementResult.infeasible(this, n + " VMs for " + slots + " slots (" + m + " PMs of "
                    + problem.maxVmsPerPm() + ")");
        }
        int[] pmOf = assignment(n, m, problem.maxVmsPerPm(), seed);
        return PlacementResult.placed(this, problem, pmOf);
    }

    /**
     * A random assignment of {@code vms} VMs to {@code pms} PMs of {@code maxVmsPerPm} slots, VM i on
     * PM [i]: what {@link #place} returns, for making the baseline EDFs an experiment starts from.
     */
    public static int[] assignment(int vms, int pms, int maxVmsPerPm, long seed) {
        if (vms > (long) pms * maxVmsPerPm) {
            throw new IllegalArgumentException(vms + " VMs do not fit " + pms + " PMs of " + maxVmsPerPm);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] count = new int[pms];
        int[] pmOf = new int[vms];
        for (int v = 0; v < vms; v++) {
            int p;
            do {
                p = random.nextInt(pms);
            } while (count[p] >= maxVmsPerPm);
            count[p]++;
            pmOf[v] = p;
        }
        return pmOf;
    }
}
