package io.heliograph.virtue.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What every placement algorithm works on: an EDF and a run's measurements, checked against each other
 * and indexed (VMs, PMs and links by number) so the algorithms run on arrays.
 *
 * <p>Links are numbered: first the switches' links in file order, then each VM's link up to its PM's
 * software switch ({@link #upLink}), then each VM's link down from it ({@link #downLink}). A VM's two
 * links move with it; their capacity is the VM link's own {@code LINK_SPEED}, else
 * {@code INTRA_PM_LINK_SPEED}, else {@code LINK_SPEED}.
 *
 * <p>Traffic between PMs follows the fewest-hops path over the switches' links, the first found in file
 * order when several tie (in the thesis's tree subset of the fat tree the path is unique, spec §2.4.2);
 * traffic between VMs on one PM crosses only their two VM links (spec §3.5).
 *
 * <p>Rates and CPU figures are kept as whole thousandths ({@link #SCALE}) so that loads add and subtract
 * exactly: a load updated by a million moves equals the load recomputed from scratch, bit for bit.
 */
public final class PlacementProblem {

    /** Figures are kept in thousandths of a bit (or cycle) per second. */
    static final double SCALE = 1000;
    /** The largest figure taken: far above any NIC or CPU, far below what could overflow a sum of them. */
    static final double MAX_FIGURE = 1e12;

    private final Edf edf;
    private final int maxVmsPerPm;
    final String[] vmIds;
    final String[] pmIds;
    final String[] pmSwitchIds;
    private final Map<String, Integer> vmIndex = new HashMap<>();
    private final Map<String, Integer> pmIndex = new HashMap<>();
    /** Per PM: CPU capacity in thousandths of a cycle per second. */
    final double[] cpuCapacity;
    /** Per PM: capacity of the links out of (tx) and into (rx) its switch, in thousandths of a bit per second. */
    final double[] nicCapacityTx;
    final double[] nicCapacityRx;
    final int fabricLinks;
    final String[] fabricLinkIds;
    /** Per link (fabric, then VM up links, then VM down links): capacity in thousandths of a bit per second. */
    final double[] linkCapacity;
    /** Per source PM, per switch: the link by which the fewest-hops tree from that PM's switch reaches it. */
    private final int[][] parentLink;
    /** Per fabric link, the network node (switch) it leaves and the one it enters. */
    final int[] fabricSource;
    final int[] fabricDestination;
    /** Per PM, its switch's network node. */
    final int[] pmNode;
    /**
     * Per PM: its group, or -1. PMs of one group hang from one switch (their rack's ToR) by their
     * switch's only link out and only link in, and every path from one of them is its link up and then
     * the group switch's own fewest-hops path: so, for a VM placed on any member that hosts none of its
     * peers, every link but the member's two edge links carries the same load (Greedy Fill and Greedy
     * Net evaluate the rest once per group, {@link LoadState#bestIfPlaced}).
     */
    final int[] pmGroup;
    /** Per grouped PM: its switch's only link out (to the group switch) and only link in. */
    final int[] pmEdgeUp;
    final int[] pmEdgeDown;
    /** Per fabric link: the grouped PM whose edge link it is, or -1; such a link is on no other PM's paths. */
    final int[] edgePm;
    /** Per group: the switch its PMs hang from, and the fewest-hops tree from that switch. */
    private final int[] groupNode;
    private final int[][] groupParent;
    /**
     * Per group: its block, or -1. The groups of one block hang from one switch A (their aggregation
     * switch) as a rack's PMs hang from its switch: the group switch's only link out but its members' edge
     * links goes to A, its only link in comes from A, and its fewest-hops tree is A's own beyond A. So a
     * flow from a member of one block's group to a rack outside the block crosses the group's link up and
     * then A's own path, the same for every group of the block ({@link LoadState#bestIfPlaced} sums it
     * once per block).
     */
    final int[] groupBlock;
    /** Per group in a block: its switch's link to the block switch, and the one back. */
    final int[] groupUp;
    final int[] groupDown;
    /** Per block: the switch its groups hang from, and the fewest-hops tree from that switch. */
    private final int[] blockNode;
    private final int[][] blockParent;
    final long[] vmCpu;
    final long[] vmTx;
    final long[] vmRx;
    final int[] flowSource;
    final int[] flowDestination;
    final long[] flowRate;
    /** Per VM: the flows it sends or receives, each once. */
    final int[][] flowsOf;
    final int[] start;
    /** Per VM: the ports of its link up (VM side, switch side) and of its link down (switch side, VM side), as the EDF gives them. */
    private final int[][] vmUpPorts;
    private final int[][] vmDownPorts;

    private PlacementProblem(Edf edf, Measurements measurements, int maxVmsPerPm) {
        List<Problem> problems = new ArrayList<>(EdfFormat.problems(edf, maxVmsPerPm));
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        this.edf = edf;
        this.maxVmsPerPm = maxVmsPerPm;
        int m = edf.pms().size();
        pmIds = new String[m];
        pmSwitchIds = new String[m];
        cpuCapacity = new double[m];
        List<String> vms = new ArrayList<>();
        List<Integer> startPm = new ArrayList<>();
        List<Edf.Switch> software = edf.switches().stream().filter(Edf.Switch::software).toList();
        for (int p = 0; p < m; p++) {
            Edf.Pm pm = edf.pms().get(p);
            pmIds[p] = pm.id();
            pmIndex.put(pm.id(), p);
            pmSwitchIds[p] = software.get(p).id();
            cpuCapacity[p] = number(pm.parameters(), edf.parameters(), Edf.CPU_COUNT)
                    * number(pm.parameters(), edf.parameters(), Edf.CPU_SPEED) * SCALE;
            for (String vm : pm.vms().keySet()) {
                vmIndex.put(vm, vms.size());
                vms.add(vm);
                startPm.add(p);
            }
        }
        vmIds = vms.toArray(String[]::new);
        int n = vmIds.length;
        start = startPm.stream().mapToInt(Integer::intValue).toArray();

        Map<String, Integer> node = new HashMap<>();
        for (Edf.Switch sw : edf.switches()) {
            node.put(sw.id(), node.size());
        }
        pmNode = new int[m];
        for (int p = 0; p < m; p++) {
            pmNode[p] = node.get(pmSwitchIds[p]);
        }
        List<Edf.Link> fabric = new ArrayList<>();
        double[] vmLinkUp = new double[n];
        double[] vmLinkDown = new double[n];
        vmUpPorts = new int[n][2];
        vmDownPorts = new int[n][2];
        for (Edf.Link link : edf.links()) {
            Integer up = vmIndex.get(link.sourceId());
            Integer down = vmIndex.get(link.destinationId());
            if (up != null) {
                vmLinkUp[up] = edf.linkBitsPerSecond(link);
                vmUpPorts[up] = new int[] {link.sourcePort(), link.destinationPort()};
            } else if (down != null) {
                vmLinkDown[down] = edf.linkBitsPerSecond(link);
                vmDownPorts[down] = new int[] {link.sourcePort(), link.destinationPort()};
            } else {
                fabric.add(link);
            }
        }
        fabricLinks = fabric.size();
        fabricLinkIds = new String[fabricLinks];
        fabricSource = new int[fabricLinks];
        fabricDestination = new int[fabricLinks];
        linkCapacity = new double[fabricLinks + 2 * n];
        nicCapacityTx = new double[m];
        nicCapacityRx = new double[m];
        List<List<Integer>> out = new ArrayList<>();
        for (int s = 0; s < node.size(); s++) {
            out.add(new ArrayList<>());
        }
        for (int l = 0; l < fabricLinks; l++) {
            Edf.Link link = fabric.get(l);
            fabricLinkIds[l] = link.id();
            fabricSource[l] = node.get(link.sourceId());
            fabricDestination[l] = node.get(link.destinationId());
            linkCapacity[l] = edf.linkBitsPerSecond(link) * SCALE;
            out.get(fabricSource[l]).add(l);
        }
        for (int p = 0; p < m; p++) {
            for (int l = 0; l < fabricLinks; l++) {
                if (fabricSource[l] == pmNode[p]) {
                    nicCapacityTx[p] += linkCapacity[l];
                }
                if (fabricDestination[l] == pmNode[p]) {
                    nicCapacityRx[p] += linkCapacity[l];
                }
            }
        }
        for (int p = 0; p < m; p++) {
            // a PM whose switch has no links out (a one-PM experiment) sends nothing: no NIC figure to raise
            nicCapacityTx[p] = nicCapacityTx[p] > 0 ? nicCapacityTx[p] : Double.POSITIVE_INFINITY;
            nicCapacityRx[p] = nicCapacityRx[p] > 0 ? nicCapacityRx[p] : Double.POSITIVE_INFINITY;
        }
        for (int v = 0; v < n; v++) {
            linkCapacity[fabricLinks + v] = vmLinkUp[v] * SCALE;
            linkCapacity[fabricLinks + n + v] = vmLinkDown[v] * SCALE;
        }
        parentLink = new int[m][];
        for (int p = 0; p < m; p++) {
            parentLink[p] = tree(pmNode[p], node.size(), out, fabricDestination);
        }
        pmGroup = new int[m];
        pmEdgeUp = new int[m];
        pmEdgeDown = new int[m];
        edgePm = new int[fabricLinks];
        Arrays.fill(edgePm, -1);
        List<int[]> groupParents = new ArrayList<>();
        List<Integer> groupNodes = new ArrayList<>();
        group(node.size(), out, groupNodes, groupParents);
        groupNode = groupNodes.stream().mapToInt(Integer::intValue).toArray();
        groupParent = groupParents.toArray(int[][]::new);
        groupBlock = new int[groupNode.length];
        groupUp = new int[groupNode.length];
        groupDown = new int[groupNode.length];
        List<int[]> blockParents = new ArrayList<>();
        List<Integer> blockNodes = new ArrayList<>();
        block(node.size(), out, blockNodes, blockParents);
        blockNode = blockNodes.stream().mapToInt(Integer::intValue).toArray();
        blockParent = blockParents.toArray(int[][]::new);

        vmCpu = new long[n];
        vmTx = new long[n];
        vmRx = new long[n];
        Map<String, Double> cpu = measurements.cpu();
        for (Map.Entry<String, Double> entry : cpu.entrySet()) {
            String at = "measurements.cpu" + EdfFormat.key(entry.getKey());
            Integer v = known(problems, at, entry.getKey());
            long value = figure(problems, at, entry.getValue());
            if (v != null) {
                vmCpu[v] = value;
            }
        }
        List<int[]> pairs = new ArrayList<>();
        List<Long> rates = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        long[] sumTx = new long[n];
        long[] sumRx = new long[n];
        for (int i = 0; i < measurements.traffic().size(); i++) {
            Measurements.Flow flow = measurements.traffic().get(i);
            String at = "measurements.traffic[" + i + "]";
            Integer a = known(problems, at + ".source", flow.source());
            Integer b = known(problems, at + ".destination", flow.destination());
            long rate = figure(problems, at + ".bitsPerSecond", flow.bitsPerSecond());
            if (a == null || b == null || rate < 0) {
                continue;
            }
            if (a.equals(b)) {
                problems.add(new Problem(at, "from " + flow.source() + " to itself"));
            } else if (!seen.add((long) a * n + b)) {
                problems.add(new Problem(at, "a second figure from " + flow.source() + " to " + flow.destination()));
            } else if (rate > 0) {
                pairs.add(new int[] {a, b});
                rates.add(rate);
                sumTx[a] += rate;
                sumRx[b] += rate;
            }
        }
        for (int v = 0; v < n; v++) {
            Measurements.Nic nic = measurements.nic().get(vmIds[v]);
            vmTx[v] = nic == null ? sumTx[v] : 0;
            vmRx[v] = nic == null ? sumRx[v] : 0;
        }
        for (Map.Entry<String, Measurements.Nic> entry : measurements.nic().entrySet()) {
            String at = "measurements.nic" + EdfFormat.key(entry.getKey());
            Integer v = known(problems, at, entry.getKey());
            long tx = figure(problems, at + ".sentBitsPerSecond", entry.getValue().sentBitsPerSecond());
            long rx = figure(problems, at + ".receivedBitsPerSecond", entry.getValue().receivedBitsPerSecond());
            if (v != null) {
                vmTx[v] = Math.max(tx, 0);
                vmRx[v] = Math.max(rx, 0);
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        int f = pairs.size();
        flowSource = new int[f];
        flowDestination = new int[f];
        flowRate = new long[f];
        int[] degree = new int[n];
        for (int i = 0; i < f; i++) {
            flowSource[i] = pairs.get(i)[0];
            flowDestination[i] = pairs.get(i)[1];
            flowRate[i] = rates.get(i);
            degree[flowSource[i]]++;
            degree[flowDestination[i]]++;
        }
        flowsOf = new int[n][];
        for (int v = 0; v < n; v++) {
            flowsOf[v] = new int[degree[v]];
            degree[v] = 0;
        }
        for (int i = 0; i < f; i++) {
            flowsOf[flowSource[i]][degree[flowSource[i]]++] = i;
            flowsOf[flowDestination[i]][degree[flowDestination[i]]++] = i;
        }
    }

    /** An EDF and its run's measurements with the thesis's limit of 4 VMs per PM; {@link InvalidInputException} lists every problem. */
    public static PlacementProblem of(Edf edf, Measurements measurements) {
        return of(edf, measurements, EdfFormat.DEFAULT_MAX_VMS_PER_PM);
    }

    /** An EDF and its run's measurements; {@link InvalidInputException} lists every problem. */
    public static PlacementProblem of(Edf edf, Measurements measurements, int maxVmsPerPm) {
        if (maxVmsPerPm < 1) {
            throw new IllegalArgumentException("maxVmsPerPm must be at least 1, not " + maxVmsPerPm);
        }
        return new PlacementProblem(edf, measurements, maxVmsPerPm);
    }

    public Edf edf() {
        return edf;
    }

    public int maxVmsPerPm() {
        return maxVmsPerPm;
    }

    public int vmCount() {
        return vmIds.length;
    }

    public int pmCount() {
        return pmIds.length;
    }

    public int linkCount() {
        return linkCapacity.length;
    }

    public int flowCount() {
        return flowRate.length;
    }

    /** The placement the EDF describes: where the measurements were taken. */
    public Placement start() {
        return new Placement(this, start);
    }

    /** A placement given VM id to PM id; every VM must be placed, on a known PM. */
    public Placement placement(Map<String, String> pmByVm) {
        int[] assignment = new int[vmIds.length];
        for (int v = 0; v < vmIds.length; v++) {
            String pm = pmByVm.get(vmIds[v]);
            Integer p = pm == null ? null : pmIndex.get(pm);
            if (p == null) {
                throw new IllegalArgumentException(vmIds[v] + " is on " + (pm == null ? "no PM" : "unknown PM " + pm));
            }
            assignment[v] = p;
        }
        return new Placement(this, assignment);
    }

    /**
     * The EDF of a new placement, for the next run: each VM moved into its new PM's {@code vms}, its two
     * links re-attached to that PM's software switch (ports and parameters kept), every route of the
     * original EDF recomputed for where its VMs now are, and the given parameters set (an optimiser's
     * name, runtime, predicted utilisation). Everything else is as the original.
     */
    public Edf edfOf(Placement placement, Map<String, String> parameterChanges) {
        int[] pmOf = placement.assignment();
        Map<String, String> parameters = new java.util.LinkedHashMap<>(edf.parameters());
        parameters.putAll(parameterChanges);
        Map<String, Edf.Vm> vms = new HashMap<>();
        for (Edf.Pm pm : edf.pms()) {
            vms.putAll(pm.vms());
        }
        List<Map<String, Edf.Vm>> vmsOn = new ArrayList<>();
        for (int p = 0; p < pmIds.length; p++) {
            vmsOn.add(new java.util.LinkedHashMap<>());
        }
        for (int v = 0; v < vmIds.length; v++) {
            vmsOn.get(pmOf[v]).put(vmIds[v], vms.get(vmIds[v]));
        }
        List<Edf.Pm> pms = new ArrayList<>();
        for (int p = 0; p < pmIds.length; p++) {
            Edf.Pm pm = edf.pms().get(p);
            pms.add(new Edf.Pm(pm.id(), pm.parameters(), vmsOn.get(p)));
        }
        List<Edf.Link> links = new ArrayList<>();
        Map<Integer, String> upIds = new HashMap<>();
        Map<Integer, String> downIds = new HashMap<>();
        for (Edf.Link link : edf.links()) {
            Integer up = vmIndex.get(link.sourceId());
            Integer down = vmIndex.get(link.destinationId());
            if (up != null) {
                String sw = pmSwitchIds[pmOf[up]];
                link = new Edf.Link(Edf.Link.idOf(link.sourceId(), link.sourcePort(), sw, link.destinationPort()),
                        link.sourceId(), link.sourcePort(), sw, link.destinationPort(), link.parameters());
                upIds.put(up, link.id());
            } else if (down != null) {
                String sw = pmSwitchIds[pmOf[down]];
                link = new Edf.Link(Edf.Link.idOf(sw, link.sourcePort(), link.destinationId(), link.destinationPort()),
                        sw, link.sourcePort(), link.destinationId(), link.destinationPort(), link.parameters());
                downIds.put(down, link.id());
            }
            links.add(link);
        }
        List<Edf.Route> routes = new ArrayList<>();
        for (Edf.Route route : edf.routes()) {
            int a = vmIndex.get(route.sourceId());
            int b = vmIndex.get(route.destinationId());
            List<String> backwards = new ArrayList<>();
            backwards.add(downIds.get(b));
            forEachFabricLink(pmOf[a], pmOf[b], l -> backwards.add(fabricLinkIds[l]));
            backwards.add(upIds.get(a));
            java.util.Collections.reverse(backwards);
            routes.add(new Edf.Route(route.sourceId(), route.destinationId(), backwards));
        }
        return new Edf(parameters, pms, edf.switches(), links, routes);
    }

    /** A link's capacity in bits per second; links are numbered 0 to {@link #linkCount()} - 1, as the class says. */
    public double linkBitsPerSecond(int link) {
        return linkCapacity[link] / SCALE;
    }

    /** A link's id when the VMs sit as {@code placement} says (a VM's two links are named after its PM's switch). */
    public String linkId(int link, Placement placement) {
        return linkId(link, placement.assignment());
    }

    /** A PM's CPU capacity, {@code CPU_COUNT} x {@code CPU_SPEED} cycles per second. */
    public double cpuCyclesPerSecond(String pm) {
        return cpuCapacity[pmIndex(pm)] / SCALE;
    }

    /**
     * The links, by number, that a flow from VM {@code a} to VM {@code b} crosses when the VMs sit as
     * {@code placement} says: a's link up, the fewest-hops path between their PMs' switches (none when
     * they share a PM), b's link down. These are the links every estimate here routes the flow over.
     */
    public int[] path(Placement placement, String a, String b) {
        int from = vmIndex(a);
        int to = vmIndex(b);
        if (from == to) {
            throw new IllegalArgumentException("a flow from " + a + " to itself");
        }
        List<Integer> fabric = new ArrayList<>();
        forEachFabricLink(placement.pm(from), placement.pm(to), fabric::add);
        int[] path = new int[fabric.size() + 2];
        path[0] = upLink(from);
        for (int i = 0; i < fabric.size(); i++) {
            path[fabric.size() - i] = fabric.get(i);
        }
        path[path.length - 1] = downLink(to);
        return path;
    }

    /**
     * Finds {@link #pmGroup}: a PM joins the group of switch T when its switch has one link out, to T, and
     * one link in, from T, T is no PM's switch, and its fewest-hops tree is T's own beyond T (checked, not
     * assumed: routes tie-break by file order); any other PM is alone (-1) and evaluated in full.
     */
    private void group(int nodes, List<List<Integer>> out, List<Integer> groupNodes, List<int[]> groupParents) {
        int[] outCount = new int[nodes];
        int[] inCount = new int[nodes];
        int[] onlyOut = new int[nodes];
        int[] onlyIn = new int[nodes];
        for (int l = 0; l < fabricLinks; l++) {
            outCount[fabricSource[l]]++;
            onlyOut[fabricSource[l]] = l;
            inCount[fabricDestination[l]]++;
            onlyIn[fabricDestination[l]] = l;
        }
        boolean[] pmSwitch = new boolean[nodes];
        for (int node : pmNode) {
            pmSwitch[node] = true;
        }
        Map<Integer, Integer> groupOf = new HashMap<>();
        for (int p = 0; p < pmNode.length; p++) {
            int u = pmNode[p];
            pmGroup[p] = -1;
            if (outCount[u] != 1 || inCount[u] != 1) {
                continue;
            }
            int t = fabricDestination[onlyOut[u]];
            if (fabricSource[onlyIn[u]] != t || pmSwitch[t]) {
                continue;
            }
            int g = groupOf.computeIfAbsent(t, at -> {
                groupNodes.add(at);
                groupParents.add(tree(at, nodes, out, fabricDestination));
                return groupNodes.size() - 1;
            });
            if (sameBeyond(parentLink[p], groupParents.get(g), u, t, onlyOut[u])) {
                pmGroup[p] = g;
                pmEdgeUp[p] = onlyOut[u];
                pmEdgeDown[p] = onlyIn[u];
                edgePm[onlyOut[u]] = p;
                edgePm[onlyIn[u]] = p;
            }
        }
    }

    /**
     * Finds {@link #groupBlock}: group g joins the block of switch A when g's switch has, besides its
     * members' edge links, one link out, to A, and one link in, from A, A is no PM's or group's switch,
     * and g's fewest-hops tree is A's own beyond A (checked, as for groups); any other group is alone (-1).
     */
    private void block(int nodes, List<List<Integer>> out, List<Integer> blockNodes, List<int[]> blockParents) {
        int groups = groupNode.length;
        boolean[] memberEdge = new boolean[fabricLinks];
        for (int p = 0; p < pmNode.length; p++) {
            if (pmGroup[p] >= 0) {
                memberEdge[pmEdgeUp[p]] = true;
                memberEdge[pmEdgeDown[p]] = true;
            }
        }
        int[] groupOfNode = new int[nodes];
        Arrays.fill(groupOfNode, -1);
        for (int g = 0; g < groups; g++) {
            groupOfNode[groupNode[g]] = g;
        }
        int[] upCount = new int[groups];
        int[] downCount = new int[groups];
        for (int l = 0; l < fabricLinks; l++) {
            if (memberEdge[l]) {
                continue;
            }
            int from = groupOfNode[fabricSource[l]];
            if (from >= 0) {
                upCount[from]++;
                groupUp[from] = l;
            }
            int to = groupOfNode[fabricDestination[l]];
            if (to >= 0) {
                downCount[to]++;
                groupDown[to] = l;
            }
        }
        boolean[] pmSwitch = new boolean[nodes];
        for (int node : pmNode) {
            pmSwitch[node] = true;
        }
        Map<Integer, Integer> blockOf = new HashMap<>();
        for (int g = 0; g < groups; g++) {
            groupBlock[g] = -1;
            if (upCount[g] != 1 || downCount[g] != 1) {
                continue;
            }
            int a = fabricDestination[groupUp[g]];
            if (fabricSource[groupDown[g]] != a || pmSwitch[a] || groupOfNode[a] >= 0) {
                continue;
            }
            int b = blockOf.computeIfAbsent(a, at -> {
                blockNodes.add(at);
                blockParents.add(tree(at, nodes, out, fabricDestination));
                return blockNodes.size() - 1;
            });
            if (sameBeyond(groupParent[g], blockParents.get(b), groupNode[g], a, groupUp[g])) {
                groupBlock[g] = b;
            }
        }
    }

    /**
     * Whether the fewest-hops tree from switch {@code self} ({@code own}) reaches switch {@code via} by
     * {@code link} and everything else as the tree from {@code via} ({@code shared}) does.
     */
    private static boolean sameBeyond(int[] own, int[] shared, int self, int via, int link) {
        if (own[via] != link) {
            return false;
        }
        for (int w = 0; w < own.length; w++) {
            if (w != self && w != via && own[w] != shared[w]) {
                return false;
            }
        }
        return true;
    }

    /** The fewest-hops tree from a switch: per node, the link that reaches it (-1 at the root, -2 unreached). */
    private static int[] tree(int root, int nodes, List<List<Integer>> out, int[] fabricDestination) {
        int[] parent = new int[nodes];
        Arrays.fill(parent, -2);
        parent[root] = -1;
        int[] queue = new int[nodes];
        int head = 0;
        int tail = 0;
        queue[tail++] = root;
        while (head < tail) {
            int at = queue[head++];
            for (int l : out.get(at)) {
                int next = fabricDestination[l];
                if (parent[next] == -2) {
                    parent[next] = l;
                    queue[tail++] = next;
                }
            }
        }
        return parent;
    }

    int groupCount() {
        return groupNode.length;
    }

    /** Every link from group {@code g}'s switch to PM {@code pm}'s switch, from the PM back. */
    void forEachLinkFromGroup(int g, int pm, LinkVisitor visitor) {
        walk(groupParent[g], pmNode[pm], groupNode[g], visitor);
    }

    /** Every link from group {@code from}'s switch to group {@code to}'s switch, from the latter back. */
    void forEachLinkBetweenGroups(int from, int to, LinkVisitor visitor) {
        walk(groupParent[from], groupNode[to], groupNode[from], visitor);
    }

    /** Every link from PM {@code pm}'s switch to group {@code g}'s switch, from the group switch back. */
    void forEachLinkToGroup(int pm, int g, LinkVisitor visitor) {
        walk(parentLink[pm], groupNode[g], pmNode[pm], visitor);
    }

    int blockCount() {
        return blockNode.length;
    }

    /** Every link from block {@code b}'s switch to group {@code g}'s switch, from the latter back. */
    void forEachLinkFromBlock(int b, int g, LinkVisitor visitor) {
        walk(blockParent[b], groupNode[g], blockNode[b], visitor);
    }

    /** Every link from group {@code g}'s switch to block {@code b}'s switch, from the block switch back. */
    void forEachLinkToBlock(int g, int b, LinkVisitor visitor) {
        walk(groupParent[g], blockNode[b], groupNode[g], visitor);
    }

    /** Whether the fewest-hops tree from group {@code g}'s switch reaches fabric link {@code link}'s far end through it. */
    boolean groupTreeCrosses(int g, int link) {
        return groupParent[g][fabricDestination[link]] == link;
    }

    /** Whether the fewest-hops tree from PM {@code pm}'s switch reaches fabric link {@code link}'s far end through it. */
    boolean pmTreeCrosses(int pm, int link) {
        return parentLink[pm][fabricDestination[link]] == link;
    }

    /**
     * The PMs whose path from group {@code g}'s switch crosses fabric link {@code link}; none when the
     * group's fewest-hops tree reaches the link's far end some other way.
     */
    BitSet pmsReachedThrough(int g, int link) {
        BitSet through = new BitSet();
        if (!groupTreeCrosses(g, link)) {
            return through;
        }
        int[] parent = groupParent[g];
        // per switch: 0 not known yet, 1 reached through the link, 2 not; each switch is decided once
        byte[] state = new byte[parent.length];
        state[groupNode[g]] = 2;
        state[fabricDestination[link]] = 1;
        int[] below = new int[parent.length];
        for (int q = 0; q < pmNode.length; q++) {
            int depth = 0;
            int at = pmNode[q];
            while (state[at] == 0) {
                below[depth++] = at;
                at = fabricSource[parent[at]];
            }
            byte decided = state[at];
            while (depth > 0) {
                state[below[--depth]] = decided;
            }
            through.set(q, decided == 1);
        }
        return through;
    }

    private void walk(int[] parent, int at, int target, LinkVisitor visitor) {
        while (at != target) {
            int link = parent[at];
            visitor.visit(link);
            at = fabricSource[link];
        }
    }

    int upLink(int vm) {
        return fabricLinks + vm;
    }

    int downLink(int vm) {
        return fabricLinks + vmIds.length + vm;
    }

    /**
     * The id of a link when each VM sits where {@code pmOf} says (a VM's links are named after its PM's
     * switch, with the ports the EDF gives them, as {@link #edfOf} writes them).
     */
    String linkId(int link, int[] pmOf) {
        int n = vmIds.length;
        if (link < fabricLinks) {
            return fabricLinkIds[link];
        }
        int vm = link < fabricLinks + n ? link - fabricLinks : link - fabricLinks - n;
        String sw = pmOf[vm] < 0 ? "?" : pmSwitchIds[pmOf[vm]];
        return link < fabricLinks + n ? Edf.Link.idOf(vmIds[vm], vmUpPorts[vm][0], sw, vmUpPorts[vm][1])
                : Edf.Link.idOf(sw, vmDownPorts[vm][0], vmIds[vm], vmDownPorts[vm][1]);
    }

    /**
     * Calls {@code visitor} with every link a flow from a VM on PM {@code from} to a VM on PM {@code to}
     * crosses between the two PMs' switches (none when they are the same PM), from the destination back.
     */
    void forEachFabricLink(int from, int to, LinkVisitor visitor) {
        if (from == to) {
            return;
        }
        walk(parentLink[from], pmNode[to], pmNode[from], visitor);
    }

    @FunctionalInterface
    interface LinkVisitor {
        void visit(int link);
    }

    int vmIndex(String vm) {
        Integer v = vmIndex.get(vm);
        if (v == null) {
            throw new IllegalArgumentException("no VM " + vm);
        }
        return v;
    }

    int pmIndex(String pm) {
        Integer p = pmIndex.get(pm);
        if (p == null) {
            throw new IllegalArgumentException("no PM " + pm);
        }
        return p;
    }

    private Integer known(List<Problem> problems, String at, String vm) {
        Integer v = vmIndex.get(vm);
        if (v == null) {
            problems.add(new Problem(at, "unknown VM " + vm));
        }
        return v;
    }

    private static long figure(List<Problem> problems, String at, double value) {
        if (!(value >= 0 && value <= MAX_FIGURE)) {
            problems.add(new Problem(at, value + " is not a rate from 0 to " + MAX_FIGURE));
            return -1;
        }
        return Math.round(value * SCALE);
    }

    private static double number(Map<String, String> own, Map<String, String> global, String key) {
        String text = own.containsKey(key) ? own.get(key) : global.get(key);
        return EdfFormat.number(text);
    }
}
