package io.heliograph.systemtest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import java.nio.file.Path;
import java.time.Duration;

import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cable;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.Testbed;

/**
 * The Virtue system tests' network, of real OVS bridges, and its EDF. Two "physical" switches c1 and
 * c2 (datapath ids 1 and 2) each connect to both PMs' software switches pm1 and pm2 (datapath ids 11
 * and 12), so there are two paths between the PMs and a route says which one a VM pair takes. The VMs
 * are namespaced hosts: vm1 (h1) and vm2 (h2) on pm1 at ports 11 and 12, vm3 (h3) and vm4 (h4) on pm2
 * at ports 13 and 14; a VM keeps its port number when it moves to the other PM. Links are 100 Mb/s and
 * a VM's link 200 Mb/s (the thesis's figures). Routes: vm1 and vm3 talk through c1, vm2 and vm4
 * through c2, vm1 and vm2 inside pm1.
 */
final class VirtueNetwork {

    static final long LINK_SPEED = 100_000_000L;
    static final long VM_LINK_SPEED = 200_000_000L;

    final Bridge c1;
    final Bridge c2;
    final Bridge pm1;
    final Bridge pm2;
    final Map<String, Host> vms = new LinkedHashMap<>();
    /** Each VM's port, on whichever PM it is. */
    final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, Bridge> pmOf = new LinkedHashMap<>();
    private final List<Cable> cables = new ArrayList<>();

    VirtueNetwork(Testbed testbed, String controllerTarget) {
        List<String> of13 = List.of("OpenFlow13");
        c1 = testbed.addSwitch(1, of13);
        c2 = testbed.addSwitch(2, of13);
        pm1 = testbed.addSwitch(11, of13);
        pm2 = testbed.addSwitch(12, of13);
        // pm1: port 1 to c1, port 2 to c2; pm2 likewise
        cables.add(testbed.link(pm1, c1));
        cables.add(testbed.link(pm1, c2));
        cables.add(testbed.link(pm2, c1));
        cables.add(testbed.link(pm2, c2));
        vm(testbed, "vm1", 1, pm1);
        vm(testbed, "vm2", 2, pm1);
        vm(testbed, "vm3", 3, pm2);
        vm(testbed, "vm4", 4, pm2);
        // No ARP: every host knows every other's MAC, so no broadcast is needed and every packet between
        // VMs is one the routes carry.
        for (Host host : vms.values()) {
            for (Host other : vms.values()) {
                if (host != other) {
                    host.exec("ip", "neigh", "replace", other.ip(), "lladdr", other.mac(), "dev", "eth0", "nud",
                            "permanent").requireSuccess();
                }
            }
        }
        for (Bridge bridge : List.of(c1, c2, pm1, pm2)) {
            bridge.setController(controllerTarget);
        }
    }

    /**
     * A copy of the built distribution as the Virtue tests run it: the statistics app polling and Virtue
     * measuring every second, and {@code virtue}'s further settings (a database).
     */
    static ControllerDistribution distribution(Map<String, String> virtue) {
        ControllerDistribution distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        distribution.configure("io.heliograph.stats", Map.of("intervalMs", "1000"));
        Map<String, String> settings = new LinkedHashMap<>(virtue);
        settings.put("sampleSeconds", "1");
        distribution.configure("io.heliograph.virtue", settings);
        return distribution;
    }

    /** The network on {@code testbed}, its four switches connected to {@code controller}, whose Virtue API answers. */
    static VirtueNetwork connected(Testbed testbed, ControllerProcess controller) {
        VirtueNetwork network = new VirtueNetwork(testbed, testbed.controllerTarget("tcp", controller.openflowPort()));
        controller.awaitSwitches(4, Duration.ofSeconds(60));
        RestClient rest = controller.rest();
        Poll.until("the Virtue app's REST API", Duration.ofSeconds(30),
                () -> rest.get("/api/v1/virtue/experiments").status(), status -> status == 200);
        return network;
    }

    private void vm(Testbed testbed, String vm, int n, Bridge pm) {
        int port = 10 + n;
        vms.put(vm, testbed.addHost(n, pm, port));
        ports.put(vm, port);
        pmOf.put(vm, pm);
    }

    List<Bridge> switches() {
        return List.of(c1, c2, pm1, pm2);
    }

    /** The port of {@code from} toward {@code to}. */
    int port(Bridge from, Bridge to) {
        for (Cable cable : cables) {
            if (cable.a() == from && cable.b() == to || cable.b() == from && cable.a() == to) {
                return cable.portOn(from);
            }
        }
        throw new IllegalArgumentException("no cable between " + from + " and " + to);
    }

    Bridge pmOf(String vm) {
        return pmOf.get(vm);
    }

    /** Moves a VM's host to the other PM's software switch, at the same port: what executing a plan does here. */
    void move(String vm, Bridge to) {
        Host host = vms.get(vm);
        pmOf.get(vm).removePort(host.switchSideDevice());
        to.addPort(host.switchSideDevice(), ports.get(vm));
        pmOf.put(vm, to);
    }

    /** The EDF of the network as it is: VMs where they are, the routes the class describes. */
    Map<String, Object> edf() {
        Map<String, Object> edf = new LinkedHashMap<>();
        edf.put("parameters", Map.of("CPU_COUNT", "2", "CPU_SPEED", "2.8E9", "LINK_SPEED", Long.toString(LINK_SPEED),
                "INTRA_PM_LINK_SPEED", Long.toString(VM_LINK_SPEED)));
        List<Object> pms = new ArrayList<>();
        for (Bridge pm : List.of(pm1, pm2)) {
            Map<String, Object> vmsOn = new LinkedHashMap<>();
            pmOf.forEach((vm, on) -> {
                if (on == pm) {
                    vmsOn.put(vm, Map.of("id", vm, "parameters", Map.of("MAC", vms.get(vm).mac())));
                }
            });
            pms.add(Map.of("id", pmId(pm), "parameters", Map.of(), "vms", vmsOn));
        }
        edf.put("pms", pms);
        List<Object> switches = new ArrayList<>();
        for (Bridge sw : switches()) {
            switches.add(Map.of("id", sw.dpid(), "parameters", Map.of(), "software", sw == pm1 || sw == pm2));
        }
        edf.put("switches", switches);
        List<Object> links = new ArrayList<>();
        for (Bridge pm : List.of(pm1, pm2)) {
            for (Bridge core : List.of(c1, c2)) {
                links.add(link(pm.dpid(), port(pm, core), core.dpid(), port(core, pm)));
                links.add(link(core.dpid(), port(core, pm), pm.dpid(), port(pm, core)));
            }
        }
        pmOf.forEach((vm, pm) -> {
            links.add(link(vm, 0, pm.dpid(), ports.get(vm)));
            links.add(link(pm.dpid(), ports.get(vm), vm, 0));
        });
        edf.put("links", links);
        List<Object> routes = new ArrayList<>();
        for (String[] pair : List.of(new String[] {"vm1", "vm3"}, new String[] {"vm3", "vm1"},
                new String[] {"vm2", "vm4"}, new String[] {"vm4", "vm2"}, new String[] {"vm1", "vm2"},
                new String[] {"vm2", "vm1"})) {
            routes.add(Map.of("sourceId", pair[0], "destinationId", pair[1], "linkIds", route(pair[0], pair[1])));
        }
        edf.put("routes", routes);
        return edf;
    }

    /** vm1-vm3 through c1, vm2-vm4 through c2, anything else within a PM or through c1. */
    List<String> route(String a, String b) {
        Bridge from = pmOf.get(a);
        Bridge to = pmOf.get(b);
        List<String> ids = new ArrayList<>();
        ids.add(id(a, 0, from.dpid(), ports.get(a)));
        if (from != to) {
            Bridge core = Set.of(a, b).contains("vm2") || Set.of(a, b).contains("vm4") ? c2 : c1;
            ids.add(id(from.dpid(), port(from, core), core.dpid(), port(core, from)));
            ids.add(id(core.dpid(), port(core, to), to.dpid(), port(to, core)));
        }
        ids.add(id(to.dpid(), ports.get(b), b, 0));
        return ids;
    }

    /** The EDF id of a PM: its software switch's name in the thesis's style. */
    String pmId(Bridge pm) {
        return pm == pm1 ? "pm1" : "pm2";
    }

    static String id(String source, int sourcePort, String destination, int destinationPort) {
        return source + ":" + sourcePort + "->" + destination + ":" + destinationPort;
    }

    private static Map<String, Object> link(String source, int sourcePort, String destination, int destinationPort) {
        Map<String, Object> link = new LinkedHashMap<>();
        link.put("destinationId", destination);
        link.put("destinationPort", destinationPort);
        link.put("id", id(source, sourcePort, destination, destinationPort));
        link.put("parameters", Map.of());
        link.put("sourceId", source);
        link.put("sourcePort", sourcePort);
        return link;
    }
}
