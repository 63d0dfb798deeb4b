package io.heliograph.bench;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.netty.buffer.Unpooled;

/**
 * A controller for tests of the fabric mode, over real sockets, one thread per switch: it takes
 * every switch through HELLO, FEATURES and (1.3) PORT_DESC, then sends one LLDP frame out of each
 * of its ports - a frame that names the switch and the port it left by - and records every
 * packet-in that comes back: at which switch and port, and the frame. It can close a switch's
 * connection once, after probing, to see the switch connect again.
 */
final class ProbingController implements AutoCloseable {

    /** A frame that came back: where it arrived, and the switch and port it was sent out of. */
    record Arrival(long atDpid, int atPort, long fromDpid, int fromPort, byte[] frame) {
    }

    private final OFFactory factory;
    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Queue<Arrival> arrivals = new ConcurrentLinkedQueue<>();
    private final Map<Long, Integer> portsOf = new ConcurrentHashMap<>();
    private final Map<Long, AtomicInteger> handshakes = new ConcurrentHashMap<>();
    private final Queue<String> problems = new ConcurrentLinkedQueue<>();
    private volatile long closeOnce = -1;

    private ProbingController(OpenFlowVersion version) throws IOException {
        this.factory = OFFactories.getFactory(WireFormatTest.loxi(version));
        this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "probing-controller");
        acceptor.setDaemon(true);
    }

    static ProbingController start(OpenFlowVersion version) throws IOException {
        ProbingController controller = new ProbingController(version);
        controller.acceptor.start();
        return controller;
    }

    int port() {
        return server.getLocalPort();
    }

    List<Arrival> arrivals() {
        return List.copyOf(arrivals);
    }

    /** Ports each switch (by datapath id) described in its handshake. */
    Map<Long, Integer> portsOf() {
        return Map.copyOf(portsOf);
    }

    /** How many times the switch went through the handshake. */
    int handshakes(long dpid) {
        AtomicInteger n = handshakes.get(dpid);
        return n == null ? 0 : n.get();
    }

    List<String> problems() {
        return List.copyOf(problems);
    }

    /** Closes the connection of {@code dpid} once, right after probing its ports. */
    void closeOnceAfterProbing(long dpid) {
        closeOnce = dpid;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                Thread t = new Thread(() -> serve(socket), "probing-controller-switch");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket socket) {
        long dpid = -1;
        // A switch may relay a peer's probe before it has been asked for its features: such packet-ins
        // are recorded once the features reply says which switch this connection is.
        List<OFPacketIn> early = new ArrayList<>();
        try (socket) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            send(out, factory.buildHello().build());
            send(out, factory.buildFeaturesRequest().setXid(1).build());
            while (true) {
                OFMessage m = read(in);
                if (m instanceof OFFeaturesReply features) {
                    dpid = features.getDatapathId().getLong();
                    for (OFPacketIn packetIn : early) {
                        record(dpid, packetIn);
                    }
                    early.clear();
                    if (factory.getVersion() == OFVersion.OF_10) {
                        probe(out, dpid, features.getPorts());
                    } else {
                        send(out, factory.buildPortDescStatsRequest().setXid(2).build());
                    }
                } else if (m instanceof OFPortDescStatsReply desc) {
                    probe(out, dpid, desc.getEntries());
                } else if (m instanceof OFEchoRequest echo) {
                    send(out, factory.buildEchoReply().setXid(echo.getXid()).setData(echo.getData()).build());
                } else if (m instanceof OFPacketIn packetIn) {
                    if (dpid == -1) {
                        early.add(packetIn);
                    } else {
                        record(dpid, packetIn);
                    }
                }
            }
        } catch (EOFException | java.net.SocketException e) {
            // the switch or the test closed the connection
        } catch (IOException | RuntimeException e) {
            problems.add("switch " + dpid + ": " + e);
        }
    }

    private void probe(OutputStream out, long dpid, List<OFPortDesc> ports) throws IOException {
        portsOf.put(dpid, ports.size());
        handshakes.computeIfAbsent(dpid, d -> new AtomicInteger()).incrementAndGet();
        for (OFPortDesc port : ports) {
            send(out, factory.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER).setInPort(OFPort.CONTROLLER)
                    .setActions(List.of(factory.actions().output(port.getPortNo(), 0)))
                    .setData(probeFrame(dpid, port.getPortNo().getPortNumber())).build());
        }
        if (closeOnce == dpid) {
            closeOnce = -1;
            throw new EOFException("closed by the test");
        }
    }

    private void record(long dpid, OFPacketIn packetIn) {
        OFPort inPort = packetIn.getVersion() == OFVersion.OF_10 ? packetIn.getInPort()
                : packetIn.getMatch().get(MatchField.IN_PORT);
        ByteBuffer frame = ByteBuffer.wrap(packetIn.getData());
        arrivals.add(new Arrival(dpid, inPort.getPortNumber(), frame.getLong(14), frame.getInt(22),
                packetIn.getData()));
    }

    /** An LLDP-typed frame whose first payload bytes are the sender's datapath id and port. */
    static byte[] probeFrame(long dpid, int port) {
        byte[] frame = FabricSwitchTest.frame(EthType.LLDP.getValue(), 60);
        ByteBuffer.wrap(frame).putLong(14, dpid).putInt(22, port);
        return frame;
    }

    static void send(OutputStream out, OFMessage m) throws IOException {
        ByteBuffer b = WireFormatTest.encode(m);
        out.write(b.array(), 0, b.limit());
        out.flush();
    }

    static OFMessage read(DataInputStream in) throws IOException {
        byte[] header = new byte[Header.LENGTH];
        in.readFully(header);
        int length = ByteBuffer.wrap(header).getShort(2) & 0xffff;
        byte[] message = new byte[length];
        System.arraycopy(header, 0, message, 0, Header.LENGTH);
        in.readFully(message, Header.LENGTH, length - Header.LENGTH);
        try {
            return OFFactories.getGenericReader().readFrom(Unpooled.wrappedBuffer(message));
        } catch (Exception e) {
            throw new IOException("Loxi cannot read a message of type " + message[1], e);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        List<Socket> open = new ArrayList<>(sockets);
        for (Socket s : open) {
            s.close();
        }
    }
}
