package io.heliograph.testbed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An application-level overlay with no switches (TESTBED.md: lighter than OVS bridges): one network
 * namespace per node, plain veth pairs between nodes, each end rate-limited by a token bucket
 * ({@code tc tbf}), and every node's own {@link ControlLink} to the root namespace, where a controller
 * and the test's clients are: control and client traffic never crosses the rate-limited links.
 *
 * <p>A link between nodes {@code a} and {@code b} has a /30 of its own from 10.200.0.0/16: {@code a} at
 * .1, {@code b} at .2, so a program in {@code b} reaches {@code a} over that link by {@link Link#aAddress}.
 * Names start with a fresh per-run prefix; closing deletes the control links and the namespaces (which
 * takes the veths along), also from a JVM shutdown hook if the test JVM ends first.
 */
public final class Overlay implements AutoCloseable {

    private final InterfaceNames names;
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, ControlLink> controls = new LinkedHashMap<>();
    private final List<Link> links = new ArrayList<>();
    private final Thread shutdownHook;
    private boolean closed;

    /**
     * A node: its namespace, its end of its control link ({@code controlAddress}: the root namespace
     * reaches it there) and the root namespace's end ({@code rootAddress}: it reaches the root there).
     */
    public record Node(String name, String namespace, String controlAddress, String rootAddress) {
    }

    /** A rate-limited link: {@code a}'s end at {@code aAddress}, {@code b}'s at {@code bAddress}. */
    public record Link(Node a, Node b, String aDevice, String bDevice, String aAddress, String bAddress, String rate) {
    }

    private Overlay(InterfaceNames names) {
        this.names = names;
        this.shutdownHook = new Thread(this::closeQuietly, "overlay-cleanup-" + names.prefix());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** An empty overlay with a fresh name prefix. */
    public static Overlay create() {
        Testbed.requireRoot();
        return new Overlay(InterfaceNames.fresh(Links.namesInUse()));
    }

    /** Node {@code name} (lower-case letters and digits, a few characters): a namespace with lo up and a control link. */
    public synchronized Node addNode(String name) {
        String namespace = names.name(name);
        Command.of("ip", "netns", "add", namespace).check();
        Node node;
        ControlLink control = null;
        try {
            Links.disableIpv6(namespace, "all");
            Command.of("ip", "-n", namespace, "link", "set", "lo", "up").check();
            control = ControlLink.create(names.name("k" + name), namespace);
            String address = Command.of("ip", "-n", namespace, "-4", "-o", "addr", "show", "dev", "ctl").check().stdout();
            String controlAddress = address.replaceAll("(?s).*inet ([0-9.]+)/.*", "$1").strip();
            node = new Node(name, namespace, controlAddress, control.controllerAddress());
        } catch (RuntimeException | AssertionError e) {
            if (control != null) {
                control.close();
            }
            Links.deleteNamespaceIfPresent(namespace);
            throw e;
        }
        nodes.put(name, node);
        controls.put(name, control);
        return node;
    }

    /**
     * A veth pair between {@code a} and {@code b}, both ends shaped to {@code rate} (tc's syntax, e.g.
     * "7500kbit") by a token bucket with a queue of about 200 ms at that rate.
     */
    public synchronized Link link(Node a, Node b, String rate, long rateKbps) {
        int index = links.size();
        if (index >= 1 << 14) {
            throw new IllegalStateException("an overlay has at most " + (1 << 14) + " links");
        }
        String aDevice = names.name(a.name() + b.name());
        String bDevice = names.name(b.name() + a.name());
        int third = index >> 6;
        int fourth = (index & 0x3f) << 2;
        String aAddress = "10.200." + third + "." + (fourth + 1);
        String bAddress = "10.200." + third + "." + (fourth + 2);
        Command.of("ip", "link", "add", aDevice, "netns", a.namespace(), "type", "veth", "peer", "name", bDevice,
                "netns", b.namespace()).check();
        long burstBytes = burstBytes(rateKbps);
        long limitBytes = limitBytes(rateKbps);
        for (String[] end : List.of(new String[] {a.namespace(), aDevice, aAddress},
                new String[] {b.namespace(), bDevice, bAddress})) {
            Command.of("ip", "-n", end[0], "addr", "add", end[2] + "/30", "dev", end[1]).check();
            Command.of("ip", "-n", end[0], "link", "set", end[1], "up").check();
            Command.of("ip", "netns", "exec", end[0], "tc", "qdisc", "add", "dev", end[1], "root", "tbf", "rate", rate,
                    "burst", Long.toString(burstBytes), "limit", Long.toString(limitBytes)).check();
        }
        Link link = new Link(a, b, aDevice, bDevice, aAddress, bAddress, rate);
        links.add(link);
        return link;
    }

    /** Shapes both ends of {@code link} to {@code rateKbps} now (tc's change of the token bucket), as {@link #link} does. */
    public synchronized void rate(Link link, long rateKbps) {
        for (String[] end : List.of(new String[] {link.a().namespace(), link.aDevice()},
                new String[] {link.b().namespace(), link.bDevice()})) {
            Command.of("ip", "netns", "exec", end[0], "tc", "qdisc", "change", "dev", end[1], "root", "tbf", "rate",
                    rateKbps + "kbit", "burst", Long.toString(burstBytes(rateKbps)), "limit",
                    Long.toString(limitBytes(rateKbps))).check();
        }
    }

    /** At least one MTU-sized packet plus some, else tbf refuses. */
    private static long burstBytes(long rateKbps) {
        return Math.max(16_000, rateKbps * 1000 / 8 / 100);
    }

    /** About 200 ms of queue at the rate. */
    private static long limitBytes(long rateKbps) {
        return Math.max(32_000, rateKbps * 1000 / 8 / 5);
    }

    public synchronized List<Link> links() {
        return List.copyOf(links);
    }

    /** tc's statistics of both ends of a link (bytes and packets sent, drops, overlimits). */
    public String linkStatistics(Link link) {
        return Command.of("ip", "netns", "exec", link.a().namespace(), "tc", "-s", "qdisc", "show", "dev", link.aDevice())
                .run().stdout()
                + Command.of("ip", "netns", "exec", link.b().namespace(), "tc", "-s", "qdisc", "show", "dev", link.bDevice())
                .run().stdout();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Cleanup cleanup = new Cleanup("overlay " + names.prefix());
        for (Node node : nodes.values()) {
            cleanup.close("control link of " + node.name(), controls.get(node.name()));
            cleanup.run("delete namespace " + node.namespace(), () -> Links.deleteNamespaceIfPresent(node.namespace()));
        }
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
            System.err.println("overlay cleanup at JVM exit: " + e);
        }
    }
}
