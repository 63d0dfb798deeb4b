package io.heliograph.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Locale;
import java.util.function.BooleanSupplier;

import io.heliograph.bench.LoadGenerator.BenchException;

/**
 * The fabric mode: every switch of a {@link Fabric} connects to the controller at once, answers its
 * handshake with the fabric's ports, and is cabled to its neighbours: an LLDP frame the controller
 * sends out of a cabled port arrives at the peer switch's port and goes up as that switch's
 * PACKET_IN, with the peer port as in_port; one sent out of a host port is gone. Like the cbench
 * generator, one thread and one selector; the switches never send packet-ins of their own.
 *
 * <p>A switch the controller disconnects connects again a second later with a fresh handshake, as a
 * real switch does. What it measures (each time from the start of the connecting):
 * when every switch was connected, was asked for its features, was counted by the controller's
 * health resource, had its first LLDP probe; and when every directed link had carried a probe.
 */
final class EmulatedFabric implements EmulatedSwitch.Cabling, AutoCloseable {

    private static final long RECONNECT_NANOS = 1_000_000_000L;
    private static final long STATUS_NANOS = 1_000_000_000L;
    private static final long LOOK_AGAIN_NANOS = 100_000_000L;
    /** File descriptors the JVM needs besides the switches' sockets. */
    private static final int SPARE_DESCRIPTORS = 64;

    private final FabricOptions options;
    private final Fabric fabric;
    private final PrintStream out;
    private final Selector selector;
    private final InetSocketAddress controller;
    private final Connection[] connections;
    private final ArrayDeque<Connection> toFlush = new ArrayDeque<>();
    /** Global port indices (Fabric#portIndex) of the ports a probe has left by and reached a peer. */
    private final BitSet probedPorts;
    private final int[] outputPorts = new int[SwitchMessages.MAX_PORTS];
    private int outputCount;
    private ControllerHealth health;
    private BenchException failure;

    private long startedAt;
    private int connected;
    private int everConnected;
    private int askedForFeatures;
    private int probedSwitches;
    private int probedLinks;
    private long lldpPacketOuts;
    private long relayed;
    private long toHostPorts;
    private long peerNotConnected;
    private long notAPort;
    private long unreadable;
    private String firstUnreadable;
    private int lost;
    private String firstClose;
    private int reconnectsPending;

    /** System.nanoTime of each milestone, 0 until reached; and whether it was printed. */
    private long allConnectedAt;
    private long allAskedAt;
    private long allProbedAt;
    private long allLinksAt;
    private long healthAt;
    private int printed;

    EmulatedFabric(FabricOptions options, PrintStream out) throws IOException {
        this.options = options;
        this.fabric = options.fabric();
        this.out = out;
        this.selector = Selector.open();
        this.controller = new InetSocketAddress(options.host(), options.port());
        this.connections = new Connection[fabric.switches()];
        this.probedPorts = new BitSet(fabric.totalPorts());
    }

    /** Polls the controller's health for its switch count while the fabric runs; closed with the fabric. */
    void watch(ControllerHealth controllerHealth) {
        this.health = controllerHealth;
    }

    /** Opens every switch's connection at once; the handshakes go on in {@link #runUntil}. */
    void start() throws BenchException, IOException {
        if (controller.isUnresolved()) {
            throw new BenchException("-c: cannot resolve the controller host '" + options.host() + "'");
        }
        long limit = descriptorLimit();
        if (limit > 0 && limit < fabric.switches() + SPARE_DESCRIPTORS) {
            throw new BenchException(fabric.switches() + " switches need " + (fabric.switches() + SPARE_DESCRIPTORS)
                    + " file descriptors but this process may open " + limit + ": raise the limit (ulimit -n "
                    + (fabric.switches() + 1024) + ") or emulate fewer switches");
        }
        startedAt = System.nanoTime();
        for (int i = 0; i < connections.length; i++) {
            connections[i] = new Connection(i);
            open(connections[i]);
        }
    }

    /** Runs the fabric until {@code done} says so or {@code deadline} (System.nanoTime) passes; true when done. */
    boolean runUntil(BooleanSupplier done, long deadline) throws BenchException, IOException {
        while (!done.getAsBoolean()) {
            long now = System.nanoTime();
            if (now >= deadline) {
                return false;
            }
            // done may depend on other threads (the health poller, a test's controller): look again soon
            long wait = Math.min(deadline - now, LOOK_AGAIN_NANOS);
            selector.select(this::ready, Math.max(1, wait / 1_000_000L));
            flushQueued();
            if (reconnectsPending > 0) {
                reconnectDue(System.nanoTime());
            }
            noteMilestones();
            if (failure != null) {
                throw failure;
            }
        }
        return true;
    }

    /** The command: describes the fabric, starts it, and prints milestones and a status line a second. */
    void run() throws BenchException, IOException {
        out.println("fabric: " + fabric.describe());
        out.printf(Locale.ROOT, "fabric: connecting %d switches (datapath ids %d to %d) to %s:%d, OpenFlow %s,"
                        + " at %d ms since the epoch%n", fabric.switches(), options.dpidOffset(),
                options.dpidOffset() + fabric.switches() - 1, options.host(), options.port(),
                options.version().label(), System.currentTimeMillis());
        out.flush();
        start();
        long end = options.durationSeconds() == 0 ? Long.MAX_VALUE
                : startedAt + options.durationSeconds() * 1_000_000_000L;
        long nextStatus = startedAt + STATUS_NANOS;
        while (System.nanoTime() < end) {
            runUntil(() -> false, Math.min(nextStatus, end));
            if (System.nanoTime() >= nextStatus) {
                out.println(status());
                out.flush();
                nextStatus += STATUS_NANOS;
            }
        }
        out.println("fabric: stopped after " + seconds(System.nanoTime()) + " s; " + status());
        warnings();
        out.flush();
    }

    @Override
    public void packetOut(EmulatedSwitch from, ByteBuffer message, int at, int length) {
        int sw = from.number() - 1;
        lldpPacketOuts++;
        if (!connections[sw].probed) {
            connections[sw].probed = true;
            if (++probedSwitches == connections.length) {
                allProbedAt = System.nanoTime();
            }
        }
        int frame;
        outputCount = 0;
        try {
            frame = PacketOut.outputs(from.version(), message, at, length, this::output);
        } catch (IllegalArgumentException e) {
            unreadable++;
            if (firstUnreadable == null) {
                firstUnreadable = "switch " + from.dpid() + ": " + e.getMessage();
            }
            return;
        }
        for (int i = 0; i < outputCount; i++) {
            carry(sw, outputPorts[i], message, frame, at + length - frame);
        }
    }

    /** One more port the frame leaves by; no switch has more ports than that array, so more is nonsense. */
    private void output(int port) {
        if (outputCount == outputPorts.length) {
            throw new IllegalArgumentException("more than " + outputPorts.length + " OUTPUT actions");
        }
        outputPorts[outputCount++] = port;
    }

    /** The frame leaves {@code port} of switch {@code sw}: across the cable, if there is one. */
    private void carry(int sw, int port, ByteBuffer message, int frame, int frameLength) {
        if (!fabric.hasPort(sw, port)) {
            notAPort++;   // a reserved port (FLOOD, ALL, ...) or one the switch does not have
            return;
        }
        int peer = fabric.peerSwitch(sw, port);
        if (peer < 0) {
            toHostPorts++;
            return;
        }
        Connection p = connections[peer];
        if (!p.connected) {
            peerNotConnected++;
            return;
        }
        p.sw.lldpIn(fabric.peerPort(sw, port), message, frame, frameLength);
        relayed++;
        int index = fabric.portIndex(sw, port);
        if (!probedPorts.get(index)) {
            probedPorts.set(index);
            if (++probedLinks == fabric.directedLinks()) {
                allLinksAt = System.nanoTime();
            }
        }
        if (!p.queued) {
            p.queued = true;
            toFlush.add(p);
        }
    }

    int probedLinks() {
        return probedLinks;
    }

    long relayed() {
        return relayed;
    }

    long toHostPorts() {
        return toHostPorts;
    }

    int askedForFeatures() {
        return askedForFeatures;
    }

    /** One line: where every count stands, seconds since the start. */
    String status() {
        int errors = 0;
        for (Connection c : connections) {
            if (c != null) {
                errors += c.errorsBefore + c.sw.errorsReceived();
            }
        }
        return String.format(Locale.ROOT, "status %s s: connected %d/%d, asked for features %d, health %s,"
                        + " probed %d, LLDP packet-outs %d, relayed %d, to host ports %d, peer not connected %d,"
                        + " links probed %d/%d, connections lost %d, OpenFlow errors %d",
                seconds(System.nanoTime()), connected, connections.length, askedForFeatures,
                health == null ? "not polled" : Integer.toString(health.switches()), probedSwitches, lldpPacketOuts,
                relayed, toHostPorts, peerNotConnected, probedLinks, fabric.directedLinks(), lost,
                errors);
    }

    private void noteMilestones() {
        if (health != null && healthAt == 0 && health.reachedAt() != 0) {
            healthAt = health.reachedAt();
        }
        int reached = (allConnectedAt != 0 ? 1 : 0) | (allAskedAt != 0 ? 2 : 0) | (healthAt != 0 ? 4 : 0)
                | (allProbedAt != 0 ? 8 : 0) | (allLinksAt != 0 ? 16 : 0);
        int fresh = reached & ~printed;
        if (fresh == 0) {
            return;
        }
        int n = connections.length;
        milestone(fresh, 1, allConnectedAt, "all " + n + " switches connected (TCP)");
        milestone(fresh, 2, allAskedAt, "all " + n + " switches asked for their features");
        milestone(fresh, 4, healthAt, "the controller's health counts " + n + " switches");
        milestone(fresh, 8, allProbedAt, "all " + n + " switches sent their first LLDP probe");
        milestone(fresh, 16, allLinksAt, "all " + fabric.directedLinks() + " directed links carried a probe");
        printed = reached;
        out.flush();
    }

    private void milestone(int fresh, int bit, long at, String what) {
        if ((fresh & bit) != 0) {
            out.println("milestone " + seconds(at) + " s: " + what);
        }
    }

    private void warnings() {
        if (lost > 0) {
            out.println("warning: " + lost + " connections were lost (the first: "
                    + firstClose + "); each switch connected again after " + RECONNECT_NANOS / 1_000_000 + " ms");
        }
        if (unreadable > 0) {
            out.println("warning: " + unreadable + " LLDP PACKET_OUTs could not be read (the first: " + firstUnreadable
                    + ")");
        }
        if (notAPort > 0) {
            out.println("warning: " + notAPort + " LLDP frames went to a reserved or missing port and were dropped");
        }
        if (health != null && health.problem() != null) {
            out.println("warning: the health resource: " + health.problem());
        }
        if (probedLinks < fabric.directedLinks()) {
            out.println("warning: only " + probedLinks + " of " + fabric.directedLinks()
                    + " directed links carried a probe");
        }
    }

    private String seconds(long nanoTime) {
        return String.format(Locale.ROOT, "%.3f", (nanoTime - startedAt) / 1e9);
    }

    // --- connections

    private void open(Connection c) throws BenchException, IOException {
        c.sw = new EmulatedSwitch(c.index + 1, options.dpidOffset() + c.index, options.switchOptions(),
                fabric.ports(c.index), this);
        c.channel = SocketChannel.open();
        try {
            c.channel.configureBlocking(false);
            c.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            boolean now = c.channel.connect(controller);
            c.key = c.channel.register(selector, now ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, c);
            c.ops = c.key.interestOps();
            if (now) {
                connectedNow(c);
            }
        } catch (IOException e) {
            c.channel.close();
            throw new BenchException("switch " + (c.index + 1) + " (dpid " + c.sw.dpid() + ") cannot connect to the"
                    + " controller at " + options.host() + ":" + options.port() + ": " + e.getMessage());
        }
    }

    private void ready(SelectionKey key) {
        Connection c = (Connection) key.attachment();
        try {
            if (key.isConnectable()) {
                c.channel.finishConnect();
                connectedNow(c);
            }
            if (key.isValid() && key.isReadable()) {
                int n = c.channel.read(c.sw.input());
                if (n < 0) {
                    lost(c, "the controller closed the connection");
                    return;
                }
                if (n > 0) {
                    c.sw.process();
                    if (!c.askedForFeatures && c.sw.state() != EmulatedSwitch.State.HANDSHAKE) {
                        c.askedForFeatures = true;
                        if (++askedForFeatures == connections.length) {
                            allAskedAt = System.nanoTime();
                        }
                    }
                }
            }
            flush(c);
        } catch (EmulatedSwitch.ProtocolException e) {
            failure = new BenchException(e.getMessage());
        } catch (IOException e) {
            if (!c.connected && everConnected == 0) {
                failure = new BenchException("switch " + c.sw.number() + " (dpid " + c.sw.dpid() + ") cannot connect"
                        + " to the controller at " + options.host() + ":" + options.port() + ": " + e.getMessage());
            } else {
                lost(c, e.getMessage());
            }
        }
    }

    private void connectedNow(Connection c) throws IOException {
        c.connected = true;
        connected++;
        if (!c.everConnected) {
            c.everConnected = true;
            if (++everConnected == connections.length) {
                allConnectedAt = System.nanoTime();
            }
        }
        c.ops = -1;   // the key's interest set is the connect's: set it anew
        flush(c);     // the HELLO
    }

    private void flushQueued() {
        Connection c;
        while ((c = toFlush.poll()) != null) {
            c.queued = false;
            if (c.connected) {
                try {
                    flush(c);
                } catch (IOException e) {
                    lost(c, e.getMessage());
                }
            }
        }
    }

    /** Sends what the socket takes now; asks to hear when it can take more, if anything is left. */
    private static void flush(Connection c) throws IOException {
        ByteBuffer o = c.sw.output();
        if (o.position() > 0) {
            o.flip();
            c.channel.write(o);
            o.compact();
        }
        int want = o.position() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
        if (want != c.ops) {
            c.key.interestOps(want);
            c.ops = want;
        }
    }

    /** The connection is gone: the switch tries again a second later, with a fresh handshake. */
    private void lost(Connection c, String why) {
        if (c.connected) {
            connected--;
        }
        c.connected = false;
        lost++;
        if (firstClose == null) {
            firstClose = String.format(Locale.ROOT, "switch %d (%s) at %s s: %s", c.sw.dpid(),
                    fabric.name(c.index), seconds(System.nanoTime()), why);
        }
        c.errorsBefore += c.sw.errorsReceived();
        c.key.cancel();
        try {
            c.channel.close();
        } catch (IOException e) {
            // closing a broken socket: nothing more to learn
        }
        c.reconnectAt = System.nanoTime() + RECONNECT_NANOS;
        reconnectsPending++;
    }

    private void reconnectDue(long now) throws BenchException, IOException {
        for (Connection c : connections) {
            if (c.reconnectAt != 0 && now - c.reconnectAt >= 0) {
                c.reconnectAt = 0;
                reconnectsPending--;
                open(c);
            }
        }
    }

    /** The most file descriptors this process may have open; 0 when the JVM does not say. */
    private static long descriptorLimit() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            return os.getMaxFileDescriptorCount();
        }
        return 0;
    }

    @Override
    public void close() throws IOException {
        if (health != null) {
            health.close();
        }
        for (Connection c : connections) {
            if (c != null && c.channel != null) {
                c.channel.close();
            }
        }
        selector.close();
    }

    /** One switch's place in the fabric and its connection; a new EmulatedSwitch each time it connects. */
    private static final class Connection {
        final int index;
        EmulatedSwitch sw;
        SocketChannel channel;
        SelectionKey key;
        int ops;
        boolean connected;
        boolean everConnected;
        boolean askedForFeatures;
        boolean probed;
        boolean queued;
        long reconnectAt;
        int errorsBefore;

        Connection(int index) {
            this.index = index;
        }
    }
}
