package io.heliograph.openflow;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesRequest;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFPortFeatures;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U32;

import io.netty.buffer.Unpooled;

/**
 * An OpenFlow switch in the test JVM, on a blocking socket: it says HELLO with the versions it is
 * given, answers the handshake (FEATURES, port descriptions, DESC, BARRIER) and ECHO requests
 * automatically unless told not to, and records everything the controller sends.
 */
final class FakeSwitch implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(5);

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final Set<OFVersion> offered;
    private final DatapathId dpid;
    private final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
    private final List<Object> seen = new ArrayList<>();
    private final Thread reader;
    volatile OFFactory factory;
    volatile boolean answerHandshake = true;
    /** Whether it answers DESC and BARRIER requests (with answerHandshake): some switches answer neither. */
    volatile boolean answerDescription = true;
    volatile boolean answerBarrier = true;
    volatile boolean answerEcho = true;
    /** The ports it says it has (1.0 FEATURES, port description); three unless the test says otherwise. */
    volatile int portCount = 3;
    volatile boolean closedByPeer;
    /** While set, the reader stops before its next frame: a switch that does not read. */
    private volatile CountDownLatch readGate;

    /** Sends HELLO at once: with a bitmap unless the only version is 1.0 (whose HELLO has no elements). */
    FakeSwitch(Socket socket, DatapathId dpid, Set<OFVersion> offered) throws IOException {
        this.socket = socket;
        this.dpid = dpid;
        this.offered = offered;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
        this.reader = new Thread(this::readLoop, "fake-switch-" + dpid);
        this.reader.setDaemon(true);
        this.reader.start();
    }

    static FakeSwitch connect(int port, long dpid, OFVersion... versions) throws IOException {
        FakeSwitch sw = new FakeSwitch(new Socket("127.0.0.1", port), DatapathId.of(dpid), Set.of(versions));
        sw.sayHello();
        return sw;
    }

    void sayHello() throws IOException {
        OFVersion highest = offered.stream().max(Enum::compareTo).orElseThrow();
        OFFactory f = OFFactories.getFactory(highest);
        if (offered.size() == 1 && highest == OFVersion.OF_10) {
            send(f.buildHello().setXid(1).build());
            return;
        }
        long bits = 0;
        for (OFVersion v : offered) {
            bits |= 1L << v.getWireVersion();
        }
        send(f.buildHello().setXid(1)
                .setElements(List.of(f.buildHelloElemVersionbitmap().setBitmaps(List.of(U32.of(bits))).build()))
                .build());
    }

    List<OFPortDesc> ports(OFFactory f) {
        List<OFPortDesc> ports = new ArrayList<>();
        for (int i = 1; i <= portCount; i++) {
            OFPortDesc.Builder b = f.buildPortDesc().setPortNo(OFPort.of(i)).setName("eth" + i)
                    .setHwAddr(MacAddress.of(0x020000000000L + i));
            if (f.getVersion().compareTo(OFVersion.OF_14) < 0) {
                b.setCurr(Set.of(OFPortFeatures.PF_1GB_FD));
            }
            ports.add(b.build());
        }
        return ports;
    }

    private void readLoop() {
        try {
            while (true) {
                CountDownLatch gate = readGate;
                if (gate != null) {
                    gate.await();
                }
                byte[] header = new byte[8];
                in.readFully(header);
                int length = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
                byte[] frame = new byte[length];
                System.arraycopy(header, 0, frame, 0, 8);
                in.readFully(frame, 8, length - 8);
                Object m = OFMessageDecoder.decode(Unpooled.wrappedBuffer(frame));
                if (m instanceof HelloMessage hello) {
                    onControllerHello(hello);
                } else if (m instanceof OFMessage message) {
                    autoAnswer(message);
                }
                received.add(m);
            }
        } catch (EOFException e) {
            closedByPeer = true;
        } catch (IOException e) {
            closedByPeer = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops reading from the socket (after at most the frame being read now), so what the
     * controller writes piles up in the socket buffers and then in the controller.
     */
    void stopReading() {
        readGate = new CountDownLatch(1);
    }

    void resumeReading() {
        CountDownLatch gate = readGate;
        readGate = null;
        if (gate != null) {
            gate.countDown();
        }
    }

    private void onControllerHello(HelloMessage hello) {
        OpenFlowVersions.negotiate(new java.util.TreeSet<>(offered), hello)
                .ifPresent(v -> factory = OFFactories.getFactory(v));
    }

    private void autoAnswer(OFMessage m) throws IOException {
        OFFactory f = factory != null ? factory : OFFactories.getFactory(m.getVersion());
        if (m instanceof OFEchoRequest echo && answerEcho) {
            send(f.buildEchoReply().setXid(echo.getXid()).setData(echo.getData()).build());
        }
        if (!answerHandshake) {
            return;
        }
        if (m instanceof OFFeaturesRequest) {
            var b = f.buildFeaturesReply().setXid(m.getXid()).setDatapathId(dpid).setNBuffers(256).setNTables((short) 4);
            if (f.getVersion() == OFVersion.OF_10) {
                b.setPorts(ports(f));
            }
            send(b.build());
        } else if (m instanceof OFPortDescStatsRequest) {
            sendPortDescription(f, m.getXid(), ports(f));
        } else if (m instanceof OFDescStatsRequest && answerDescription) {
            send(f.buildDescStatsReply().setXid(m.getXid()).setMfrDesc("Heliograph tests").setHwDesc("fake")
                    .setSwDesc("FakeSwitch").setSerialNum("1").setDpDesc("fake " + dpid).build());
        } else if (m instanceof OFBarrierRequest && answerBarrier) {
            send(f.buildBarrierReply().setXid(m.getXid()).build());
        }
    }

    /** A port description in as many parts as it needs (up to 64 KiB each), all but the last flagged REPLY_MORE. */
    void sendPortDescription(OFFactory f, long xid, List<OFPortDesc> ports) throws IOException {
        int perPart = 500; // 1.3: 64 bytes a port; 1.4+: more with properties, still under 64 KiB
        for (int from = 0; from < ports.size() || from == 0; from += perPart) {
            List<OFPortDesc> part = ports.subList(from, Math.min(ports.size(), from + perPart));
            boolean more = from + perPart < ports.size();
            send(f.buildPortDescStatsReply().setXid(xid).setEntries(part)
                    .setFlags(more ? Set.of(org.projectfloodlight.openflow.protocol.OFStatsReplyFlags.REPLY_MORE) : Set.of())
                    .build());
        }
    }

    synchronized void send(OFMessage m) throws IOException {
        io.netty.buffer.ByteBuf buf = Unpooled.buffer();
        m.writeTo(buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        out.write(bytes);
        out.flush();
    }

    synchronized void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next received object matching the test, skipping (but keeping in {@link #seen()}) others; fails after the deadline. */
    @SuppressWarnings("unchecked")
    <T> T expect(Class<T> type, Predicate<? super T> test) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            Object m = received.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (m == null) {
                List<Object> last = seen.subList(Math.max(0, seen.size() - 10), seen.size());
                throw new AssertionError("no " + type.getSimpleName() + " matching the test within " + WAIT
                        + "; seen " + seen.size() + ", the last: " + last.stream()
                        .map(x -> x.getClass().getSimpleName() + " xid " + (x instanceof OFMessage o ? o.getXid() : "-"))
                        .toList());
            }
            seen.add(m);
            if (type.isInstance(m) && test.test((T) m)) {
                return (T) m;
            }
        }
    }

    <T> T expect(Class<T> type) throws InterruptedException {
        return expect(type, x -> true);
    }

    /** Everything the controller sent so far, whether or not {@link #expect} has looked at it. */
    List<Object> drain() {
        received.drainTo(seen);
        return seen;
    }

    /** Everything the controller sent that {@link #expect} has looked at. */
    List<Object> seen() {
        return seen;
    }

    /** Waits for the controller to close the connection. */
    void awaitClosed() throws InterruptedException {
        reader.join(WAIT.toMillis());
        if (reader.isAlive()) {
            throw new AssertionError("controller did not close the connection within " + WAIT);
        }
    }

    boolean isOpen() {
        return reader.isAlive();
    }

    DatapathId dpid() {
        return dpid;
    }

    @Override
    public void close() throws IOException {
        socket.close();
        resumeReading(); // a paused reader then sees the closed socket and ends
    }

    InputStream rawIn() {
        return in;
    }
}
