package io.heliograph.virtue.engine;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The flows that cross a link where their VMs sit now, for Greedy Net's candidates: each such flow's rate
 * added to both its VMs'. Only the flows out of the PMs whose paths can cross the link, or into the PMs
 * those paths reach through it, are checked, whichever side has fewer PMs (a rack's link up is crossed by
 * its own PMs' flows only, a link down by flows into the racks below it), so a round does not check every
 * flow; the sums are the same.
 */
final class FlowsOnLink {

    private final PlacementProblem problem;
    /** Per link, per group: the PMs the group's paths reach through it, filled as needed (the network does not change). */
    private final Map<Integer, BitSet[]> reachedThrough = new HashMap<>();
    private final boolean[] source;
    private final boolean[] destination;
    /** The VMs on each PM, PM by PM: those of PM p from {@code firstVm[p]} to {@code firstVm[p + 1]}. */
    private final int[] firstVm;
    private final int[] vms;

    FlowsOnLink(PlacementProblem problem) {
        this.problem = problem;
        source = new boolean[problem.pmCount()];
        destination = new boolean[problem.pmCount()];
        firstVm = new int[problem.pmCount() + 2];
        vms = new int[problem.vmCount()];
    }

    /** Sets {@code rate} to each VM's rate on {@code link} when the VMs sit as {@code pmOf} says. */
    void rates(int link, int[] pmOf, long[] rate) {
        Arrays.fill(rate, 0);
        int n = problem.vmCount();
        if (link >= problem.fabricLinks) { // a VM's own link carries its own flows only
            int vm = link < problem.fabricLinks + n ? link - problem.fabricLinks : link - problem.fabricLinks - n;
            for (int f : problem.flowsOf[vm]) {
                add(f, link, pmOf, rate, null); // its path beyond the VM's links is not asked
            }
            return;
        }
        BitSet[] reached = reachedThrough.computeIfAbsent(link, l -> new BitSet[problem.groupCount()]);
        int m = problem.pmCount();
        int sources = 0;
        boolean anywhere = false; // some source's first link is the link: its flows reach every PM through it
        for (int p = 0; p < m; p++) {
            int g = problem.pmGroup[p];
            boolean up = g >= 0 && link == problem.pmEdgeUp[p];
            source[p] = up || (g >= 0 ? problem.groupTreeCrosses(g, link) : problem.pmTreeCrosses(p, link));
            sources += source[p] ? 1 : 0;
            anywhere |= up || g < 0 && source[p];
        }
        int destinations = m;
        if (!anywhere && sources > m / 4) { // few sources are checked at once
            destinations = 0;
            Arrays.fill(destination, false);
            for (int g = 0; g < problem.groupCount(); g++) {
                if (problem.groupTreeCrosses(g, link)) {
                    BitSet to = reach(reached, g, link);
                    for (int q = to.nextSetBit(0); q >= 0; q = to.nextSetBit(q + 1)) {
                        destinations += destination[q] ? 0 : 1;
                        destination[q] = true;
                    }
                }
            }
        }
        byPm(pmOf);
        boolean fromSources = sources <= destinations;
        boolean[] side = fromSources ? source : destination;
        for (int p = 0; p < m; p++) {
            if (!side[p]) {
                continue;
            }
            for (int i = firstVm[p]; i < firstVm[p + 1]; i++) {
                int vm = vms[i];
                for (int f : problem.flowsOf[vm]) {
                    if ((fromSources ? problem.flowSource[f] : problem.flowDestination[f]) == vm) {
                        add(f, link, pmOf, rate, reached);
                    }
                }
            }
        }
    }

    private void add(int f, int link, int[] pmOf, long[] rate, BitSet[] reached) {
        if (crosses(f, link, pmOf, reached)) {
            rate[problem.flowSource[f]] += problem.flowRate[f];
            rate[problem.flowDestination[f]] += problem.flowRate[f];
        }
    }

    /** Lists the VMs on each PM ({@link #firstVm}, {@link #vms}); unplaced VMs are left out. */
    private void byPm(int[] pmOf) {
        Arrays.fill(firstVm, 0);
        for (int p : pmOf) {
            if (p >= 0) {
                firstVm[p + 2]++;
            }
        }
        for (int p = 2; p < firstVm.length; p++) {
            firstVm[p] += firstVm[p - 1];
        }
        for (int v = 0; v < pmOf.length; v++) {
            if (pmOf[v] >= 0) {
                vms[firstVm[pmOf[v] + 1]++] = v;
            }
        }
    }

    private BitSet reach(BitSet[] reached, int g, int link) {
        if (reached[g] == null) {
            reached[g] = problem.pmsReachedThrough(g, link);
        }
        return reached[g];
    }

    /**
     * Whether a flow crosses a link where its VMs are now. From a PM of a group the path is the PM's
     * edge link up and then the group switch's path, so the PMs that path reaches through the link are
     * found once per group and link instead of walking every flow's path.
     */
    private boolean crosses(int f, int link, int[] pmOf, BitSet[] reached) {
        int a = problem.flowSource[f];
        int b = problem.flowDestination[f];
        if (link == problem.upLink(a) || link == problem.downLink(b)) {
            return true;
        }
        int from = pmOf[a];
        int to = pmOf[b];
        if (link >= problem.fabricLinks || from < 0 || to < 0 || from == to) {
            return false;
        }
        int g = problem.pmGroup[from];
        if (g >= 0) {
            if (link == problem.pmEdgeUp[from]) {
                return true;
            }
            if (problem.edgePm[link] >= 0) {
                // a grouped PM's switch leads nowhere but back to its rack: a path ends there or avoids it
                return problem.edgePm[link] == to && link == problem.pmEdgeDown[to];
            }
            return reach(reached, g, link).get(to);
        }
        boolean[] found = {false};
        problem.forEachFabricLink(from, to, l -> found[0] |= l == link);
        return found[0];
    }
}
