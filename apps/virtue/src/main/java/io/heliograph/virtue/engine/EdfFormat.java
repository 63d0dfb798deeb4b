package io.heliograph.virtue.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.heliograph.core.json.Json;

/**
 * Reads, validates and writes Experiment Description Files (spec §2.4.1), through the project's JSON
 * codec ({@link Json}). A file is taken only whole: every problem is collected and reported together,
 * each at its JSON path, so whoever wrote the file can fix them all at once.
 *
 * <p>Besides the schema (every scalar a string, except a switch's {@code software} and a link's ports;
 * no member missing, none unknown), a file must make sense: ids unique, a VM on one PM only, at most
 * {@code maxVmsPerPm} VMs on a PM, every link id {@code source:port->destination:port} between known
 * nodes, every capacity a positive number, every route a path of existing links from its source VM to
 * its destination VM that visits no node twice, every VM attached to its PM's software switch by one
 * link each way, and every PM's switch reachable from every other's over the switches' links.
 *
 * <p>The i-th PM's network node is the i-th software switch (the thesis's convention: host0001 is
 * {@code 01:00:00:00:00:00:00:01}).
 */
public final class EdfFormat {

    /** The thesis's slot limit: every PM had four VMs ready to take a workload (L840). */
    public static final int DEFAULT_MAX_VMS_PER_PM = 4;

    private static final List<String> ROOT = List.of("parameters", "pms", "switches", "links", "routes");
    private static final List<String> PM = List.of("id", "parameters", "vms");
    private static final List<String> VM = List.of("id", "parameters");
    private static final List<String> SWITCH = List.of("id", "parameters", "software");
    private static final List<String> LINK = List.of("destinationId", "destinationPort", "id", "parameters",
            "sourceId", "sourcePort");
    private static final List<String> ROUTE = List.of("destinationId", "linkIds", "sourceId");
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private EdfFormat() {
    }

    /** Reads and validates a file with the thesis's slot limit; {@link InvalidInputException} lists every problem. */
    public static Edf read(String text) {
        return read(text, DEFAULT_MAX_VMS_PER_PM);
    }

    /** Reads and validates a file; {@link InvalidInputException} lists every problem. */
    public static Edf read(String text, int maxVmsPerPm) {
        Object document;
        try {
            document = Json.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(List.of(new Problem("$", "malformed JSON: " + e.getMessage())));
        }
        List<Problem> problems = new ArrayList<>();
        Edf edf = new Reader(problems).edf(document);
        if (problems.isEmpty()) {
            problems.addAll(problems(edf, maxVmsPerPm));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        return edf;
    }

    /** Indented JSON of a file, members in the thesis's order. */
    public static String write(Edf edf) {
        return Json.pretty(plain(edf));
    }

    /** The file as plain JSON values (maps, lists, strings, booleans, integers). */
    public static Map<String, Object> plain(Edf edf) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("parameters", edf.parameters());
        List<Object> pms = new ArrayList<>();
        for (Edf.Pm pm : edf.pms()) {
            Map<String, Object> vms = new LinkedHashMap<>();
            for (Edf.Vm vm : pm.vms().values()) {
                vms.put(vm.id(), members("id", vm.id(), "parameters", vm.parameters()));
            }
            pms.add(members("id", pm.id(), "parameters", pm.parameters(), "vms", vms));
        }
        root.put("pms", pms);
        List<Object> switches = new ArrayList<>();
        for (Edf.Switch sw : edf.switches()) {
            switches.add(members("id", sw.id(), "parameters", sw.parameters(), "software", sw.software()));
        }
        root.put("switches", switches);
        List<Object> links = new ArrayList<>();
        for (Edf.Link link : edf.links()) {
            links.add(members("destinationId", link.destinationId(), "destinationPort", link.destinationPort(),
                    "id", link.id(), "parameters", link.parameters(), "sourceId", link.sourceId(),
                    "sourcePort", link.sourcePort()));
        }
        root.put("links", links);
        List<Object> routes = new ArrayList<>();
        for (Edf.Route route : edf.routes()) {
            routes.add(members("destinationId", route.destinationId(), "linkIds", route.linkIds(),
                    "sourceId", route.sourceId()));
        }
        root.put("routes", routes);
        return root;
    }

    /**
     * What is wrong with a file beyond its schema (a file built in code rather than read), each problem at
     * its JSON path; empty when it is sound.
     */
    public static List<Problem> problems(Edf edf, int maxVmsPerPm) {
        List<Problem> problems = new ArrayList<>();
        Map<String, Integer> pmOfVm = new HashMap<>();
        Set<String> pmIds = new HashSet<>();
        checkNumber(problems, "$.parameters", edf.parameters(), Edf.CPU_COUNT);
        checkNumber(problems, "$.parameters", edf.parameters(), Edf.CPU_SPEED);
        checkNumber(problems, "$.parameters", edf.parameters(), Edf.LINK_SPEED);
        checkNumber(problems, "$.parameters", edf.parameters(), Edf.INTRA_PM_LINK_SPEED);
        for (int p = 0; p < edf.pms().size(); p++) {
            Edf.Pm pm = edf.pms().get(p);
            String at = "$.pms[" + p + "]";
            if (!pmIds.add(pm.id())) {
                problems.add(new Problem(at + ".id", "a second PM " + pm.id()));
            }
            checkNumber(problems, at + ".parameters", pm.parameters(), Edf.CPU_COUNT);
            checkNumber(problems, at + ".parameters", pm.parameters(), Edf.CPU_SPEED);
            for (String key : List.of(Edf.CPU_COUNT, Edf.CPU_SPEED)) {
                if (!pm.parameters().containsKey(key) && !edf.parameters().containsKey(key)) {
                    problems.add(new Problem(at + ".parameters", "no " + key + ", here or in $.parameters"));
                }
            }
            if (pm.vms().size() > maxVmsPerPm) {
                problems.add(new Problem(at + ".vms", "over capacity: " + pm.vms().size() + " VMs, at most "
                        + maxVmsPerPm + " per PM"));
            }
            for (Map.Entry<String, Edf.Vm> entry : pm.vms().entrySet()) {
                String vmAt = at + ".vms" + key(entry.getKey());
                if (!entry.getKey().equals(entry.getValue().id())) {
                    problems.add(new Problem(vmAt + ".id", "is " + entry.getValue().id() + ", not its key"));
                }
                Integer other = pmOfVm.putIfAbsent(entry.getValue().id(), p);
                if (other != null) {
                    problems.add(new Problem(vmAt, "VM " + entry.getValue().id() + " is on "
                            + edf.pms().get(other).id() + " too"));
                }
            }
        }
        Map<String, Edf.Switch> switches = new HashMap<>();
        List<Edf.Switch> software = new ArrayList<>();
        for (int s = 0; s < edf.switches().size(); s++) {
            Edf.Switch sw = edf.switches().get(s);
            if (switches.putIfAbsent(sw.id(), sw) != null) {
                problems.add(new Problem("$.switches[" + s + "].id", "a second switch " + sw.id()));
            } else if (pmOfVm.containsKey(sw.id())) {
                problems.add(new Problem("$.switches[" + s + "].id", sw.id() + " is a VM's id too"));
            }
            if (sw.software()) {
                software.add(sw);
            }
        }
        if (software.size() < edf.pms().size()) {
            problems.add(new Problem("$.switches", software.size() + " software switches for " + edf.pms().size()
                    + " PMs: the i-th PM's node is the i-th software switch"));
        }
        Map<String, Edf.Link> links = new HashMap<>();
        Map<String, Integer> vmUp = new HashMap<>();
        Map<String, Integer> vmDown = new HashMap<>();
        Map<String, List<Edf.Link>> fabricOut = new HashMap<>();
        Map<String, List<Edf.Link>> fabricIn = new HashMap<>();
        for (int l = 0; l < edf.links().size(); l++) {
            Edf.Link link = edf.links().get(l);
            String at = "$.links[" + l + "]";
            String expected = Edf.Link.idOf(link.sourceId(), link.sourcePort(), link.destinationId(),
                    link.destinationPort());
            if (!expected.equals(link.id())) {
                problems.add(new Problem(at + ".id", "is " + link.id() + ", not " + expected));
            }
            if (links.putIfAbsent(link.id(), link) != null) {
                problems.add(new Problem(at + ".id", "a second link " + link.id()));
                continue;
            }
            checkNumber(problems, at + ".parameters", link.parameters(), Edf.LINK_SPEED);
            boolean sourceVm = pmOfVm.containsKey(link.sourceId());
            boolean destinationVm = pmOfVm.containsKey(link.destinationId());
            if (!sourceVm && !switches.containsKey(link.sourceId())) {
                problems.add(new Problem(at + ".sourceId", "no switch or VM " + link.sourceId()));
                continue;
            }
            if (!destinationVm && !switches.containsKey(link.destinationId())) {
                problems.add(new Problem(at + ".destinationId", "no switch or VM " + link.destinationId()));
                continue;
            }
            if (sourceVm && destinationVm) {
                problems.add(new Problem(at, "joins two VMs; a VM is joined only to its PM's switch"));
                continue;
            }
            if (sourceVm || destinationVm) {
                String vm = sourceVm ? link.sourceId() : link.destinationId();
                String sw = sourceVm ? link.destinationId() : link.sourceId();
                int index = pmOfVm.get(vm);
                Edf.Pm pm = edf.pms().get(index);
                String pmSwitch = index < software.size() ? software.get(index).id() : null;
                if (pmSwitch != null && !pmSwitch.equals(sw)) {
                    problems.add(new Problem(at + (sourceVm ? ".destinationId" : ".sourceId"), vm + " is on "
                            + pm.id() + ", whose switch is " + pmSwitch + ", not " + sw));
                }
                Map<String, Integer> count = sourceVm ? vmUp : vmDown;
                if (count.merge(vm, 1, Integer::sum) > 1) {
                    problems.add(new Problem(at, "a second link " + (sourceVm ? "from " : "to ") + vm));
                }
                if (!link.parameters().containsKey(Edf.LINK_SPEED)
                        && !edf.parameters().containsKey(Edf.INTRA_PM_LINK_SPEED)
                        && !edf.parameters().containsKey(Edf.LINK_SPEED)) {
                    problems.add(new Problem(at + ".parameters", "no LINK_SPEED, here or as $.parameters."
                            + Edf.INTRA_PM_LINK_SPEED + " or " + Edf.LINK_SPEED));
                }
            } else {
                fabricOut.computeIfAbsent(link.sourceId(), k -> new ArrayList<>()).add(link);
                fabricIn.computeIfAbsent(link.destinationId(), k -> new ArrayList<>()).add(link);
                if (!link.parameters().containsKey(Edf.LINK_SPEED) && !edf.parameters().containsKey(Edf.LINK_SPEED)) {
                    problems.add(new Problem(at + ".parameters", "no LINK_SPEED, here or in $.parameters"));
                }
            }
        }
        for (int p = 0; p < edf.pms().size(); p++) {
            for (String vm : edf.pms().get(p).vms().keySet()) {
                String at = "$.pms[" + p + "].vms" + key(vm);
                if (!vmUp.containsKey(vm)) {
                    problems.add(new Problem(at, "no link from " + vm + " to its PM's switch"));
                }
                if (!vmDown.containsKey(vm)) {
                    problems.add(new Problem(at, "no link to " + vm + " from its PM's switch"));
                }
            }
        }
        if (software.size() >= edf.pms().size() && edf.pms().size() > 1) {
            String first = software.get(0).id();
            Set<String> forward = reach(first, fabricOut, true);
            Set<String> backward = reach(first, fabricIn, false);
            for (int p = 1; p < edf.pms().size(); p++) {
                String sw = software.get(p).id();
                if (!forward.contains(sw) || !backward.contains(sw)) {
                    problems.add(new Problem("$.pms[" + p + "]", "its switch " + sw + " and " + first + " of "
                            + edf.pms().get(0).id() + " are not joined both ways by switches' links"));
                }
            }
        }
        Set<String> routed = new HashSet<>();
        for (int r = 0; r < edf.routes().size(); r++) {
            checkRoute(problems, "$.routes[" + r + "]", edf.routes().get(r), pmOfVm.keySet(), links, routed);
        }
        return problems;
    }

    private static void checkRoute(List<Problem> problems, String at, Edf.Route route, Set<String> vms,
                                   Map<String, Edf.Link> links, Set<String> routed) {
        boolean known = true;
        if (!vms.contains(route.sourceId())) {
            problems.add(new Problem(at + ".sourceId", "unknown VM " + route.sourceId()));
            known = false;
        }
        if (!vms.contains(route.destinationId())) {
            problems.add(new Problem(at + ".destinationId", "unknown VM " + route.destinationId()));
            known = false;
        }
        if (known && route.sourceId().equals(route.destinationId())) {
            problems.add(new Problem(at, "from " + route.sourceId() + " to itself"));
            return;
        }
        if (known && !routed.add(route.sourceId() + "\n" + route.destinationId())) {
            problems.add(new Problem(at, "a second route from " + route.sourceId() + " to " + route.destinationId()));
        }
        if (route.linkIds().isEmpty()) {
            problems.add(new Problem(at + ".linkIds", "no links"));
            return;
        }
        String node = route.sourceId();
        Set<String> visited = new HashSet<>();
        visited.add(node);
        boolean contiguous = known; // a path from or to an unknown VM says nothing more
        for (int i = 0; i < route.linkIds().size(); i++) {
            String linkAt = at + ".linkIds[" + i + "]";
            Edf.Link link = links.get(route.linkIds().get(i));
            if (link == null) {
                problems.add(new Problem(linkAt, "no link " + route.linkIds().get(i)));
                contiguous = false;
                continue;
            }
            if (!contiguous) {
                node = link.destinationId();
                continue;
            }
            if (!link.sourceId().equals(node)) {
                problems.add(new Problem(linkAt, "starts at " + link.sourceId() + ", not at " + node
                        + " where the route is"));
                contiguous = false;
            } else if (!visited.add(link.destinationId())) {
                problems.add(new Problem(linkAt, "comes back to " + link.destinationId() + ": the route has a cycle"));
                contiguous = false;
            }
            node = link.destinationId();
        }
        if (contiguous && !node.equals(route.destinationId())) {
            problems.add(new Problem(at + ".linkIds", "ends at " + node + ", not at " + route.destinationId()));
        }
    }

    private static Set<String> reach(String from, Map<String, List<Edf.Link>> adjacent, boolean forward) {
        Set<String> seen = new HashSet<>();
        List<String> queue = new ArrayList<>();
        seen.add(from);
        queue.add(from);
        for (int i = 0; i < queue.size(); i++) {
            for (Edf.Link link : adjacent.getOrDefault(queue.get(i), List.of())) {
                String next = forward ? link.destinationId() : link.sourceId();
                if (seen.add(next)) {
                    queue.add(next);
                }
            }
        }
        return seen;
    }

    private static void checkNumber(List<Problem> problems, String at, Map<String, String> parameters, String key) {
        String value = parameters.get(key);
        if (value != null && number(value) <= 0) {
            problems.add(new Problem(at + key(key), "\"" + value + "\" is not a positive number"));
        }
    }

    /** A positive finite number, or -1 when the text is not one. */
    static double number(String text) {
        try {
            double value = Double.parseDouble(text.trim());
            return Double.isFinite(value) && value > 0 ? value : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A member's step in a JSON path: {@code .name}, or {@code ['name']} when the name is not plain. */
    public static String key(String name) {
        return PLAIN_KEY.matcher(name).matches() ? "." + name : "['" + name.replace("'", "\\'") + "']";
    }

    private static Map<String, Object> members(Object... keysAndValues) {
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            object.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return object;
    }

    /** The schema: types, required and unknown members, each problem at its path. */
    private static final class Reader {

        /** A member that is absent, told apart from one that is null: object() has said it is missing. */
        private static final Object MISSING = new Object();

        private final List<Problem> problems;

        Reader(List<Problem> problems) {
            this.problems = problems;
        }

        Edf edf(Object document) {
            Map<?, ?> root = object(document, "$", ROOT);
            if (root == null) {
                return null;
            }
            Map<String, String> parameters = strings(member(root, "parameters"), "$.parameters");
            List<Edf.Pm> pms = new ArrayList<>();
            forEach(member(root, "pms"), "$.pms", (item, at) -> pm(item, at, pms));
            List<Edf.Switch> switches = new ArrayList<>();
            forEach(member(root, "switches"), "$.switches", (item, at) -> {
                Map<?, ?> sw = object(item, at, SWITCH);
                if (sw != null) {
                    String id = string(member(sw, "id"), at + ".id");
                    Map<String, String> swParameters = strings(member(sw, "parameters"), at + ".parameters");
                    Boolean soft = bool(member(sw, "software"), at + ".software");
                    if (id != null && swParameters != null && soft != null) {
                        switches.add(new Edf.Switch(id, swParameters, soft));
                    }
                }
            });
            List<Edf.Link> links = new ArrayList<>();
            forEach(member(root, "links"), "$.links", (item, at) -> {
                Map<?, ?> link = object(item, at, LINK);
                if (link != null) {
                    String id = string(member(link, "id"), at + ".id");
                    String source = string(member(link, "sourceId"), at + ".sourceId");
                    Integer sourcePort = port(member(link, "sourcePort"), at + ".sourcePort");
                    String destination = string(member(link, "destinationId"), at + ".destinationId");
                    Integer destinationPort = port(member(link, "destinationPort"), at + ".destinationPort");
                    Map<String, String> linkParameters = strings(member(link, "parameters"), at + ".parameters");
                    if (id != null && source != null && sourcePort != null && destination != null
                            && destinationPort != null && linkParameters != null) {
                        links.add(new Edf.Link(id, source, sourcePort, destination, destinationPort, linkParameters));
                    }
                }
            });
            List<Edf.Route> routes = new ArrayList<>();
            forEach(member(root, "routes"), "$.routes", (item, at) -> {
                Map<?, ?> route = object(item, at, ROUTE);
                if (route != null) {
                    String source = string(member(route, "sourceId"), at + ".sourceId");
                    String destination = string(member(route, "destinationId"), at + ".destinationId");
                    List<String> linkIds = new ArrayList<>();
                    boolean[] ok = {true};
                    forEach(member(route, "linkIds"), at + ".linkIds", (id, idAt) -> {
                        String linkId = string(id, idAt);
                        if (linkId == null) {
                            ok[0] = false;
                        } else {
                            linkIds.add(linkId);
                        }
                    });
                    if (source != null && destination != null && ok[0] && member(route, "linkIds") instanceof List) {
                        routes.add(new Edf.Route(source, destination, linkIds));
                    }
                }
            });
            if (!problems.isEmpty()) {
                return null;
            }
            return new Edf(parameters, pms, switches, links, routes);
        }

        private void pm(Object item, String at, List<Edf.Pm> pms) {
            Map<?, ?> pm = object(item, at, PM);
            if (pm == null) {
                return;
            }
            String id = string(member(pm, "id"), at + ".id");
            Map<String, String> parameters = strings(member(pm, "parameters"), at + ".parameters");
            Map<String, Edf.Vm> vms = new LinkedHashMap<>();
            Object vmsValue = member(pm, "vms");
            if (!(vmsValue instanceof Map<?, ?> vmMap)) {
                if (vmsValue != MISSING) {
                    problems.add(new Problem(at + ".vms", "not an object of VMs by id"));
                }
                return;
            }
            for (Map.Entry<?, ?> entry : vmMap.entrySet()) {
                String vmAt = at + ".vms" + key((String) entry.getKey());
                Map<?, ?> vm = object(entry.getValue(), vmAt, VM);
                if (vm != null) {
                    String vmId = string(member(vm, "id"), vmAt + ".id");
                    Map<String, String> vmParameters = strings(member(vm, "parameters"), vmAt + ".parameters");
                    if (vmId != null && vmParameters != null) {
                        vms.put((String) entry.getKey(), new Edf.Vm(vmId, vmParameters));
                    }
                }
            }
            if (id != null && parameters != null) {
                pms.add(new Edf.Pm(id, parameters, vms));
            }
        }

        private static Object member(Map<?, ?> object, String name) {
            return object.containsKey(name) ? object.get(name) : MISSING;
        }

        /** An object with exactly these members (a missing one and an unknown one are problems), or null. */
        private Map<?, ?> object(Object value, String at, List<String> members) {
            if (!(value instanceof Map<?, ?> object)) {
                problems.add(new Problem(at, "not an object" + got(value)));
                return null;
            }
            for (String member : members) {
                if (!object.containsKey(member)) {
                    problems.add(new Problem(at + "." + member, "missing"));
                }
            }
            for (Object member : object.keySet()) {
                if (!members.contains(member)) {
                    problems.add(new Problem(at + key((String) member), "unknown member; expected " + members));
                }
            }
            return object;
        }

        private void forEach(Object value, String at, java.util.function.BiConsumer<Object, String> each) {
            if (value == MISSING) {
                return; // said by object()
            }
            if (!(value instanceof List<?> list)) {
                problems.add(new Problem(at, "not an array" + got(value)));
                return;
            }
            for (int i = 0; i < list.size(); i++) {
                each.accept(list.get(i), at + "[" + i + "]");
            }
        }

        private Map<String, String> strings(Object value, String at) {
            if (value == MISSING) {
                return null;
            }
            if (!(value instanceof Map<?, ?> object)) {
                problems.add(new Problem(at, "not an object of strings" + got(value)));
                return null;
            }
            Map<String, String> strings = new LinkedHashMap<>();
            boolean ok = true;
            for (Map.Entry<?, ?> entry : object.entrySet()) {
                String text = string(entry.getValue(), at + key((String) entry.getKey()));
                if (text == null) {
                    ok = false;
                } else {
                    strings.put((String) entry.getKey(), text);
                }
            }
            return ok ? strings : null;
        }

        private String string(Object value, String at) {
            if (value instanceof String text) {
                return text;
            }
            if (value != MISSING) {
                problems.add(new Problem(at, "not a string" + got(value)));
            }
            return null;
        }

        private Boolean bool(Object value, String at) {
            if (value instanceof Boolean flag) {
                return flag;
            }
            if (value != MISSING) {
                problems.add(new Problem(at, "not true or false" + got(value)));
            }
            return null;
        }

        private Integer port(Object value, String at) {
            if (value instanceof Long number && number >= 0 && number <= Integer.MAX_VALUE) {
                return number.intValue();
            }
            if (value != MISSING) {
                problems.add(new Problem(at, "not a port number (a whole number from 0)" + got(value)));
            }
            return null;
        }

        private static String got(Object value) {
            if (value == null) {
                return " but null";
            }
            String text = value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
            return ": " + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
        }
    }
}
