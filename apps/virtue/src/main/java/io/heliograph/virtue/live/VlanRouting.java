package io.heliograph.virtue.live;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.EdfFormat;
import io.heliograph.virtue.engine.InvalidInputException;
import io.heliograph.virtue.engine.Problem;

/**
 * Virtue's static VLAN routing (spec §2.5, item 3): the static flow entries that carry an EDF's routes.
 *
 * <p>Each PM owns four VLAN ids, the i-th PM in the EDF's order {@code base + 4i} to {@code base + 4i + 3}.
 * A route from VM a to VM b on another switch is realised by three kinds of entry, all permanent:
 * <ul>
 * <li><b>source</b>, on a's switch: a's port, a's MAC and b's MAC; tags the packet with one of b's PM's
 * VLAN ids and sends it out along the route;</li>
 * <li><b>transit</b>, on every switch in between: only that VLAN id; out along the route. One entry per
 * switch and VLAN id, shared by every route that uses that id there;</li>
 * <li><b>delivery</b>, on b's switch: the VLAN id and b's MAC; strips the tag and outputs to b's port.</li>
 * </ul>
 * A route between two VMs of one switch is one entry there (a's port and the two MACs; out to b's port).
 *
 * <p>The VLAN ids toward a PM are how the thesis used up to four distinct paths toward it: a route takes
 * the first of its destination PM's ids whose transit outputs so far agree with the route at every switch
 * it crosses, so up to four routes toward one PM may take different ways; a fifth is refused. Routes are
 * taken in the EDF's order, so one EDF always gives the same entries in the same order.
 *
 * <p>Entries are named {@code virtue-<experiment>-<a>-<b>} (source), {@code virtue-<experiment>-vlan<id>}
 * (transit) and {@code virtue-<experiment>-vlan<id>-<b>} (delivery), unique per switch, which is how the
 * static flows app keys them; when a VM id would make a name the static flows app refuses (too long,
 * other characters) or two names collide, every VM is named by its position in the EDF instead.
 *
 * <p>The VLAN ids depend only on the PMs' order, not on the experiment: two experiments over the same
 * switches must not run at once (as in the thesis, one experiment ran at a time), or their transit entries,
 * same match and priority under different names, would replace each other on the switches.
 *
 * <p>The entries work on OpenFlow 1.1 and later as they are; the tagging entry needs {@code push_vlan},
 * which the static flows app refuses for an OpenFlow 1.0 switch (the transit and delivery entries are
 * valid on 1.0 too).
 */
public final class VlanRouting {

    public static final int DEFAULT_VLAN_BASE = 1000;
    public static final int DEFAULT_PRIORITY = 40000;
    public static final int VLANS_PER_PM = 4;
    /** 4095 is reserved by 802.1Q. */
    public static final int MAX_VLAN = 4094;
    /** The highest physical port number every OpenFlow version takes (1.0's reserved ports start at 0xff00). */
    public static final int MAX_PORT = 0xfeff;

    private static final Pattern EXPERIMENT = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    /** The static flows app's rule for an entry's name. */
    private static final Pattern ENTRY_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}");
    private static final int ETH_TYPE_VLAN = 0x8100;

    private final int vlanBase;
    private final int priority;

    /** VLAN ids from {@value #DEFAULT_VLAN_BASE}, entries at priority {@value #DEFAULT_PRIORITY}. */
    public VlanRouting() {
        this(DEFAULT_VLAN_BASE, DEFAULT_PRIORITY);
    }

    /**
     * @param vlanBase the first PM's first VLAN id, 1 to {@value #MAX_VLAN}
     * @param priority every entry's priority, 0 to 65535
     */
    public VlanRouting(int vlanBase, int priority) {
        if (vlanBase < 1 || vlanBase > MAX_VLAN) {
            throw new IllegalArgumentException("the VLAN base must be within 1.." + MAX_VLAN + ", not " + vlanBase);
        }
        if (priority < 0 || priority > 0xffff) {
            throw new IllegalArgumentException("the priority must be within 0..65535, not " + priority);
        }
        this.vlanBase = vlanBase;
        this.priority = priority;
    }

    public int vlanBase() {
        return vlanBase;
    }

    public int priority() {
        return priority;
    }

    /**
     * The entries that realise the EDF's routes for one experiment.
     *
     * @param experiment the experiment's id, {@code [a-z0-9][a-z0-9-]{0,39}}
     * @throws InvalidInputException listing every part of the EDF that cannot be routed, each at its JSON
     *                               path: a VM in a route without a usable {@code MAC}, a route whose links
     *                               do not chain from its source VM's link up to its destination VM's link
     *                               down, a port no switch can match or output to, a PM whose VLAN ids would
     *                               pass {@value #MAX_VLAN}, a fifth distinct path toward one PM
     */
    public RoutePlan plan(Edf edf, String experiment) {
        if (experiment == null || !EXPERIMENT.matcher(experiment).matches()) {
            throw new IllegalArgumentException("an experiment id is 1 to 40 of a-z, 0-9 and -, starting with a "
                    + "letter or digit, not " + experiment);
        }
        return new Planner(edf, experiment).plan();
    }

    /** A VM: where it is in the file, and its position among all VMs. */
    private record Place(String id, int pm, int position, String at, Edf.Vm vm) {
    }

    /**
     * A checked route: the switches it crosses in order, the port it leaves each by (the last one is the
     * destination VM's port), and the source VM's port.
     */
    private record Hops(int index, Place source, Place destination, List<String> switches, List<Integer> outputs,
            int inPort) {
    }

    private enum Kind { SOURCE, TRANSIT, DELIVERY }

    /** One entry before it is named. */
    private record Spec(Kind kind, String sw, Integer vlan, Place source, Place destination, int inPort, int output) {
    }

    private final class Planner {

        private final Edf edf;
        private final String experiment;
        private final List<Problem> problems = new ArrayList<>();
        private final Set<String> reported = new HashSet<>();
        private final Map<String, DatapathId> dpids = new HashMap<>();
        private final Map<String, Place> vms = new HashMap<>();
        private final Map<String, Integer> linkIndex = new HashMap<>();
        private final Map<String, Integer> upLink = new HashMap<>();
        private final Map<String, Integer> downLink = new HashMap<>();
        private final Map<String, MacAddress> macs = new HashMap<>();

        Planner(Edf edf, String experiment) {
            this.edf = edf;
            this.experiment = experiment;
        }

        RoutePlan plan() {
            index();
            Map<String, String> pmSwitches = pmSwitches();
            Map<String, List<Integer>> vlans = vlans();
            List<Hops> routes = new ArrayList<>();
            Set<String> pairs = new HashSet<>();
            for (int r = 0; r < edf.routes().size(); r++) {
                Hops hops = route(r, pairs);
                if (hops != null) {
                    routes.add(hops);
                }
            }
            if (!problems.isEmpty()) {
                throw new InvalidInputException(problems);
            }
            List<Spec> delivery = new ArrayList<>();
            List<Spec> transit = new ArrayList<>();
            List<Spec> sources = new ArrayList<>();
            Set<String> deliveries = new HashSet<>();
            Map<Integer, Map<String, Integer>> vlanOutputs = new HashMap<>();
            for (Hops hops : routes) {
                List<String> path = hops.switches();
                if (path.size() == 1) {
                    sources.add(new Spec(Kind.SOURCE, path.get(0), null, hops.source(), hops.destination(),
                            hops.inPort(), hops.outputs().get(0)));
                    continue;
                }
                Integer vlan = vlanFor(hops, vlans.get(edf.pms().get(hops.destination().pm()).id()), vlanOutputs);
                if (vlan == null) {
                    continue;
                }
                Map<String, Integer> outputs = vlanOutputs.computeIfAbsent(vlan, v -> new HashMap<>());
                for (int k = 1; k < path.size() - 1; k++) {
                    if (outputs.putIfAbsent(path.get(k), hops.outputs().get(k)) == null) {
                        transit.add(new Spec(Kind.TRANSIT, path.get(k), vlan, null, null, 0, hops.outputs().get(k)));
                    }
                }
                String last = path.get(path.size() - 1);
                if (deliveries.add(last + "\n" + vlan + "\n" + hops.destination().id())) {
                    delivery.add(new Spec(Kind.DELIVERY, last, vlan, null, hops.destination(), 0,
                            hops.outputs().get(path.size() - 1)));
                }
                sources.add(new Spec(Kind.SOURCE, path.get(0), vlan, hops.source(), hops.destination(), hops.inPort(),
                        hops.outputs().get(0)));
            }
            if (!problems.isEmpty()) {
                throw new InvalidInputException(problems);
            }
            List<Spec> specs = new ArrayList<>(delivery);
            specs.addAll(transit);
            specs.addAll(sources);
            boolean byId = namesFit(specs);
            List<FlowEntry> entries = new ArrayList<>();
            for (Spec spec : specs) {
                entries.add(entry(spec, name(spec, byId)));
            }
            List<RoutePlan.PairCounter> counters = new ArrayList<>();
            for (Spec spec : sources) {
                counters.add(new RoutePlan.PairCounter(spec.source().id(), spec.destination().id(), dpids.get(spec.sw()),
                        name(spec, byId), 0, priority, OFPort.of(spec.inPort()), macs.get(spec.source().id()),
                        macs.get(spec.destination().id()), spec.vlan()));
            }
            return new RoutePlan(experiment, entries, vlans, pmSwitches, counters);
        }

        private void index() {
            for (int s = 0; s < edf.switches().size(); s++) {
                Edf.Switch sw = edf.switches().get(s);
                try {
                    dpids.putIfAbsent(sw.id(), DatapathId.of(sw.id()));
                } catch (IllegalArgumentException e) {
                    problems.add(new Problem("$.switches[" + s + "].id",
                            "\"" + sw.id() + "\" is not a datapath id (8 bytes in hex, colon-separated)"));
                }
            }
            int position = 0;
            for (int p = 0; p < edf.pms().size(); p++) {
                for (Map.Entry<String, Edf.Vm> vm : edf.pms().get(p).vms().entrySet()) {
                    vms.putIfAbsent(vm.getKey(), new Place(vm.getKey(), p, position++,
                            "$.pms[" + p + "].vms" + EdfFormat.key(vm.getKey()), vm.getValue()));
                }
            }
            for (int l = 0; l < edf.links().size(); l++) {
                Edf.Link link = edf.links().get(l);
                linkIndex.putIfAbsent(link.id(), l);
                if (vms.containsKey(link.sourceId())) {
                    upLink.putIfAbsent(link.sourceId(), l);
                }
                if (vms.containsKey(link.destinationId())) {
                    downLink.putIfAbsent(link.destinationId(), l);
                }
            }
        }

        /** Each PM's switch: the one its VMs' links attach to; for a PM without VMs, EdfFormat's i-th software switch. */
        private Map<String, String> pmSwitches() {
            Map<String, String> switches = new LinkedHashMap<>();
            List<Edf.Switch> software = edf.switches().stream().filter(Edf.Switch::software).toList();
            for (int p = 0; p < edf.pms().size(); p++) {
                Edf.Pm pm = edf.pms().get(p);
                String sw = null;
                for (String vm : pm.vms().keySet()) {
                    Integer up = upLink.get(vm);
                    if (up == null) {
                        continue;
                    }
                    String attached = edf.links().get(up).destinationId();
                    if (sw == null) {
                        sw = attached;
                    } else if (!sw.equals(attached)) {
                        problems.add(new Problem("$.links[" + up + "].destinationId", vm + " is on " + pm.id()
                                + ", whose other VMs attach to switch " + sw + ", not " + attached));
                    }
                }
                if (sw == null && p < software.size()) {
                    sw = software.get(p).id();
                }
                if (sw != null) {
                    switches.put(pm.id(), sw);
                }
            }
            return switches;
        }

        private Map<String, List<Integer>> vlans() {
            Map<String, List<Integer>> vlans = new LinkedHashMap<>();
            for (int p = 0; p < edf.pms().size(); p++) {
                int first = vlanBase + VLANS_PER_PM * p;
                if (first + VLANS_PER_PM - 1 > MAX_VLAN) {
                    int over = edf.pms().size() - p;
                    problems.add(new Problem("$.pms[" + p + "]", edf.pms().get(p).id() + " would get VLAN ids " + first
                            + ".." + (first + VLANS_PER_PM - 1) + ", past " + MAX_VLAN
                            + (over > 1 ? ", as would " + (over - 1) + " more PM" + (over > 2 ? "s" : "") + " after it" : "")
                            + ": lower the VLAN base (" + vlanBase + ") or use fewer PMs"));
                    break;
                }
                List<Integer> ids = new ArrayList<>();
                for (int k = 0; k < VLANS_PER_PM; k++) {
                    ids.add(first + k);
                }
                vlans.put(edf.pms().get(p).id(), ids);
            }
            return vlans;
        }

        /** Checks one route; null when it cannot be routed (the problems say why). */
        private Hops route(int r, Set<String> pairs) {
            Edf.Route route = edf.routes().get(r);
            String at = "$.routes[" + r + "]";
            int before = problems.size();
            Place a = vms.get(route.sourceId());
            Place b = vms.get(route.destinationId());
            if (a == null) {
                problems.add(new Problem(at + ".sourceId", "no VM " + route.sourceId()));
            }
            if (b == null) {
                problems.add(new Problem(at + ".destinationId", "no VM " + route.destinationId()));
            }
            if (a == null || b == null) {
                return null;
            }
            if (a.equals(b)) {
                problems.add(new Problem(at, "from " + a.id() + " to itself"));
                return null;
            }
            if (!pairs.add(a.id() + "\n" + b.id())) {
                problems.add(new Problem(at, "a second route from " + a.id() + " to " + b.id()));
            }
            mac(a, at);
            mac(b, at);
            List<Edf.Link> links = new ArrayList<>();
            List<Integer> indices = new ArrayList<>();
            for (int k = 0; k < route.linkIds().size(); k++) {
                Integer l = linkIndex.get(route.linkIds().get(k));
                if (l == null) {
                    problems.add(new Problem(at + ".linkIds[" + k + "]", "no link " + route.linkIds().get(k)));
                    return null;
                }
                links.add(edf.links().get(l));
                indices.add(l);
            }
            int n = links.size();
            if (n < 2) {
                problems.add(new Problem(at + ".linkIds", "a route is at least " + a.id() + "'s link up to its switch "
                        + "and " + b.id() + "'s link down from its switch"));
                return null;
            }
            if (!indices.get(0).equals(upLink.get(a.id()))) {
                problems.add(new Problem(at + ".linkIds[0]", "is " + links.get(0).id() + ", not the link up from "
                        + a.id() + " to its switch"));
            }
            List<String> switches = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (int k = 0; k < n - 1; k++) {
                String node = links.get(k).destinationId();
                String linkAt = at + ".linkIds[" + k + "]";
                if (!links.get(k + 1).sourceId().equals(node)) {
                    problems.add(new Problem(at + ".linkIds[" + (k + 1) + "]", "starts at " + links.get(k + 1).sourceId()
                            + ", not at " + node + " where the route is"));
                } else if (!dpids.containsKey(node)) {
                    problems.add(new Problem(linkAt, "enters " + node + ", which is not a switch"));
                } else if (!seen.add(node)) {
                    problems.add(new Problem(linkAt, "comes back to switch " + node));
                }
                switches.add(node);
            }
            if (!indices.get(n - 1).equals(downLink.get(b.id()))) {
                problems.add(new Problem(at + ".linkIds[" + (n - 1) + "]", "is " + links.get(n - 1).id()
                        + ", not the link down to " + b.id() + " from its switch"));
            }
            int inPort = links.get(0).destinationPort();
            port(indices.get(0), ".destinationPort", inPort);
            List<Integer> outputs = new ArrayList<>();
            for (int k = 1; k < n; k++) {
                outputs.add(links.get(k).sourcePort());
                port(indices.get(k), ".sourcePort", links.get(k).sourcePort());
            }
            if (problems.size() > before) {
                return null;
            }
            if (switches.size() == 1 && inPort == outputs.get(0)) {
                problems.add(new Problem(at, a.id() + " and " + b.id() + " share port " + inPort + " of switch "
                        + switches.get(0) + ": a switch does not send a packet back out of the port it came in by"));
                return null;
            }
            return new Hops(r, a, b, switches, outputs, inPort);
        }

        /** The first of the destination PM's VLAN ids whose transit outputs agree with the route; null (and a problem) when none does. */
        private Integer vlanFor(Hops hops, List<Integer> ids, Map<Integer, Map<String, Integer>> vlanOutputs) {
            List<String> path = hops.switches();
            for (int id : ids) {
                Map<String, Integer> outputs = vlanOutputs.getOrDefault(id, Map.of());
                boolean agrees = true;
                for (int k = 1; k < path.size() - 1 && agrees; k++) {
                    Integer out = outputs.get(path.get(k));
                    agrees = out == null || out.equals(hops.outputs().get(k));
                }
                if (agrees) {
                    return id;
                }
            }
            String pm = edf.pms().get(hops.destination().pm()).id();
            problems.add(new Problem("$.routes[" + hops.index() + "]", "a fifth distinct path toward " + pm
                    + ": each of its VLAN ids " + ids.get(0) + ".." + ids.get(ids.size() - 1)
                    + " already leaves a switch on this route by another port (at most " + VLANS_PER_PM
                    + " distinct paths lead to one PM)"));
            return null;
        }

        private void mac(Place vm, String routeAt) {
            if (macs.containsKey(vm.id()) || !reported.add(vm.at() + ".parameters.MAC")) {
                return;
            }
            String text = vm.vm().parameters().get("MAC");
            if (text == null) {
                problems.add(new Problem(vm.at() + ".parameters.MAC", "missing: " + vm.id() + " is in a route ("
                        + routeAt + "), whose entries match its MAC address"));
                return;
            }
            try {
                macs.put(vm.id(), MacAddress.of(text.trim()));
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(vm.at() + ".parameters.MAC", "\"" + text + "\" is not a MAC address"));
            }
        }

        private void port(int link, String member, int port) {
            if ((port < 1 || port > MAX_PORT) && reported.add("$.links[" + link + "]" + member)) {
                problems.add(new Problem("$.links[" + link + "]" + member, "port " + port + " is not a switch port "
                        + "OpenFlow can match or output to (1 to " + MAX_PORT + "); give the switch's port number"));
            }
        }

        /** Whether naming entries by VM id gives valid names, unique per switch. */
        private boolean namesFit(List<Spec> specs) {
            Set<String> names = new HashSet<>();
            for (Spec spec : specs) {
                String name = name(spec, true);
                if (!ENTRY_NAME.matcher(name).matches() || !names.add(spec.sw() + "\n" + name)) {
                    return false;
                }
            }
            return true;
        }

        private String name(Spec spec, boolean byId) {
            String prefix = "virtue-" + experiment + "-";
            return switch (spec.kind()) {
                case SOURCE -> prefix + vmName(spec.source(), byId) + "-" + vmName(spec.destination(), byId);
                case TRANSIT -> prefix + "vlan" + spec.vlan();
                case DELIVERY -> prefix + "vlan" + spec.vlan() + "-" + vmName(spec.destination(), byId);
            };
        }

        private static String vmName(Place vm, boolean byId) {
            return byId ? vm.id() : Integer.toString(vm.position());
        }

        private FlowEntry entry(Spec spec, String name) {
            FlowEntry.Builder entry = FlowEntry.builder(dpids.get(spec.sw()), name).priority(priority);
            switch (spec.kind()) {
                case SOURCE -> {
                    entry.match("in_port", Integer.toString(spec.inPort()))
                            .match("eth_src", macs.get(spec.source().id()).toString())
                            .match("eth_dst", macs.get(spec.destination().id()).toString());
                    if (spec.vlan() != null) {
                        entry.apply(new Action.PushVlan(ETH_TYPE_VLAN),
                                Action.setField("eth_vlan_vid", Integer.toString(spec.vlan())));
                    }
                    entry.apply(Action.output(spec.output()));
                }
                case TRANSIT -> entry.match("eth_vlan_vid", Integer.toString(spec.vlan()))
                        .apply(Action.output(spec.output()));
                case DELIVERY -> entry.match("eth_vlan_vid", Integer.toString(spec.vlan()))
                        .match("eth_dst", macs.get(spec.destination().id()).toString())
                        .apply(new Action.PopVlan(), Action.output(spec.output()));
            }
            return entry.build();
        }
    }
}
