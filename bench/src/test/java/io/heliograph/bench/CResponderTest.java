package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The C responder ({@code src/main/c/responder.c}, the reference of issue 4's goals), compiled
 * with the system's C compiler and run as its own process: it says what the Java trivial responder
 * says, byte for byte, and the generator measures it as it measures any controller.
 */
@Timeout(120)
class CResponderTest {

    private static final Path SOURCE = Path.of("src/main/c/responder.c");
    private static final Path BINARY = Path.of("target/c-responder");
    static final Path PINGPONG_SOURCE = Path.of("src/main/c/pingpong.c");
    static final Path PINGPONG = Path.of("target/pingpong");
    private static final Pattern LISTENING = Pattern.compile("c-responder: listening on port (\\d+)");
    static final Pattern ROUND_TRIPS = Pattern.compile("(\\d+) round trips/s");

    private static Process responder;
    private static int port;
    private static final StringBuilder log = new StringBuilder();

    @BeforeAll
    static void compileAndStart() throws Exception {
        compile(SOURCE, BINARY);
        compile(PINGPONG_SOURCE, PINGPONG);

        responder = new ProcessBuilder(BINARY.toString(), "-p", "0").start();
        BufferedReader err = new BufferedReader(new InputStreamReader(responder.getErrorStream(), StandardCharsets.UTF_8));
        String first = err.readLine();
        Matcher m = LISTENING.matcher(first == null ? "" : first);
        assertTrue(m.matches(), "the responder says where it listens: " + first);
        port = Integer.parseInt(m.group(1));
        Thread drain = new Thread(() -> err.lines().forEach(line -> {
            synchronized (log) {
                log.append(line).append('\n');
                log.notifyAll();
            }
        }), "c-responder-stderr");
        drain.setDaemon(true);
        drain.start();
    }

    static void compile(Path source, Path binary) throws IOException, InterruptedException {
        Finished cc = runToEnd("cc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", binary.toString(), source.toString());
        assertEquals(0, cc.status(), "cc compiles " + source + " without warnings:\n" + cc.output());
        assertTrue(Files.isExecutable(binary));
    }

    /** Runs a command to its end; its stdout and stderr together. */
    static Finished runToEnd(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Finished(p.waitFor(), output);
    }

    record Finished(int status, String output) {
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (responder != null) {
            responder.destroy();
            responder.waitFor();
        }
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void answersLikeTheJavaResponderByteForByte(OpenFlowVersion v) throws IOException {
        try (Socket s = connect()) {
            send(s, v, OpenFlowVersion.HELLO, 0x11, new byte[0]);
            ByteBuffer expected = ByteBuffer.allocate(16);
            ControllerMessages.hello(expected, v);
            ControllerMessages.featuresRequest(expected, v);
            assertArrayEquals(expected.array(), read(s, 16), "HELLO and FEATURES_REQUEST in the switch's version");

            byte[] body = "ping".getBytes(StandardCharsets.US_ASCII);
            send(s, v, OpenFlowVersion.ECHO_REQUEST, 0x1234_5678, body);
            ByteBuffer reply = ByteBuffer.wrap(read(s, 12));
            assertEquals(v.wire(), Header.version(reply, 0));
            assertEquals(OpenFlowVersion.ECHO_REPLY, Header.type(reply, 0));
            assertEquals(12, Header.length(reply, 0));
            assertEquals(0x1234_5678, Header.xid(reply, 0), "the request's xid");
            assertArrayEquals(body, Arrays.copyOfRange(reply.array(), 8, 12), "the request's body");

            ByteBuffer packetIns = ByteBuffer.allocateDirect(2 * 128);
            PacketIn probe = PacketIn.probe(v, 1);
            probe.writeTo(packetIns, 7, 41, 0);
            probe.writeTo(packetIns, 8, PacketIn.NO_BUFFER, 1);
            byte[] twoPacketIns = new byte[packetIns.flip().remaining()];
            packetIns.get(twoPacketIns);
            s.getOutputStream().write(twoPacketIns);
            byte[] answers = read(s, 2 * ControllerMessages.FLOW_MOD_LENGTH);
            assertArrayEquals(flowModOnBuffer(v, 41), Arrays.copyOf(answers, ControllerMessages.FLOW_MOD_LENGTH),
                    "the first packet-in's flow-mod, on its buffer");
            assertArrayEquals(flowModOnBuffer(v, PacketIn.NO_BUFFER), Arrays.copyOfRange(answers,
                    ControllerMessages.FLOW_MOD_LENGTH, answers.length), "the second's, on no buffer as the packet-in");
        }
    }

    /** The Java responder's flow-mod, its buffer id set by hand (at the offset the wire format gives). */
    static byte[] flowModOnBuffer(OpenFlowVersion v, int bufferId) {
        byte[] bytes = new byte[ControllerMessages.FLOW_MOD_LENGTH];
        ControllerMessages.flowMod(v).get(bytes);
        ByteBuffer.wrap(bytes).putInt(v == OpenFlowVersion.OF_10 ? 64 : 32, bufferId);
        return bytes;
    }

    @Test
    void aBrokenStreamClosesOnlyItsOwnConnection() throws IOException, InterruptedException {
        try (Socket good = connect(); Socket broken = connect(); Socket wrongVersion = connect()) {
            send(good, OpenFlowVersion.OF_13, OpenFlowVersion.HELLO, 1, new byte[0]);
            read(good, 16);

            broken.getOutputStream().write(new byte[] {4, 0, 0, 3, 0, 0, 0, 1});   // length 3 < the header's 8
            assertEquals(-1, broken.getInputStream().read(), "an unframeable stream is closed");
            send(wrongVersion, null, OpenFlowVersion.HELLO, 1, new byte[0]);
            assertEquals(-1, wrongVersion.getInputStream().read(), "a version it does not speak is closed");
            awaitLog("c-responder: unframeable stream (length 3)");
            awaitLog("c-responder: unsupported OpenFlow wire version 2");

            send(good, OpenFlowVersion.OF_13, OpenFlowVersion.ECHO_REQUEST, 9, new byte[0]);
            assertEquals(9, Header.xid(ByteBuffer.wrap(read(good, 8)), 0), "the other switch is still answered");
        }
    }

    @ParameterizedTest(name = "{0} -V {1}")
    @CsvSource({"latency, 1.0", "throughput, 1.0", "latency, 1.3", "throughput, 1.3"})
    void theGeneratorMeasuresIt(String mode, String version) {
        List<String> args = new ArrayList<>(List.of("-p", Integer.toString(port), "-m", "200", "-l", "3",
                "-s", "4", "-V", version));
        if (mode.equals("throughput")) {
            args.add("-t");
        }
        GeneratorAgainstResponderTest.Run run = GeneratorAgainstResponderTest.run(args.toArray(String[]::new));
        assertEquals(0, run.status(), run.toString());
        List<String> lines = run.stdout().lines().toList();
        Matcher result = GeneratorAgainstResponderTest.CBENCH_RESULT.matcher(lines.get(lines.size() - 1));
        assertTrue(result.matches(), run.toString());
        assertTrue(Double.parseDouble(result.group(3)) * 0.2 >= 4 * GeneratorAgainstResponderTest.LATENCY_MODE_FLOOR,
                "every test counted responses, in latency mode many (each answer releases the next packet-in): "
                        + result.group());
        System.out.println(mode + " -V " + version + " against the C responder: " + result.group());
    }

    /** Waits for the responder to have said {@code line} on stderr (the test's timeout bounds the wait). */
    private static void awaitLog(String line) throws InterruptedException {
        synchronized (log) {
            while (!log.toString().contains(line + "\n")) {
                log.wait(1_000);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"1", "4"})
    void pingpongCountsRoundTripsEverySecond(int wireVersion) throws Exception {
        Finished pingpong = runToEnd(PINGPONG.toString(), Integer.toString(port), Integer.toString(wireVersion), "2");
        assertEquals(0, pingpong.status(), pingpong.output());
        List<String> lines = pingpong.output().lines().toList();
        assertEquals(2, lines.size(), "a line per second: " + pingpong.output());
        for (String line : lines) {
            Matcher m = ROUND_TRIPS.matcher(line);
            assertTrue(m.matches(), line);
            assertTrue(Long.parseLong(m.group(1)) >= 5 * GeneratorAgainstResponderTest.LATENCY_MODE_FLOOR,
                    "each answer releases the next packet-in, so many a second: " + line);
        }
    }

    @Test
    void pingpongRefusesAClosedPortByName() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Finished pingpong = runToEnd(PINGPONG.toString(), Integer.toString(closed));
        assertEquals(1, pingpong.status(), pingpong.output());
        assertTrue(pingpong.output().startsWith("pingpong: cannot connect to port " + closed + ": Connection refused"),
                pingpong.output());
    }

    private static Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout(10_000);
        return s;
    }

    /** One message; a null version writes wire version 2 (OpenFlow 1.1, which neither side speaks). */
    private static void send(Socket s, OpenFlowVersion v, int type, int xid, byte[] body) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(Header.LENGTH + body.length);
        b.put((byte) (v == null ? 2 : v.wire())).put((byte) type).putShort((short) b.capacity()).putInt(xid).put(body);
        s.getOutputStream().write(b.array());
    }

    private static byte[] read(Socket s, int n) throws IOException {
        InputStream in = s.getInputStream();
        byte[] bytes = in.readNBytes(n);
        assertEquals(n, bytes.length, "bytes before the responder closed the connection");
        return bytes;
    }
}
