package io.heliograph.circuit.engine;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Demand from application demand units (spec §2.7): the hosts report each write's size per flow and each
 * close; the estimator keeps every open flow's outstanding bytes (reported less {@link #served} by the
 * ToR's VOQ, never below 0), and a rack pair's demand is the sum over its flows, the racks from the
 * {@link CircuitGroups}. A close removes the flow and its outstanding bytes. Flows within one rack never
 * cross a circuit and are not kept.
 *
 * <p>At most {@code maxFlows} flows are open ({@link #DEFAULT_MAX_FLOWS} unless given): a report of a
 * new flow when all are taken evicts the flow reported least recently, its outstanding bytes dropped,
 * and counts it ({@link #evictions}), so a reporter that never closes cannot exhaust the controller. A
 * flow's outstanding bytes saturate at {@code Long.MAX_VALUE / maxFlows} (140 TB at the default), so
 * the sums over flows are exact and never overflow.
 *
 * <p>A batch is all or nothing: a report for a host in no group, or a size outside 0 to 1 TB (refused
 * already by {@link AduReport}), refuses the whole batch naming the report and field ({@code $[3].flow.src})
 * and leaves every flow as it was.
 */
public final class AduEstimator implements DemandEstimator {

    public static final int DEFAULT_MAX_FLOWS = 65_536;

    /** The most open flows an estimator may be given: 16 Mi, some 2 GB of state. */
    public static final int MAX_FLOWS = 1 << 24;

    private final CircuitGroups groups;
    private final int maxFlows;
    private final LinkedHashMap<FiveTuple, Flow> flows = new LinkedHashMap<>();
    private final long flowCap;
    private final long[][] demand;
    private long evictions;

    private static final class Flow {
        final int src;
        final int dst;
        long outstanding;

        Flow(int src, int dst) {
            this.src = src;
            this.dst = dst;
        }
    }

    public AduEstimator(CircuitGroups groups) {
        this(groups, DEFAULT_MAX_FLOWS);
    }

    public AduEstimator(CircuitGroups groups, int maxFlows) {
        if (maxFlows < 1 || maxFlows > MAX_FLOWS) {
            throw new IllegalArgumentException("maxFlows must be from 1 to " + MAX_FLOWS + ", not " + maxFlows);
        }
        this.groups = groups;
        this.maxFlows = maxFlows;
        this.flowCap = Long.MAX_VALUE / maxFlows;
        this.demand = new long[groups.racks()][groups.racks()];
    }

    @Override
    public String name() {
        return "adu";
    }

    @Override
    public int racks() {
        return groups.racks();
    }

    public CircuitGroups groups() {
        return groups;
    }

    public int maxFlows() {
        return maxFlows;
    }

    /** Applies a batch of reports, all or none. */
    public synchronized void report(List<AduReport> batch) {
        int[][] racks = new int[batch.size()][];
        for (int k = 0; k < batch.size(); k++) {
            AduReport report = batch.get(k);
            if (report == null) {
                throw new IllegalArgumentException("$[" + k + "]: missing report");
            }
            racks[k] = new int[] {rack(report.flow().src(), "$[" + k + "].flow.src"),
                rack(report.flow().dst(), "$[" + k + "].flow.dst")};
        }
        for (int k = 0; k < batch.size(); k++) {
            AduReport report = batch.get(k);
            int src = racks[k][0];
            int dst = racks[k][1];
            if (src == dst) {
                continue;
            }
            if (report.closed()) {
                Flow flow = flows.remove(report.flow());
                if (flow != null) {
                    take(flow, flow.outstanding);
                }
                continue;
            }
            Flow flow = flows.remove(report.flow());
            if (flow == null) {
                if (flows.size() >= maxFlows) {
                    Iterator<Flow> eldest = flows.values().iterator();
                    take(eldest.next(), Long.MAX_VALUE);
                    eldest.remove();
                    evictions++;
                }
                flow = new Flow(src, dst);
            }
            flows.put(report.flow(), flow);
            long before = flow.outstanding;
            flow.outstanding = before > flowCap - report.bytes() ? flowCap : before + report.bytes();
            demand[src][dst] += flow.outstanding - before;
        }
    }

    /**
     * {@code bytes} of a flow's application data that left the ToR's VOQ (its dequeue counter), which no
     * longer count as outstanding; a flow not open is ignored (it closed or was evicted).
     */
    public synchronized void served(FiveTuple flowId, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes served must be from 0, not " + bytes);
        }
        Flow flow = flows.get(flowId);
        if (flow != null) {
            take(flow, bytes);
        }
    }

    /**
     * What left the ToRs' VOQs per rack pair ({@code bytes[src][dst]}, from their counters, which count
     * per pair and not per flow), taken off the pair's open flows in the order they were last reported:
     * a VOQ sends first what was queued first. Bytes beyond the pair's outstanding are dropped.
     */
    public synchronized void servedPairs(long[][] bytes) {
        int n = demand.length;
        if (bytes.length != n) {
            throw new IllegalArgumentException("served bytes have " + bytes.length + " rows for " + n + " racks");
        }
        long[][] left = new long[n][];
        for (int i = 0; i < n; i++) {
            if (bytes[i] == null || bytes[i].length != n) {
                throw new IllegalArgumentException("served bytes row " + i + " must have " + n + " entries");
            }
            for (int j = 0; j < n; j++) {
                if (bytes[i][j] < 0) {
                    throw new IllegalArgumentException("served[" + i + "][" + j + "] must be from 0, not "
                            + bytes[i][j]);
                }
            }
            left[i] = bytes[i].clone();
        }
        for (Flow flow : flows.values()) {
            long taken = Math.min(left[flow.src][flow.dst], flow.outstanding);
            if (taken > 0) {
                take(flow, taken);
                left[flow.src][flow.dst] -= taken;
            }
        }
    }

    private void take(Flow flow, long bytes) {
        long taken = Math.min(bytes, flow.outstanding);
        flow.outstanding -= taken;
        demand[flow.src][flow.dst] -= taken;
    }

    /** A flow's outstanding bytes, 0 when it is not open. */
    public synchronized long outstanding(FiveTuple flowId) {
        Flow flow = flows.get(flowId);
        return flow == null ? 0 : flow.outstanding;
    }

    public synchronized int openFlows() {
        return flows.size();
    }

    /** How many flows were dropped to keep at most {@code maxFlows} open. */
    public synchronized long evictions() {
        return evictions;
    }

    @Override
    public synchronized double[][] estimate() {
        double[][] copy = new double[demand.length][demand.length];
        for (int i = 0; i < demand.length; i++) {
            for (int j = 0; j < demand.length; j++) {
                copy[i][j] = demand[i][j];
            }
        }
        return copy;
    }

    private int rack(String host, String path) {
        return groups.rackOf(host).orElseThrow(() -> new IllegalArgumentException(path + ": host " + host
                + " is in no circuit group (not a host of any rack)"));
    }

    @Override
    public synchronized String toString() {
        return "adu: " + flows.size() + " open flows of " + maxFlows + ", " + evictions + " evicted";
    }
}
