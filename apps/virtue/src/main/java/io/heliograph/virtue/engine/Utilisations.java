package io.heliograph.virtue.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The utilisations a placement is predicted to cause (spec §3.5), from the run's measurements: each PM's
 * CPU, each PM NIC's (as the given estimate sees it), each link's with the traffic matrix routed over the
 * topology, the estimate's energy and the Minimax metric over CPUs and links (§3.1), the figure the
 * thesis compares algorithms by. 1.0 is a resource at capacity; a link may be predicted above it.
 */
public final class Utilisations {

    private final Energy energyKind;
    private final double energy;
    private final Map<String, Double> cpu;
    private final Map<String, Double> nicSent;
    private final Map<String, Double> nicReceived;
    private final Map<String, Double> links;
    private final double minimax;
    private final String hottest;

    private Utilisations(PlacementProblem problem, int[] pmOf, Energy kind) {
        energyKind = kind;
        energy = Estimator.energy(problem, pmOf, kind);
        long[] cpuLoad = Estimator.cpuLoad(problem, pmOf);
        long[][] nic = kind == Energy.CPU_NIC ? Estimator.nicFromCounters(problem, pmOf)
                : Estimator.nicFromTraffic(problem, pmOf);
        long[] linkLoad = Estimator.linkLoad(problem, pmOf);
        Map<String, Double> cpuMap = new LinkedHashMap<>();
        Map<String, Double> sent = new LinkedHashMap<>();
        Map<String, Double> received = new LinkedHashMap<>();
        double max = 0;
        String where = null;
        for (int p = 0; p < problem.pmCount(); p++) {
            double util = cpuLoad[p] / problem.cpuCapacity[p];
            cpuMap.put(problem.pmIds[p], util);
            sent.put(problem.pmIds[p], nic[0][p] / problem.nicCapacityTx[p]);
            received.put(problem.pmIds[p], nic[1][p] / problem.nicCapacityRx[p]);
            if (where == null || util > max) {
                max = util;
                where = "CPU of " + problem.pmIds[p];
            }
        }
        Map<String, Double> linkMap = new LinkedHashMap<>();
        for (int l = 0; l < linkLoad.length; l++) {
            double util = linkLoad[l] / problem.linkCapacity[l];
            String id = problem.linkId(l, pmOf);
            linkMap.put(id, util);
            if (util > max) {
                max = util;
                where = "link " + id;
            }
        }
        cpu = Collections.unmodifiableMap(cpuMap);
        nicSent = Collections.unmodifiableMap(sent);
        nicReceived = Collections.unmodifiableMap(received);
        links = Collections.unmodifiableMap(linkMap);
        minimax = max;
        hottest = where;
    }

    /** The utilisations of a whole placement, with the energy under the given estimate. */
    public static Utilisations estimate(Placement placement, PlacementProblem problem, Energy kind) {
        return new Utilisations(problem, placement.assignment(), kind);
    }

    /** The estimate the energy is under. */
    public Energy energyKind() {
        return energyKind;
    }

    /** The most utilised resource the estimate sees: what the algorithm minimised. */
    public double energy() {
        return energy;
    }

    /** The most utilised PM CPU or link (Minimax, §3.1). */
    public double minimax() {
        return minimax;
    }

    /** Which resource {@link #minimax()} is ("CPU of host0003", "link a:1->b:2"); null with no PMs. */
    public String hottest() {
        return hottest;
    }

    /** CPU utilisation by PM id. */
    public Map<String, Double> cpu() {
        return cpu;
    }

    /** Sending utilisation of each PM's NIC: its VMs' NIC counters for SA CN, else the traffic to other PMs. */
    public Map<String, Double> nicSent() {
        return nicSent;
    }

    /** Receiving utilisation of each PM's NIC, as {@link #nicSent()}. */
    public Map<String, Double> nicReceived() {
        return nicReceived;
    }

    /** Utilisation by link id, each VM's links named after the switch of the PM it is placed on. */
    public Map<String, Double> links() {
        return links;
    }
}
