package io.heliograph.virtue.engine;

import java.util.Arrays;

/**
 * A placement being changed one move or swap at a time, with its loads kept up to date incrementally:
 * a change touches only the changed VMs' CPU and NIC figures and the links on the paths of their flows,
 * and the most utilised resource is kept in a {@link MaxTree}, so evaluating a neighbour costs the
 * changed VMs' degree times path length times log(resources), not a pass over every link.
 *
 * <p>Loads are whole numbers ({@link PlacementProblem#SCALE}), so a state after any sequence of changes
 * holds exactly the loads {@link Estimator} computes from scratch. A VM on PM -1 is not placed (Greedy
 * Fill starts with none placed) and contributes nothing.
 *
 * <p>Resources in the tree, by estimate: PM CPUs (unless {@link Energy#NETWORK}), then PM NICs sending and
 * receiving ({@link Energy#CPU_NIC}, {@link Energy#CPU_NIC_TRAFFIC}), or every link ({@link Energy#ALL},
 * {@link Energy#NETWORK}).
 */
final class LoadState {

    private final PlacementProblem problem;
    private final Energy kind;
    private final int[] pmOf;
    private final int[] vmsOn;
    private final long[] cpu;
    private final long[] nicTx;
    private final long[] nicRx;
    private final long[] link;
    private final MaxTree tree;
    private final int nicOffset;
    private final int linkOffset;
    private int overloaded;
    /** Marks the flows of the VMs being changed, so a flow between two of them is counted once. */
    private final int[] flowStamp;
    private int stamp;
    private final int[] changed = new int[2];
    private final int[] touched;

    LoadState(PlacementProblem problem, Energy kind, int[] pmOf) {
        this.problem = problem;
        this.kind = kind;
        int m = problem.pmCount();
        this.pmOf = new int[pmOf.length];
        Arrays.fill(this.pmOf, -1);
        vmsOn = new int[m];
        cpu = new long[m];
        nicTx = new long[m];
        nicRx = new long[m];
        link = new long[problem.linkCount()];
        boolean nic = kind == Energy.CPU_NIC || kind == Energy.CPU_NIC_TRAFFIC;
        int cpuResources = kind.usesCpu() ? m : 0;
        nicOffset = cpuResources;
        linkOffset = cpuResources;
        int size = cpuResources + (nic ? 2 * m : 0) + (kind.usesLinks() ? link.length : 0);
        tree = new MaxTree(size);
        for (int r = 0; r < size; r++) {
            tree.set(r, 0);
        }
        flowStamp = new int[problem.flowCount()];
        touched = new int[problem.flowCount()];
        for (int v = 0; v < pmOf.length; v++) {
            if (pmOf[v] >= 0) {
                place(v, pmOf[v]);
            }
        }
    }

    /** The energy: the most utilised resource under this state's estimate. */
    double energy() {
        return Math.max(tree.max(), 0);
    }

    /** The resource index of the most utilised resource, for {@link #isLink}/{@link #linkOf}. */
    int hottest() {
        return tree.argmax();
    }

    boolean isLink(int resource) {
        return kind.usesLinks() && resource >= linkOffset;
    }

    int linkOf(int resource) {
        return resource - linkOffset;
    }

    /** Whether every PM's VMs fit its CPU capacity. */
    boolean withinCpu() {
        return overloaded == 0;
    }

    /** Whether a VM fits on a PM besides what is there: a free slot, and CPU room if the estimate knows CPU. */
    boolean fits(int vm, int pm) {
        if (vmsOn[pm] >= problem.maxVmsPerPm()) {
            return false;
        }
        return !kind.usesCpu() || cpu[pm] + problem.vmCpu[vm] <= problem.cpuCapacity[pm];
    }

    int pmOf(int vm) {
        return pmOf[vm];
    }

    int vmsOn(int pm) {
        return vmsOn[pm];
    }

    int[] assignment() {
        return pmOf.clone();
    }

    long linkLoad(int l) {
        return link[l];
    }

    /**
     * The energy if an unplaced VM were put on a PM, without changing anything: placing a VM only adds
     * load, so it is the larger of the current maximum and the new figures of the resources the VM
     * touches. Threads may call this at once, each with its own {@link Scratch}, while nothing changes
     * the state; Greedy Fill evaluates its candidate PMs so.
     */
    double energyIfPlaced(int vm, int pm, Scratch scratch) {
        if (pmOf[vm] >= 0) {
            throw new IllegalStateException(problem.vmIds[vm] + " is placed already");
        }
        double max = energy();
        if (kind.usesCpu()) {
            max = Math.max(max, (cpu[pm] + problem.vmCpu[vm]) / problem.cpuCapacity[pm]);
        }
        int m = problem.pmCount();
        if (kind == Energy.CPU_NIC) {
            max = Math.max(max, (nicTx[pm] + problem.vmTx[vm]) / problem.nicCapacityTx[pm]);
            max = Math.max(max, (nicRx[pm] + problem.vmRx[vm]) / problem.nicCapacityRx[pm]);
            return max;
        }
        scratch.clear();
        for (int f : problem.flowsOf[vm]) {
            int a = problem.flowSource[f];
            int b = problem.flowDestination[f];
            int pa = a == vm ? pm : pmOf[a];
            int pb = b == vm ? pm : pmOf[b];
            if (pa < 0 || pb < 0) {
                continue;
            }
            long rate = problem.flowRate[f];
            if (kind == Energy.CPU_NIC_TRAFFIC) {
                if (pa != pb) {
                    scratch.add(pa, rate);
                    scratch.add(m + pb, rate);
                }
            } else if (kind.usesLinks()) {
                scratch.add(problem.upLink(a), rate);
                scratch.add(problem.downLink(b), rate);
                problem.forEachFabricLink(pa, pb, l -> scratch.add(l, rate));
            }
        }
        for (int i = 0; i < scratch.count; i++) {
            int r = scratch.touched[i];
            double util;
            if (kind == Energy.CPU_NIC_TRAFFIC) {
                util = r < m ? (nicTx[r] + scratch.delta[r]) / problem.nicCapacityTx[r]
                        : (nicRx[r - m] + scratch.delta[r]) / problem.nicCapacityRx[r - m];
            } else {
                util = (link[r] + scratch.delta[r]) / problem.linkCapacity[r];
            }
            max = Math.max(max, util);
        }
        return max;
    }

    /**
     * The PM of {@code from} to {@code to} (but {@code skip}) that gives an unplaced VM the lowest
     * {@link #energyIfPlaced} below {@code bound}, strictly, so the leftmost of equals; PM -1 and the bound
     * when none does. The figures are exactly those of evaluating every PM in full, in less time: a VM's
     * two links and its peers' links carry the same load wherever it goes, and on a PM of a group (a
     * rack, {@link PlacementProblem#pmGroup}) that hosts none of its peers every other link but the PM's
     * own two edge links does too, so those are summed once per group, and such a PM costs its CPU and
     * edge figures only. A PM hosting a peer, or in no group, is evaluated in full. Threads may call this
     * at once, each with its own {@link Scratch}, while nothing changes the state.
     */
    PmRanges.Candidate bestIfPlaced(int vm, int from, int to, double bound, int skip, Scratch scratch) {
        double minUtil = bound;
        int minPm = -1;
        if (!kind.usesLinks()) {
            for (int pm = from; pm < to; pm++) {
                if (pm != skip && fits(vm, pm)) {
                    double util = energyIfPlaced(vm, pm, scratch);
                    if (util < minUtil) {
                        minUtil = util;
                        minPm = pm;
                    }
                }
            }
            return new PmRanges.Candidate(minPm, minUtil);
        }
        if (pmOf[vm] >= 0) {
            throw new IllegalStateException(problem.vmIds[vm] + " is placed already");
        }
        double base = energy();
        if (base >= bound) {
            return new PmRanges.Candidate(-1, bound); // placing only adds load: no PM goes below the bound
        }
        int stamp = ++scratch.stamp;
        long out = 0;
        long in = 0;
        scratch.clear();
        scratch.peerRacks = 0;
        scratch.looseFlows = 0;
        for (int f : problem.flowsOf[vm]) {
            int a = problem.flowSource[f];
            int b = problem.flowDestination[f];
            int peerPm = pmOf[a == vm ? b : a];
            if (peerPm < 0) {
                continue;
            }
            long rate = problem.flowRate[f];
            if (a == vm) {
                out += rate;
            } else {
                in += rate;
            }
            scratch.add(problem.upLink(a), rate);
            scratch.add(problem.downLink(b), rate);
            scratch.peerStamp[peerPm] = stamp;
            int h = problem.pmGroup[peerPm];
            if (h < 0) {
                scratch.looseFlow[scratch.looseFlows++] = f;
                continue;
            }
            // a peer's own edge link carries the flow wherever in a rack the VM goes (but on the peer's PM)
            scratch.add(a == vm ? problem.pmEdgeDown[peerPm] : problem.pmEdgeUp[peerPm], rate);
            if (scratch.rackStamp[h] != stamp) {
                scratch.rackStamp[h] = stamp;
                scratch.rackOut[h] = 0;
                scratch.rackIn[h] = 0;
                scratch.peerRack[scratch.peerRacks++] = h;
            }
            if (a == vm) {
                scratch.rackOut[h] += rate;
            } else {
                scratch.rackIn[h] += rate;
            }
        }
        double shared = maxWith(base, scratch);
        // a flow to a peer on a PM in no rack takes its own path from each group, so blocks are not summed then
        boolean blocks = scratch.looseFlows == 0;
        for (int pm = from; pm < to; pm++) {
            if (pm == skip || !fits(vm, pm)) {
                continue;
            }
            int g = problem.pmGroup[pm];
            boolean blocked = blocks && g >= 0 && problem.groupBlock[g] >= 0;
            double util;
            if (g < 0 || scratch.peerStamp[pm] == stamp) {
                // the links beyond the rack's switch carry the same load from a PM hosting a peer: a bound
                if (blocked && blockedGroupMax(g, base, out, in, scratch) >= minUtil) {
                    continue;
                }
                util = energyIfPlaced(vm, pm, scratch);
            } else {
                if (scratch.groupStamp[g] != stamp) {
                    scratch.groupStamp[g] = stamp;
                    scratch.groupMax[g] = blocked ? Math.max(shared, blockedGroupMax(g, base, out, in, scratch))
                            : groupMax(g, shared, scratch);
                }
                util = scratch.groupMax[g];
                if (kind.usesCpu()) {
                    util = Math.max(util, (cpu[pm] + problem.vmCpu[vm]) / problem.cpuCapacity[pm]);
                }
                if (out > 0) {
                    int l = problem.pmEdgeUp[pm];
                    util = Math.max(util, (link[l] + out) / problem.linkCapacity[l]);
                }
                if (in > 0) {
                    int l = problem.pmEdgeDown[pm];
                    util = Math.max(util, (link[l] + in) / problem.linkCapacity[l]);
                }
            }
            if (util < minUtil) {
                minUtil = util;
                minPm = pm;
            }
        }
        return new PmRanges.Candidate(minPm, minUtil);
    }

    /**
     * The largest figure, of {@code start} and the links between group {@code g}'s switch and the peers'
     * racks' switches, once an unplaced VM's flows to its placed peers go from (and to) that switch: what
     * every member of the group hosting none of the peers shares besides {@code start} (the VMs' own
     * links and the peers' edge links). The flows are summed per peer rack first, as a rack's PMs are
     * reached through its switch; a peer on a PM in no rack takes its own path.
     */
    private double groupMax(int g, double start, Scratch scratch) {
        scratch.clear();
        for (int i = 0; i < scratch.peerRacks; i++) {
            int h = scratch.peerRack[i];
            long out = scratch.rackOut[h];
            long in = scratch.rackIn[h];
            if (out > 0) {
                problem.forEachLinkBetweenGroups(g, h, l -> scratch.add(l, out));
            }
            if (in > 0) {
                problem.forEachLinkBetweenGroups(h, g, l -> scratch.add(l, in));
            }
        }
        for (int i = 0; i < scratch.looseFlows; i++) {
            int f = scratch.looseFlow[i];
            int a = problem.flowSource[f];
            int b = problem.flowDestination[f];
            long rate = problem.flowRate[f];
            if (pmOf[a] < 0) {
                problem.forEachLinkFromGroup(g, pmOf[b], l -> scratch.add(l, rate));
            } else {
                problem.forEachLinkToGroup(pmOf[a], g, l -> scratch.add(l, rate));
            }
        }
        return maxWith(start, scratch);
    }

    /**
     * What {@link #groupMax} gives from {@code base} for group {@code g} of a block, from figures shared by
     * the block: once an unplaced VM (sending {@code out} and receiving {@code in} in all) goes to the group,
     * its flows to racks outside the block cross the group's links to and from the block switch and then
     * that switch's own paths, the same for every group of the block ({@link #blockFigures}); its flows to
     * another rack of the block cross the two racks' links to the block switch. Those are the same links
     * with the same loads as {@link #groupMax} walks, so the same figure. No peer may sit on a PM in no rack.
     */
    private double blockedGroupMax(int g, double base, long out, long in, Scratch scratch) {
        if (scratch.figureStamp[g] == scratch.stamp) {
            return scratch.figure[g];
        }
        int b = problem.groupBlock[g];
        if (scratch.blockStamp[b] != scratch.stamp) {
            blockFigures(b, base, scratch);
        }
        double max = Math.max(scratch.blockBeyond[b],
                scratch.blockTopGroup[b] == g ? scratch.blockSecond[b] : scratch.blockTop[b]);
        boolean peers = scratch.rackStamp[g] == scratch.stamp;
        int up = problem.groupUp[g];
        int down = problem.groupDown[g];
        max = Math.max(max, (link[up] + out - (peers ? scratch.rackOut[g] : 0)) / problem.linkCapacity[up]);
        max = Math.max(max, (link[down] + in - (peers ? scratch.rackIn[g] : 0)) / problem.linkCapacity[down]);
        scratch.figureStamp[g] = scratch.stamp;
        scratch.figure[g] = max;
        return max;
    }

    /**
     * Block {@code b}'s shared figures for the VM being placed: the largest of {@code base} and the links
     * beyond the block switch once the VM's flows to the peer racks outside the block go from (and to) it,
     * and, per peer rack inside the block, its two links to the block switch with the VM's traffic to and
     * from it: the largest two of those, so that a group's own figure can be left out.
     */
    private void blockFigures(int b, double base, Scratch scratch) {
        scratch.clear();
        double top = base;
        double second = base;
        int topGroup = -1;
        for (int i = 0; i < scratch.peerRacks; i++) {
            int h = scratch.peerRack[i];
            long out = scratch.rackOut[h];
            long in = scratch.rackIn[h];
            if (problem.groupBlock[h] == b) {
                int down = problem.groupDown[h];
                int up = problem.groupUp[h];
                double figure = Math.max((link[down] + out) / problem.linkCapacity[down],
                        (link[up] + in) / problem.linkCapacity[up]);
                if (figure > top) {
                    second = top;
                    top = figure;
                    topGroup = h;
                } else if (figure > second) {
                    second = figure;
                }
                continue;
            }
            if (out > 0) {
                problem.forEachLinkFromBlock(b, h, l -> scratch.add(l, out));
            }
            if (in > 0) {
                problem.forEachLinkToBlock(h, b, l -> scratch.add(l, in));
            }
        }
        scratch.blockStamp[b] = scratch.stamp;
        scratch.blockBeyond[b] = maxWith(base, scratch);
        scratch.blockTop[b] = top;
        scratch.blockSecond[b] = second;
        scratch.blockTopGroup[b] = topGroup;
    }

    /** The largest of {@code start} and the links' utilisations with the scratch's loads added. */
    private double maxWith(double start, Scratch scratch) {
        double max = start;
        for (int i = 0; i < scratch.count; i++) {
            int r = scratch.touched[i];
            max = Math.max(max, (link[r] + scratch.delta[r]) / problem.linkCapacity[r]);
        }
        return max;
    }

    /** Per-thread working space of {@link #energyIfPlaced} and {@link #bestIfPlaced}. */
    static final class Scratch {

        /** Load added per link (or NIC), and which were touched. */
        private final long[] delta;
        private final int[] touched;
        private int count;
        /** Per PM: whether it hosts a peer of the VM being placed (equal to {@link #stamp}). */
        private final int[] peerStamp;
        /** Per group: its shared figure for the VM being placed, valid when equal to {@link #stamp}. */
        private final int[] groupStamp;
        private final double[] groupMax;
        private int stamp;
        /** The racks (groups) hosting placed peers of the VM being placed, with its traffic to and from each. */
        private final int[] peerRack;
        private int peerRacks;
        private final int[] rackStamp;
        private final long[] rackOut;
        private final long[] rackIn;
        /** Per group of a block: its figure from the block's, valid when {@link #figureStamp} equals {@link #stamp}. */
        private final int[] figureStamp;
        private final double[] figure;
        /** Per block: its shared figures ({@link LoadState#blockFigures}), valid when equal to {@link #stamp}. */
        private final int[] blockStamp;
        private final double[] blockBeyond;
        private final double[] blockTop;
        private final double[] blockSecond;
        private final int[] blockTopGroup;
        /** The VM's flows with a placed peer on a PM in no rack. */
        private final int[] looseFlow;
        private int looseFlows;

        Scratch(PlacementProblem problem) {
            int size = Math.max(problem.linkCount(), 2 * problem.pmCount());
            delta = new long[size];
            touched = new int[size];
            peerStamp = new int[problem.pmCount()];
            groupStamp = new int[problem.groupCount()];
            groupMax = new double[problem.groupCount()];
            peerRack = new int[problem.groupCount()];
            rackStamp = new int[problem.groupCount()];
            rackOut = new long[problem.groupCount()];
            rackIn = new long[problem.groupCount()];
            figureStamp = new int[problem.groupCount()];
            figure = new double[problem.groupCount()];
            blockStamp = new int[problem.blockCount()];
            blockBeyond = new double[problem.blockCount()];
            blockTop = new double[problem.blockCount()];
            blockSecond = new double[problem.blockCount()];
            blockTopGroup = new int[problem.blockCount()];
            int degree = 0;
            for (int[] flows : problem.flowsOf) {
                degree = Math.max(degree, flows.length);
            }
            looseFlow = new int[degree];
        }

        void add(int resource, long rate) {
            if (delta[resource] == 0) {
                touched[count++] = resource;
            }
            delta[resource] += rate;
        }

        void clear() {
            for (int i = 0; i < count; i++) {
                delta[touched[i]] = 0;
            }
            count = 0;
        }
    }

    /** Puts an unplaced VM on a PM (or moves a placed one). */
    void place(int vm, int pm) {
        changed[0] = vm;
        change(1, pm, -1);
    }

    /** Takes a VM off its PM. */
    void unplace(int vm) {
        place(vm, -1);
    }

    /** Moves a VM to another PM. */
    void move(int vm, int pm) {
        place(vm, pm);
    }

    /** Swaps two VMs' PMs. */
    void swap(int a, int b) {
        changed[0] = a;
        changed[1] = b;
        change(2, pmOf[b], pmOf[a]);
    }

    private void change(int count, int firstPm, int secondPm) {
        stamp++;
        int flows = 0;
        for (int i = 0; i < count; i++) {
            for (int f : problem.flowsOf[changed[i]]) {
                if (flowStamp[f] != stamp) {
                    flowStamp[f] = stamp;
                    touched[flows++] = f;
                }
            }
        }
        for (int i = 0; i < flows; i++) {
            flow(touched[i], -1);
        }
        for (int i = 0; i < count; i++) {
            vm(changed[i], -1);
        }
        pmOf[changed[0]] = firstPm;
        if (count == 2) {
            pmOf[changed[1]] = secondPm;
        }
        for (int i = 0; i < count; i++) {
            vm(changed[i], +1);
        }
        for (int i = 0; i < flows; i++) {
            flow(touched[i], +1);
        }
    }

    /** Adds (+1) or removes (-1) a VM's own figures where it is: its CPU, its slot, its NIC counters. */
    private void vm(int v, int sign) {
        int p = pmOf[v];
        if (p < 0) {
            return;
        }
        vmsOn[p] += sign;
        long before = cpu[p];
        cpu[p] += sign * problem.vmCpu[v];
        boolean wasOver = before > problem.cpuCapacity[p];
        boolean isOver = cpu[p] > problem.cpuCapacity[p];
        overloaded += (isOver ? 1 : 0) - (wasOver ? 1 : 0);
        if (kind.usesCpu()) {
            tree.set(p, cpu[p] / problem.cpuCapacity[p]);
        }
        if (kind == Energy.CPU_NIC) {
            nicTx[p] += sign * problem.vmTx[v];
            nicRx[p] += sign * problem.vmRx[v];
            setNic(p);
        }
    }

    /** Adds (+1) or removes (-1) a flow's load where its two VMs are. */
    private void flow(int f, int sign) {
        int a = problem.flowSource[f];
        int b = problem.flowDestination[f];
        int pa = pmOf[a];
        int pb = pmOf[b];
        if (pa < 0 || pb < 0) {
            return;
        }
        long rate = sign * problem.flowRate[f];
        if (kind == Energy.CPU_NIC_TRAFFIC) {
            if (pa != pb) {
                nicTx[pa] += rate;
                nicRx[pb] += rate;
                setNic(pa);
                setNic(pb);
            }
        } else if (kind.usesLinks()) {
            addLink(problem.upLink(a), rate);
            addLink(problem.downLink(b), rate);
            problem.forEachFabricLink(pa, pb, l -> addLink(l, rate));
        }
    }

    private void addLink(int l, long rate) {
        link[l] += rate;
        tree.set(linkOffset + l, link[l] / problem.linkCapacity[l]);
    }

    private void setNic(int p) {
        int m = problem.pmCount();
        tree.set(nicOffset + p, nicTx[p] / problem.nicCapacityTx[p]);
        tree.set(nicOffset + m + p, nicRx[p] / problem.nicCapacityRx[p]);
    }
}
