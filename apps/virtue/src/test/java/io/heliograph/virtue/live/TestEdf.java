package io.heliograph.virtue.live;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.EdfFormat;

/**
 * Builds small EDFs for the live package's tests: switches, PMs with their VMs (each VM's MAC is
 * {@code 02:00:00:00:00:<n>}, n its position from 1), cables (a link each way) and routes given as the
 * nodes they cross.
 */
final class TestEdf {

    private final Map<String, String> parameters = new LinkedHashMap<>();
    private final List<Edf.Pm> pms = new ArrayList<>();
    private final List<Edf.Switch> switches = new ArrayList<>();
    private final List<Edf.Link> links = new ArrayList<>();
    private final List<Edf.Route> routes = new ArrayList<>();
    private int vms;

    TestEdf() {
        parameters.put(Edf.CPU_COUNT, "2");
        parameters.put(Edf.CPU_SPEED, "2.8E9");
        parameters.put(Edf.INTRA_PM_LINK_SPEED, "200000000");
        parameters.put(Edf.LINK_SPEED, "100000000");
    }

    /** The thesis's Appendix B example, as the engine's tests read it. */
    static Edf appendixB() {
        try (InputStream in = TestEdf.class.getResourceAsStream("/io/heliograph/virtue/engine/appendix-b.json")) {
            return EdfFormat.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The same EDF with each VM given a real switch port instead of the thesis's abstract port 0: its two
     * links renamed, and the routes' link ids with them.
     */
    static Edf withVmPorts(Edf edf, Map<String, Integer> ports) {
        Map<String, String> renamed = new HashMap<>();
        List<Edf.Link> links = new ArrayList<>();
        for (Edf.Link link : edf.links()) {
            Edf.Link moved = link;
            if (ports.containsKey(link.sourceId())) {
                int port = ports.get(link.sourceId());
                moved = new Edf.Link(Edf.Link.idOf(link.sourceId(), link.sourcePort(), link.destinationId(), port),
                        link.sourceId(), link.sourcePort(), link.destinationId(), port, link.parameters());
            } else if (ports.containsKey(link.destinationId())) {
                int port = ports.get(link.destinationId());
                moved = new Edf.Link(Edf.Link.idOf(link.sourceId(), port, link.destinationId(), link.destinationPort()),
                        link.sourceId(), port, link.destinationId(), link.destinationPort(), link.parameters());
            }
            renamed.put(link.id(), moved.id());
            links.add(moved);
        }
        List<Edf.Route> routes = new ArrayList<>();
        for (Edf.Route route : edf.routes()) {
            routes.add(new Edf.Route(route.sourceId(), route.destinationId(),
                    route.linkIds().stream().map(renamed::get).toList()));
        }
        return new Edf(edf.parameters(), edf.pms(), edf.switches(), links, routes);
    }

    TestEdf parameter(String key, String value) {
        parameters.put(key, value);
        return this;
    }

    TestEdf sw(String id, boolean software) {
        switches.add(new Edf.Switch(id, Map.of(), software));
        return this;
    }

    /** A PM whose VMs hang from {@code sw}: {@code vmsAndPorts} is VM id, switch port, VM id, port, ... */
    TestEdf pm(String id, String sw, Object... vmsAndPorts) {
        Map<String, Edf.Vm> hosted = new LinkedHashMap<>();
        for (int i = 0; i < vmsAndPorts.length; i += 2) {
            String vm = (String) vmsAndPorts[i];
            int port = (Integer) vmsAndPorts[i + 1];
            vms++;
            hosted.put(vm, new Edf.Vm(vm, Map.of("MAC", String.format("02:00:00:00:00:%02X", vms))));
            links.add(link(vm, 0, sw, port, Map.of()));
            links.add(link(sw, port, vm, 0, Map.of()));
        }
        pms.add(new Edf.Pm(id, Map.of(), hosted));
        return this;
    }

    /** A link each way between two switches' ports; {@code speed} null takes the EDF's LINK_SPEED. */
    TestEdf cable(String a, int portA, String b, int portB, String speed) {
        Map<String, String> parameters = speed == null ? Map.of() : Map.of(Edf.LINK_SPEED, speed);
        links.add(link(a, portA, b, portB, parameters));
        links.add(link(b, portB, a, portA, parameters));
        return this;
    }

    /** A route over the nodes given, from the source VM to the destination VM; each hop is the first link between the two. */
    TestEdf route(String... nodes) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i < nodes.length; i++) {
            String from = nodes[i - 1];
            String to = nodes[i];
            ids.add(links.stream().filter(l -> l.sourceId().equals(from) && l.destinationId().equals(to)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no link " + from + "->" + to)).id());
        }
        routes.add(new Edf.Route(nodes[0], nodes[nodes.length - 1], ids));
        return this;
    }

    Edf build() {
        return new Edf(parameters, pms, switches, links, routes);
    }

    private static Edf.Link link(String source, int sourcePort, String destination, int destinationPort,
            Map<String, String> parameters) {
        return new Edf.Link(Edf.Link.idOf(source, sourcePort, destination, destinationPort), source, sourcePort,
                destination, destinationPort, parameters);
    }
}
