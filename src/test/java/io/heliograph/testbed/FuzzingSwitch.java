package io.heliograph.testbed;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFMessageReader;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFRoleRequest;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRoleRequest;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFErrorCauseData;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U32;

import io.netty.buffer.Unpooled;

/**
 * A TCP client that connects to a controller's OpenFlow port as a switch and sends whatever bytes it
 * is given, while a reader thread answers the controller the way a simple switch does (HELLO,
 * FEATURES, every statistics request with an empty reply, BARRIER, ECHO, roles, configuration), so
 * that the connection lives on between the bytes a fuzzer sends. It counts the errors the controller
 * answers with and notes when the controller closes the connection.
 */
public final class FuzzingSwitch implements AutoCloseable {

    private static final OFMessageReader<OFMessage> READER = OFFactories.getGenericReader();
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final int PORTS = 2;

    private final Socket socket;
    private final OutputStream out;
    private final long datapathId;
    private final OFVersion version;
    private final OFFactory factory;
    private final Thread reader;
    private final Set<Long> echoes = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> errors = new ConcurrentHashMap<>();
    private volatile boolean closing;
    private volatile String closedByController;
    private volatile boolean featuresAnswered;

    private FuzzingSwitch(Socket socket, long datapathId, OFVersion version) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.datapathId = datapathId;
        this.version = version;
        this.factory = OFFactories.getFactory(version);
        this.reader = new Thread(this::readLoop, "fuzzing-switch-" + THREADS.incrementAndGet());
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /**
     * Connects to {@code port} on loopback as datapath {@code datapathId}, answering in {@code version};
     * {@code hello} sends a HELLO offering only that version first (without it, the first bytes are the
     * caller's).
     */
    public static FuzzingSwitch connect(int port, long datapathId, OFVersion version, boolean hello) {
        try {
            Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            FuzzingSwitch sw = new FuzzingSwitch(socket, datapathId, version);
            if (hello) {
                sw.send(sw.hello());
            }
            return sw;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot connect to the controller's OpenFlow port " + port, e);
        }
    }

    public int localPort() {
        return socket.getLocalPort();
    }

    public long datapathId() {
        return datapathId;
    }

    public OFVersion version() {
        return version;
    }

    /** Whether the controller has asked for and been given this switch's features (its handshake is under way). */
    public boolean featuresAnswered() {
        return featuresAnswered;
    }

    /** Null while the connection is up; how it ended once the controller closed or reset it. */
    public String closedByController() {
        return closedByController;
    }

    /** The errors the controller answered with, by type and code (e.g. "BAD_REQUEST/BAD_LEN"). */
    public Map<String, Integer> errors() {
        return new TreeMap<>(errors);
    }

    private byte[] hello() {
        OFMessage hello = version == OFVersion.OF_10 ? factory.buildHello().setXid(1).build()
                : factory.buildHello().setXid(1).setElements(List.of(factory.buildHelloElemVersionbitmap()
                        .setBitmaps(List.of(U32.of(1L << version.getWireVersion()))).build())).build();
        return OpenFlowCorpus.bytes(hello);
    }

    /** Sends {@code bytes} as one write; false if the connection is gone. */
    public boolean send(byte[] bytes) {
        synchronized (out) {
            try {
                out.write(bytes);
                out.flush();
                return true;
            } catch (IOException e) {
                return false;
            }
        }
    }

    /** Sends {@code bytes} one byte per write, each its own TCP segment (no Nagle), with a short pause between. */
    public boolean sendByteByByte(byte[] bytes) {
        synchronized (out) {
            try {
                for (byte b : bytes) {
                    out.write(b);
                    out.flush();
                    LockSupport.parkNanos(20_000);
                }
                return true;
            } catch (IOException e) {
                return false;
            }
        }
    }

    /** Sends an ECHO_REQUEST and waits for its reply: whether the controller still reads and answers this connection. */
    public boolean echo(long xid, Duration timeout) {
        if (!send(OpenFlowCorpus.bytes(factory.buildEchoRequest().setXid(xid).setData(new byte[] {1, 2, 3}).build()))) {
            return false;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (echoes.remove(xid)) {
                return true;
            }
            if (closedByController != null) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        return false;
    }

    /** Waits until the controller has closed the connection, at most {@code timeout}; whether it has. */
    public boolean awaitClosedByController(Duration timeout) {
        try {
            reader.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return closedByController != null;
    }

    @Override
    public void close() {
        closing = true;
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
        try {
            reader.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // --- Answering the controller ------------------------------------------------------------------

    private void readLoop() {
        try {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] header = new byte[8];
            while (true) {
                in.readFully(header);
                int length = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
                if (length < 8) {
                    throw new IOException("the controller sent a header with length " + length);
                }
                byte[] message = new byte[length];
                System.arraycopy(header, 0, message, 0, 8);
                in.readFully(message, 8, length - 8);
                answer(message);
            }
        } catch (EOFException e) {
            if (!closing) {
                closedByController = "closed";
            }
        } catch (IOException e) {
            if (!closing) {
                closedByController = e.getMessage() == null ? e.toString() : e.getMessage();
            }
        }
    }

    private void answer(byte[] bytes) {
        OFMessage message;
        try {
            message = READER.readFrom(Unpooled.wrappedBuffer(bytes));
        } catch (Exception e) {
            return;   // a message this switch need not understand
        }
        if (message == null) {
            return;
        }
        OFMessage reply = reply(message);
        if (reply != null) {
            send(OpenFlowCorpus.bytes(reply));
        }
    }

    private OFMessage reply(OFMessage message) {
        long xid = message.getXid();
        OFFactory f = OFFactories.getFactory(message.getVersion());
        if (message instanceof OFErrorMsg error) {
            errors.merge(describe(error), 1, Integer::sum);
            return null;
        }
        if (message instanceof OFEchoReply) {
            echoes.add(xid);
            return null;
        }
        if (message instanceof OFEchoRequest echo) {
            return f.buildEchoReply().setXid(xid).setData(echo.getData()).build();
        }
        if (message instanceof OFBarrierRequest) {
            return f.buildBarrierReply().setXid(xid).build();
        }
        if (message instanceof OFRoleRequest role) {
            return f.buildRoleReply().setXid(xid).setRole(role.getRole()).setGenerationId(role.getGenerationId()).build();
        }
        if (message instanceof OFNiciraControllerRoleRequest) {
            return f.errorMsgs().buildBadRequestErrorMsg().setXid(xid).setCode(OFBadRequestCode.BAD_EXPERIMENTER)
                    .setData(OFErrorCauseData.of(new byte[0], f.getVersion())).build();
        }
        if (message instanceof OFStatsRequest<?> request) {
            return statsReply(f, request);
        }
        switch (message.getType()) {
            case FEATURES_REQUEST:
                featuresAnswered = true;
                return features(f, xid);
            case GET_CONFIG_REQUEST:
                return f.buildGetConfigReply().setXid(xid).setMissSendLen(0xffff).build();
            default:
                return null;
        }
    }

    private OFMessage features(OFFactory f, long xid) {
        var b = f.buildFeaturesReply().setXid(xid).setDatapathId(DatapathId.of(datapathId)).setNBuffers(256)
                .setNTables((short) 1);
        if (f.getVersion() == OFVersion.OF_10) {
            b.setPorts(ports(f));
        }
        return b.build();
    }

    private List<OFPortDesc> ports(OFFactory f) {
        return java.util.stream.IntStream.rangeClosed(1, PORTS).mapToObj(n -> f.buildPortDesc().setPortNo(OFPort.of(n))
                .setHwAddr(MacAddress.of(0x020000000000L | (datapathId & 0xffff) << 8 | n)).setName("p" + n).build())
                .toList();
    }

    /** Every statistics request answered with an empty reply of its kind (ports and description filled in). */
    private OFMessage statsReply(OFFactory f, OFStatsRequest<?> request) {
        long xid = request.getXid();
        switch (request.getStatsType()) {
            case PORT_DESC:
                return f.buildPortDescStatsReply().setXid(xid).setEntries(ports(f)).build();
            case DESC:
                return f.buildDescStatsReply().setXid(xid).setMfrDesc("Heliograph tests").setHwDesc("fuzzing switch")
                        .setSwDesc("FuzzingSwitch").setSerialNum(Long.toHexString(datapathId)).setDpDesc("fuzz").build();
            default:
                String name = request.getStatsType().name();
                String builder = "build" + camel(name) + "StatsReply";
                try {
                    java.lang.reflect.Method make = OFFactory.class.getMethod(builder);
                    Object b = make.invoke(f);
                    // through the declared builder interface: the implementations are not public
                    make.getReturnType().getMethod("setXid", long.class).invoke(b, xid);
                    return (OFStatsReply) make.getReturnType().getMethod("build").invoke(b);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return f.errorMsgs().buildBadRequestErrorMsg().setXid(xid).setCode(OFBadRequestCode.BAD_STAT)
                            .setData(OFErrorCauseData.of(new byte[0], f.getVersion())).build();
                }
        }
    }

    private static String camel(String name) {
        StringBuilder b = new StringBuilder();
        for (String part : name.toLowerCase(java.util.Locale.ROOT).split("_")) {
            b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return b.toString();
    }

    private static String describe(OFErrorMsg error) {
        try {
            Object code = error.getClass().getInterfaces()[0].getMethod("getCode").invoke(error);
            return error.getErrType() + "/" + code;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return error.getErrType().toString();
        }
    }

    @Override
    public String toString() {
        return "fuzzing switch " + Long.toHexString(datapathId) + " (OpenFlow " + version + ", local port " + localPort() + ")";
    }
}
