package io.heliograph.virtue.engine;

/**
 * Loads recomputed from scratch for a whole placement, exactly as spec §3.5 writes them: the reference
 * the incremental {@link LoadState} is tested against, and what a result's prediction is made with.
 * A VM on PM -1 is not placed yet and contributes nothing, nor does traffic to or from it.
 */
final class Estimator {

    private Estimator() {
    }

    /** Per PM: the CPU its VMs use. */
    static long[] cpuLoad(PlacementProblem problem, int[] pmOf) {
        long[] load = new long[problem.pmCount()];
        for (int v = 0; v < pmOf.length; v++) {
            if (pmOf[v] >= 0) {
                load[pmOf[v]] += problem.vmCpu[v];
            }
        }
        return load;
    }

    /** SA CN: per PM, what its VMs' NICs sent ([0]) and received ([1]), intra-PM traffic included. */
    static long[][] nicFromCounters(PlacementProblem problem, int[] pmOf) {
        long[][] load = new long[2][problem.pmCount()];
        for (int v = 0; v < pmOf.length; v++) {
            if (pmOf[v] >= 0) {
                load[0][pmOf[v]] += problem.vmTx[v];
                load[1][pmOf[v]] += problem.vmRx[v];
            }
        }
        return load;
    }

    /** SA CNTM: per PM, the traffic matrix's flows leaving it ([0]) and entering it ([1]) from other PMs. */
    static long[][] nicFromTraffic(PlacementProblem problem, int[] pmOf) {
        long[][] load = new long[2][problem.pmCount()];
        for (int f = 0; f < problem.flowCount(); f++) {
            int a = pmOf[problem.flowSource[f]];
            int b = pmOf[problem.flowDestination[f]];
            if (a >= 0 && b >= 0 && a != b) {
                load[0][a] += problem.flowRate[f];
                load[1][b] += problem.flowRate[f];
            }
        }
        return load;
    }

    /**
     * SA All and the greedy algorithms: per link, the traffic matrix routed source VM, its link up, the
     * path between the PMs' switches, the destination VM's link down.
     */
    static long[] linkLoad(PlacementProblem problem, int[] pmOf) {
        long[] load = new long[problem.linkCount()];
        for (int f = 0; f < problem.flowCount(); f++) {
            int a = problem.flowSource[f];
            int b = problem.flowDestination[f];
            if (pmOf[a] < 0 || pmOf[b] < 0) {
                continue;
            }
            long rate = problem.flowRate[f];
            load[problem.upLink(a)] += rate;
            load[problem.downLink(b)] += rate;
            problem.forEachFabricLink(pmOf[a], pmOf[b], link -> load[link] += rate);
        }
        return load;
    }

    /** The energy of a placement: its most utilised resource under the given estimate. */
    static double energy(PlacementProblem problem, int[] pmOf, Energy kind) {
        double max = 0;
        if (kind.usesCpu()) {
            long[] cpu = cpuLoad(problem, pmOf);
            for (int p = 0; p < cpu.length; p++) {
                max = Math.max(max, cpu[p] / problem.cpuCapacity[p]);
            }
        }
        if (kind == Energy.CPU_NIC || kind == Energy.CPU_NIC_TRAFFIC) {
            long[][] nic = kind == Energy.CPU_NIC ? nicFromCounters(problem, pmOf) : nicFromTraffic(problem, pmOf);
            for (int p = 0; p < problem.pmCount(); p++) {
                max = Math.max(max, Math.max(nic[0][p] / problem.nicCapacityTx[p], nic[1][p] / problem.nicCapacityRx[p]));
            }
        }
        if (kind.usesLinks()) {
            long[] links = linkLoad(problem, pmOf);
            for (int l = 0; l < links.length; l++) {
                max = Math.max(max, links[l] / problem.linkCapacity[l]);
            }
        }
        return max;
    }
}
