package io.heliograph.virtue.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * EDFs of the thesis's evaluation network (spec §4.1, §4.6): a three-tier tree of one core switch, its
 * aggregation switches, their top-of-rack switches and the PMs under each, every PM's software switch
 * joined to its ToR, one directed link each way everywhere. {@link #thesis(int)} is the thesis's
 * 16:1 tree (4:1 at the ToR, 4:1 at the aggregation layer) with 100 Mb/s edge links.
 *
 * <p>Switch ids follow Appendix B: physical switches {@code 00:...}, software switches {@code 01:...}
 * numbered like their PMs ({@code host0001} on {@code 01:00:00:00:00:00:00:01}).
 */
public final class ThreeTierTree {

    private final int aggregations;
    private final int torsPerAggregation;
    private final int pmsPerTor;
    private final double edgeBps;
    private final double torUplinkBps;
    private final double aggregationUplinkBps;
    private final Map<String, String> parameters = new LinkedHashMap<>();

    /**
     * A tree with the given fan-out and link capacities (bits per second, each direction), PMs of
     * 2 CPUs at 2.8 GHz and 200 Mb/s VM links as in the thesis.
     */
    public ThreeTierTree(int aggregations, int torsPerAggregation, int pmsPerTor, double edgeBps, double torUplinkBps,
                         double aggregationUplinkBps) {
        if (aggregations < 1 || torsPerAggregation < 1 || pmsPerTor < 1) {
            throw new IllegalArgumentException("a tree needs at least one of each switch and a PM");
        }
        this.aggregations = aggregations;
        this.torsPerAggregation = torsPerAggregation;
        this.pmsPerTor = pmsPerTor;
        this.edgeBps = edgeBps;
        this.torUplinkBps = torUplinkBps;
        this.aggregationUplinkBps = aggregationUplinkBps;
        parameters.put(Edf.CPU_COUNT, "2");
        parameters.put(Edf.CPU_SPEED, "2.8E9");
        parameters.put(Edf.INTRA_PM_LINK_SPEED, "200000000");
        parameters.put(Edf.LINK_SPEED, plain(edgeBps));
    }

    /**
     * The thesis's tree: 2 aggregation switches of 2 racks each, {@code pmsPerRack} PMs a rack (20 for
     * 80 PMs, 10 for 40), 100 Mb/s edge links, 4:1 oversubscribed at the ToRs and again at the
     * aggregation switches (16:1 through the core).
     */
    public static ThreeTierTree thesis(int pmsPerRack) {
        double edge = 100e6;
        double torUplink = pmsPerRack * edge / 4;
        return new ThreeTierTree(2, 2, pmsPerRack, edge, torUplink, 2 * torUplink / 4);
    }

    public int pmCount() {
        return aggregations * torsPerAggregation * pmsPerTor;
    }

    /** Sets a global parameter of the EDFs made (CPU_COUNT, CPU_SPEED, ...). */
    public ThreeTierTree parameter(String key, String value) {
        parameters.put(key, value);
        return this;
    }

    public static String pmId(int pm) {
        return String.format(Locale.ROOT, "host%04d", pm + 1);
    }

    public static String vmId(int vm) {
        return String.format(Locale.ROOT, "vm%04d", vm + 1);
    }

    /**
     * The EDF of VMs {@code vm0001...} placed as {@code pmOf} says (VM i on PM pmOf[i]), with a route for
     * each given communicating pair ({@code {source, destination}} VM numbers).
     */
    public Edf edf(int[] pmOf, List<int[]> communicatingPairs) {
        int pms = pmCount();
        List<Edf.Switch> switches = new ArrayList<>();
        List<Edf.Link> links = new ArrayList<>();
        String core = physical(0);
        switches.add(new Edf.Switch(core, Map.of(), false));
        int next = 1;
        String[] aggregation = new String[aggregations];
        String[] tor = new String[aggregations * torsPerAggregation];
        for (int a = 0; a < aggregations; a++) {
            aggregation[a] = physical(next++);
            switches.add(new Edf.Switch(aggregation[a], Map.of(), false));
            pair(links, aggregation[a], torsPerAggregation + 1, core, a + 1, aggregationUplinkBps);
            for (int t = 0; t < torsPerAggregation; t++) {
                int rack = a * torsPerAggregation + t;
                tor[rack] = physical(next++);
                switches.add(new Edf.Switch(tor[rack], Map.of(), false));
                pair(links, tor[rack], pmsPerTor + 1, aggregation[a], t + 1, torUplinkBps);
            }
        }
        for (int p = 0; p < pms; p++) {
            switches.add(new Edf.Switch(software(p), Map.of(), true));
            pair(links, software(p), 1, tor[p / pmsPerTor], p % pmsPerTor + 1, edgeBps);
        }
        List<Map<String, Edf.Vm>> vmsOn = new ArrayList<>();
        for (int p = 0; p < pms; p++) {
            vmsOn.add(new LinkedHashMap<>());
        }
        for (int v = 0; v < pmOf.length; v++) {
            vmsOn.get(pmOf[v]).put(vmId(v), new Edf.Vm(vmId(v), Map.of()));
            links.add(vmLink(vmId(v), software(pmOf[v]), true));
            links.add(vmLink(vmId(v), software(pmOf[v]), false));
        }
        List<Edf.Pm> pmList = new ArrayList<>();
        for (int p = 0; p < pms; p++) {
            pmList.add(new Edf.Pm(pmId(p), Map.of(), vmsOn.get(p)));
        }
        List<Edf.Route> routes = new ArrayList<>();
        for (int[] pair : communicatingPairs) {
            routes.add(route(pair[0], pair[1], pmOf, tor, aggregation, core));
        }
        return new Edf(parameters, pmList, switches, links, routes);
    }

    private Edf.Route route(int a, int b, int[] pmOf, String[] tor, String[] aggregation, String core) {
        int pa = pmOf[a];
        int pb = pmOf[b];
        List<String> ids = new ArrayList<>();
        ids.add(vmLink(vmId(a), software(pa), true).id());
        if (pa != pb) {
            int rackA = pa / pmsPerTor;
            int rackB = pb / pmsPerTor;
            int aggA = rackA / torsPerAggregation;
            int aggB = rackB / torsPerAggregation;
            ids.add(Edf.Link.idOf(software(pa), 1, tor[rackA], pa % pmsPerTor + 1));
            if (rackA != rackB) {
                ids.add(Edf.Link.idOf(tor[rackA], pmsPerTor + 1, aggregation[aggA], rackA % torsPerAggregation + 1));
                if (aggA != aggB) {
                    ids.add(Edf.Link.idOf(aggregation[aggA], torsPerAggregation + 1, core, aggA + 1));
                    ids.add(Edf.Link.idOf(core, aggB + 1, aggregation[aggB], torsPerAggregation + 1));
                }
                ids.add(Edf.Link.idOf(aggregation[aggB], rackB % torsPerAggregation + 1, tor[rackB], pmsPerTor + 1));
            }
            ids.add(Edf.Link.idOf(tor[rackB], pb % pmsPerTor + 1, software(pb), 1));
        }
        ids.add(vmLink(vmId(b), software(pb), false).id());
        return new Edf.Route(vmId(a), vmId(b), ids);
    }

    private static void pair(List<Edf.Link> links, String lower, int lowerPort, String upper, int upperPort, double bps) {
        Map<String, String> speed = Map.of(Edf.LINK_SPEED, plain(bps));
        links.add(new Edf.Link(Edf.Link.idOf(lower, lowerPort, upper, upperPort), lower, lowerPort, upper, upperPort, speed));
        links.add(new Edf.Link(Edf.Link.idOf(upper, upperPort, lower, lowerPort), upper, upperPort, lower, lowerPort, speed));
    }

    private static Edf.Link vmLink(String vm, String sw, boolean up) {
        return up ? new Edf.Link(Edf.Link.idOf(vm, 0, sw, 0), vm, 0, sw, 0, Map.of())
                : new Edf.Link(Edf.Link.idOf(sw, 0, vm, 0), sw, 0, vm, 0, Map.of());
    }

    private static String physical(int index) {
        return dpid(0, index);
    }

    private static String software(int pm) {
        return dpid(1, pm + 1);
    }

    private static String dpid(int prefix, int index) {
        long value = ((long) prefix << 56) | index;
        String hex = String.format(Locale.ROOT, "%016x", value);
        StringBuilder id = new StringBuilder();
        for (int i = 0; i < 16; i += 2) {
            if (i > 0) {
                id.append(':');
            }
            id.append(hex, i, i + 2);
        }
        return id.toString();
    }

    private static String plain(double bps) {
        return bps == Math.rint(bps) && Math.abs(bps) < 1e15 ? Long.toString((long) bps) : Double.toString(bps);
    }
}
