package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A network of real parts for one test: a private {@link OvsInstance}, its bridges, hosts in network
 * namespaces and switch-to-switch veth links, all named with a prefix unique to this run.
 *
 * <p>The switches live in a network namespace of their own ({@code <prefix>sw}), so testbeds never
 * share OVS's devices. They reach a controller in the root namespace over a veth pair with a /30 of
 * its own: {@link #controllerTarget} gives the address to connect to.
 *
 * <p>Closing removes everything it created (namespaces, veths, bridges, OVS processes), also when
 * the test failed; a JVM shutdown hook does the same if the test JVM is ended first.
 */
public final class Testbed implements AutoCloseable {

    private final String label;
    private final InterfaceNames names;
    private final Path workDir;
    private final Path artifacts;
    private final String switchNamespace;
    private final List<Host> hosts = new ArrayList<>();
    private final Thread shutdownHook;
    private OvsInstance ovs;
    private ControlLink controlLink;
    private boolean closed;

    private Testbed(String label, InterfaceNames names, Path workDir) {
        this.label = label;
        this.names = names;
        this.workDir = workDir;
        this.artifacts = ArtifactDirectory.forTest(label);
        this.switchNamespace = names.name("sw");
        this.shutdownHook = new Thread(this::closeQuietly, "testbed-cleanup-" + names.prefix());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a private OVS instance for a testbed whose logs are kept under {@code label}. */
    public static Testbed start(String label) {
        requireRoot();
        OvsInstance.requireInstalled();
        InterfaceNames names = InterfaceNames.fresh(Links.namesInUse());
        Path workDir;
        try {
            // short: OVS's unix socket paths must stay under ~100 characters
            workDir = Files.createTempDirectory(Path.of("/tmp"), names.prefix() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Testbed testbed = new Testbed(label, names, workDir);
        try {
            Command.of("ip", "netns", "add", testbed.switchNamespace).check();
            Command.of("ip", "-n", testbed.switchNamespace, "link", "set", "lo", "up").check();
            testbed.controlLink = ControlLink.create(names.name("ctl"), testbed.switchNamespace);
            testbed.ovs = OvsInstance.start(workDir, testbed.switchNamespace);
            return testbed;
        } catch (RuntimeException | AssertionError e) {
            testbed.closeQuietly();
            throw e;
        }
    }

    /** Namespaces, veths and OVS need root; say so plainly rather than fail on the first ip command. */
    public static void requireRoot() {
        String uid = Command.of("id", "-u").check().stdout().strip();
        if (!uid.equals("0")) {
            throw new IllegalStateException("system tests need root (network namespaces, veths, Open vSwitch); "
                    + "running as uid " + uid);
        }
    }

    public OvsInstance ovs() {
        return ovs;
    }

    public InterfaceNames names() {
        return names;
    }

    public Path workDir() {
        return workDir;
    }

    /** Where this testbed's logs are kept after the run. */
    public Path artifacts() {
        return artifacts;
    }

    public List<Host> hosts() {
        return List.copyOf(hosts);
    }

    /** The network namespace the switches (ovs-vswitchd and every port) are in. */
    public String switchNamespace() {
        return switchNamespace;
    }

    /** Where the switches reach a controller listening on {@code port} of the root namespace, e.g. "tcp:172.31.4.9:6653". */
    public String controllerTarget(String scheme, int port) {
        return scheme + ":" + controlLink.controllerAddress() + ":" + port;
    }

    /** Switch {@code n}: bridge {@code <prefix>s<n>} with datapath id n, fail-mode secure, speaking {@code protocols}. */
    public Bridge addSwitch(int n, List<String> protocols) {
        return ovs.addBridge(names.name("s" + n), n, protocols, OvsInstance.FailMode.SECURE);
    }

    public Bridge addSwitch(int n, List<String> protocols, OvsInstance.FailMode failMode) {
        return ovs.addBridge(names.name("s" + n), n, protocols, failMode);
    }

    /** Host {@code n} at 10.0.0.n with MAC 02:00:00:00:00:nn, attached to the next port of {@code bridge}. */
    public Host addHost(int n, Bridge bridge) {
        Host host = newHost(n);
        bridge.addPort(host.switchSideDevice());
        return host;
    }

    /** Host {@code n}, as {@link #addHost(int, Bridge)}, at port {@code port} of {@code bridge}. */
    public Host addHost(int n, Bridge bridge, int port) {
        Host host = newHost(n);
        bridge.addPort(host.switchSideDevice(), port);
        return host;
    }

    private Host newHost(int n) {
        if (n < 1 || n > 254) {
            throw new IllegalArgumentException("host number must be 1..254, was " + n);
        }
        String device = names.name("h" + n);
        Host host = Host.create("h" + n, names.name("h" + n), switchNamespace, device, "10.0.0." + n,
                String.format("02:00:00:00:00:%02x", n));
        hosts.add(host);
        return host;
    }

    /** A veth pair between two bridges, each end the next port of its bridge. */
    public Cable link(Bridge a, Bridge b) {
        String aSide = a.name() + b.name().substring(names.prefix().length());
        String bSide = b.name() + a.name().substring(names.prefix().length());
        names.name(aSide.substring(names.prefix().length()));   // length check
        names.name(bSide.substring(names.prefix().length()));
        Command.of("ip", "-n", switchNamespace, "link", "add", aSide, "type", "veth", "peer", "name", bSide).check();
        for (String device : List.of(aSide, bSide)) {
            Links.preparePort(switchNamespace, device);
        }
        return new Cable(switchNamespace, a, a.addPort(aSide), aSide, b, b.addPort(bSide), bSide);
    }

    /**
     * A line of {@code count} switches {@code s1 - s2 - ... - sN}, host {@code hI} on switch {@code sI}
     * (port 1), each switch connected to {@code controllerTargets} (see {@link #controllerTarget}).
     */
    public LinearTopology linear(int count, List<String> protocols, String... controllerTargets) {
        return linear(Collections.nCopies(count, protocols), controllerTargets);
    }

    /**
     * As {@link #linear(int, List, String...)}, each switch speaking only its own version: switch
     * {@code sI} speaks {@code versions.get(I - 1)}, e.g. {@code OpenFlow13, OpenFlow15}.
     */
    public LinearTopology linearOfVersions(List<String> versions, String... controllerTargets) {
        return linear(versions.stream().map(List::of).toList(), controllerTargets);
    }

    private LinearTopology linear(List<List<String>> protocolsBySwitch, String... controllerTargets) {
        int count = protocolsBySwitch.size();
        List<Bridge> switches = new ArrayList<>();
        List<Host> lineHosts = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            Bridge bridge = addSwitch(i, protocolsBySwitch.get(i - 1));
            switches.add(bridge);
            lineHosts.add(addHost(i, bridge));
        }
        for (int i = 1; i < count; i++) {
            link(switches.get(i - 1), switches.get(i));
        }
        if (controllerTargets.length > 0) {
            ovs.setController(switches, controllerTargets);
        }
        return new LinearTopology(switches, lineHosts);
    }

    /**
     * A k-ary fat tree (k even): (k/2)^2 core switches, k pods of k/2 aggregation and k/2 edge
     * switches, k/2 hosts on each edge switch; not yet connected to a controller. Switches are
     * numbered cores first, then pod by pod aggregation and edge; hosts in edge order.
     * Ports, in order: an edge switch's hosts, then its aggregation switches; an aggregation
     * switch's edge switches, then its cores; a core's pods. For k=4: 20 switches, 16 hosts, 32 cables.
     */
    public FatTree fatTree(int k, List<String> protocols) {
        if (k < 2 || k % 2 != 0) {
            throw new IllegalArgumentException("a fat tree needs an even k >= 2, was " + k);
        }
        int half = k / 2;
        int next = 1;
        List<Bridge> cores = new ArrayList<>();
        for (int c = 0; c < half * half; c++) {
            cores.add(addSwitch(next++, protocols));
        }
        List<List<Bridge>> aggregation = new ArrayList<>();
        List<List<Bridge>> edge = new ArrayList<>();
        for (int pod = 0; pod < k; pod++) {
            List<Bridge> aggs = new ArrayList<>();
            for (int a = 0; a < half; a++) {
                aggs.add(addSwitch(next++, protocols));
            }
            List<Bridge> edges = new ArrayList<>();
            for (int e = 0; e < half; e++) {
                edges.add(addSwitch(next++, protocols));
            }
            aggregation.add(aggs);
            edge.add(edges);
        }
        List<Host> treeHosts = new ArrayList<>();
        int hostNumber = 1;
        for (List<Bridge> edges : edge) {
            for (Bridge e : edges) {
                for (int h = 0; h < half; h++) {
                    treeHosts.add(addHost(hostNumber++, e));
                }
            }
        }
        List<Cable> cables = new ArrayList<>();
        for (int pod = 0; pod < k; pod++) {
            for (Bridge e : edge.get(pod)) {
                for (Bridge a : aggregation.get(pod)) {
                    cables.add(link(e, a));
                }
            }
        }
        for (int pod = 0; pod < k; pod++) {
            for (int a = 0; a < half; a++) {
                for (int c = 0; c < half; c++) {
                    cables.add(link(aggregation.get(pod).get(a), cores.get(a * half + c)));
                }
            }
        }
        return new FatTree(k, cores, aggregation, edge, treeHosts, cables);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Cleanup cleanup = new Cleanup("testbed " + label + " (" + names.prefix() + ")");
        for (Host host : hosts) {
            cleanup.run("host " + host.name(), host::destroy);
        }
        cleanup.close("OVS", ovs);
        if (ovs != null) {
            cleanup.run("keep OVS logs", () -> ovs.copyLogsTo(artifacts));
        }
        // takes every device in it along, the switch-to-switch links and the control link's peer too
        cleanup.run("delete namespace " + switchNamespace, () -> Links.deleteNamespaceIfPresent(switchNamespace));
        cleanup.close("control link", controlLink);
        cleanup.run("delete " + workDir, () -> deleteTree(workDir));
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // closing from the hook itself
        }
        cleanup.finish();
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println("testbed cleanup at JVM exit: " + e);
        }
    }

    private static void deleteTree(Path dir) {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public record LinearTopology(List<Bridge> switches, List<Host> hosts) {
        public Host first() {
            return hosts.get(0);
        }

        public Host last() {
            return hosts.get(hosts.size() - 1);
        }
    }
}
