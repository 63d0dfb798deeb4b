package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.sun.net.httpserver.HttpServer;

import io.heliograph.circuit.engine.AduReport;
import io.heliograph.circuit.engine.FiveTuple;
import io.heliograph.core.json.Json;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.CommandResult;
import io.heliograph.testbed.Poll;

/**
 * libadu (tools/libadu, issue 23's LD_PRELOAD shim) built by {@code deploy/heliograph libadu} and
 * loaded into a real program (python3) that writes to TCP connections of this JVM with every call the
 * shim wraps: what it posts to a receiver here parses as the circuit app's {@link AduReport} batches,
 * its bytes per 5-tuple are what the program wrote, a flow's {@code closed} follows its close, and a
 * receiver that refuses or never answers changes neither the program's output nor its running time.
 * No controller and no namespaces: the shim's contract is with any HTTP receiver.
 */
@Timeout(60)
class LibAduIT {

    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Pattern PORTS = Pattern.compile("ports (\\d+) (\\d+)");
    private static final Pattern COUNTS = Pattern.compile("libadu: (\\d+) batches posted \\((\\d+) reports\\), (\\d+) batches dropped");

    /**
     * The program under the shim. Flow a: send, write, sendall (send in a loop), sendmsg; flow b:
     * 5000 sends of 10 bytes (a chatty application), then writev. Beside them a UDP datagram, a file
     * written with write(), and a write to a closed descriptor whose errno it prints. Interactive: it
     * prints its ports, closes a, and waits for a line on stdin before closing b.
     */
    private static final String PROGRAM = """
            import os, socket, sys
            mode, port, udp_port, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
            a = socket.create_connection(('127.0.0.1', port))
            b = socket.create_connection(('127.0.0.1', port))
            if mode == 'interactive':
                print('ports', a.getsockname()[1], b.getsockname()[1], flush=True)
            wrote_a = a.send(b'a' * 1000)
            wrote_a += os.write(a.fileno(), b'b' * 20000)
            a.sendall(b'c' * 300000)
            wrote_a += 300000
            wrote_a += a.sendmsg([b'd' * 400, b'e' * 600])
            wrote_b = 0
            for _ in range(5000):
                wrote_b += b.send(b'f' * 10)
            wrote_b += os.writev(b.fileno(), [b'g' * 7, b'h' * 93])
            u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            udp = u.sendto(b'u' * 77, ('127.0.0.1', udp_port))
            u.close()
            f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            written = os.write(f, b'y' * 55)
            os.close(f)
            try:
                os.write(f, b'z')
                closed_write = 'no error'
            except OSError as e:
                closed_write = 'errno %d' % e.errno
            print('a', wrote_a, 'b', wrote_b, 'udp', udp, 'file', written, 'closed descriptor', closed_write, flush=True)
            a.close()
            if mode == 'interactive':
                print('a closed', flush=True)
                sys.stdin.readline()
            b.close()
            print('done', flush=True)
            """;

    private static final long WROTE_A = 1000 + 20000 + 300000 + 1000;
    private static final long WROTE_B = 5000 * 10 + 100;

    private static Path work;
    private static Path libadu;
    private static Path program;
    private static HttpServer receiver;
    private static ServerSocket sink;
    private static DatagramSocket udp;
    private static final List<Post> posts = new CopyOnWriteArrayList<>();
    private static final Map<Integer, AtomicLong> received = new ConcurrentHashMap<>();
    private static final List<Socket> accepted = new CopyOnWriteArrayList<>();

    /** One POST the receiver took. */
    private record Post(String method, String path, String contentType, String authorization, String body) {
    }

    @BeforeAll
    static void buildAndListen() throws IOException {
        work = Files.createTempDirectory("libadu-it-");
        CommandResult built = Command.of("bash", ROOT.resolve("deploy/heliograph").toString(), "libadu", "--out",
                work.toString()).timeout(Duration.ofSeconds(60)).check();
        libadu = work.resolve("libadu.so");
        assertEquals(libadu.toString(), built.stdout().strip(), "deploy/heliograph libadu prints where it built it");
        assertTrue(built.stderr().isBlank(), "libadu compiles without warnings: " + built.stderr());
        program = work.resolve("adu-app.py");
        Files.writeString(program, PROGRAM);

        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        receiver.createContext("/api/v1/circuit/adus", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                posts.add(new Post(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Content-Type"),
                        exchange.getRequestHeaders().getFirst("Authorization"), new String(body, StandardCharsets.UTF_8)));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        receiver.start();

        // The program's TCP peer: counts what arrives on each connection, by the program's port.
        sink = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!sink.isClosed()) {
                try {
                    Socket s = sink.accept();
                    accepted.add(s);
                    AtomicLong count = received.computeIfAbsent(s.getPort(), p -> new AtomicLong());
                    Thread reader = new Thread(() -> drain(s, count), "libadu-it-reader");
                    reader.setDaemon(true);
                    reader.start();
                } catch (IOException e) {
                    return; // closed
                }
            }
        }, "libadu-it-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        udp = new DatagramSocket(0, InetAddress.getLoopbackAddress());
    }

    private static void drain(Socket s, AtomicLong count) {
        byte[] buf = new byte[65536];
        try (InputStream in = s.getInputStream()) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                count.addAndGet(n);
            }
        } catch (IOException e) {
            // the test is over
        }
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("LibAduIT");
        if (receiver != null) {
            cleanup.run("stop the receiver", () -> receiver.stop(0));
        }
        cleanup.close("close the sink", sink);
        accepted.forEach(s -> cleanup.close("close a connection", s));
        cleanup.close("close the UDP socket", udp);
        if (work != null) {
            cleanup.run("delete " + work, () -> Command.of("rm", "-rf", work.toString()).check());
        }
        cleanup.finish();
    }

    @Test
    void reportsTheBytesOfEachTcpFlowOnceAnIntervalAndItsCloseAndNothingElse() throws Exception {
        String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/api/v1/circuit/adus";
        ProcessBuilder builder = new ProcessBuilder("python3", program.toString(), "interactive",
                String.valueOf(sink.getLocalPort()), String.valueOf(udp.getLocalPort()), work.resolve("file").toString())
                .redirectError(work.resolve("interactive.err").toFile());
        builder.environment().putAll(Map.of("LD_PRELOAD", libadu.toString(), "ADU_URL", url, "ADU_TOKEN", "t0k3n",
                "ADU_INTERVAL_MS", "50", "ADU_DEBUG", "1", "ADU_EXIT_MS", "5000"));
        Process app = builder.start();
        Cleanup cleanup = new Cleanup("the program under libadu");
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
            Matcher ports = PORTS.matcher(String.valueOf(out.readLine()));
            assertTrue(ports.matches(), "the program says its ports");
            FiveTuple a = flow(Integer.parseInt(ports.group(1)));
            FiveTuple b = flow(Integer.parseInt(ports.group(2)));
            assertEquals("a " + WROTE_A + " b " + WROTE_B + " udp 77 file 55 closed descriptor errno 9", out.readLine(),
                    "every call returned what it returns without the shim, errno included");
            assertEquals("a closed", out.readLine());

            List<AduReport> reports = Poll.until("a's closed report", WAIT, LibAduIT::reports,
                    r -> r.contains(AduReport.closed(a)));
            assertEquals(WROTE_A, bytes(reports, a), "a's reports sum to what the program wrote to it: " + reports);
            Poll.until("a's bytes arrived", WAIT, () -> received.get(a.srcPort()).get() == WROTE_A);
            int closedAt = reports.indexOf(AduReport.closed(a));
            assertTrue(reports.subList(closedAt + 1, reports.size()).stream().noneMatch(r -> r.flow().equals(a)),
                    "nothing of a after its close");
            assertFalse(reports.contains(AduReport.closed(b)), "b is still open");
            Poll.until("b's bytes reported", WAIT, () -> bytes(reports(), b) == WROTE_B);

            try (OutputStream in = app.getOutputStream()) {
                in.write('\n');
            }
            assertEquals("done", out.readLine());
            assertTrue(app.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "the program ends");
            assertEquals(0, app.exitValue());
            reports = Poll.until("b's closed report", WAIT, LibAduIT::reports, r -> r.contains(AduReport.closed(b)));
            assertEquals(WROTE_B, bytes(reports, b), "b's reports sum to what the program wrote to it");
            Poll.until("b's bytes arrived", WAIT, () -> received.get(b.srcPort()).get() == WROTE_B);

            assertEquals(Set.of(a, b), flows(reports), "only the two TCP flows: no UDP datagram, no file");
            List<List<AduReport>> batches = batches();
            for (List<AduReport> batch : batches) {
                List<FiveTuple> written = batch.stream().filter(r -> !r.closed()).map(AduReport::flow).toList();
                assertEquals(new HashSet<>(written).size(), written.size(), "one bytes report per flow a batch: " + batch);
            }
            long bReports = reports.stream().filter(r -> r.flow().equals(b) && !r.closed()).count();
            assertTrue(bReports <= batches.size() && bReports < 50,
                    "5001 writes to b make few reports (one an interval), not " + bReports);
            for (Post post : posts) {
                assertEquals("POST", post.method());
                assertEquals("/api/v1/circuit/adus", post.path());
                assertEquals("application/json", post.contentType());
                assertEquals("Bearer t0k3n", post.authorization());
            }
            String stderr = Files.readString(work.resolve("interactive.err"));
            Matcher counts = COUNTS.matcher(stderr);
            assertTrue(counts.find(), "ADU_DEBUG prints the counts at exit: " + stderr);
            // ADU_EXIT_MS is long here so that a slow receiver still answers the last batch before the program ends
            assertEquals(posts.size(), Integer.parseInt(counts.group(1)), "every batch posted arrived: " + stderr);
            assertEquals(reports.size(), Integer.parseInt(counts.group(2)), stderr);
            assertEquals(0, Integer.parseInt(counts.group(3)), stderr);
            System.out.printf("LibAduIT: %d writes in 2 flows made %d reports in %d batches%n", 5 + 5001, reports.size(),
                    batches.size());
        } finally {
            cleanup.run("stop the program (pid " + app.pid() + ")", () -> stop(app));
            cleanup.finish();
        }
    }

    @Test
    void aReceiverThatRefusesOrNeverAnswersChangesNothingForTheProgram() throws Exception {
        CommandResult plain = runBatch(Map.of());
        assertEquals(0, plain.exitCode(), plain.stderr());

        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        CommandResult refused = runBatch(shim("http://127.0.0.1:" + closedPort + "/api/v1/circuit/adus"));
        assertEquals(plain.exitCode(), refused.exitCode(), refused.stderr());
        assertEquals(plain.stdout(), refused.stdout(), "the same output with the controller down");
        assertDropped(refused.stderr());

        // Accepts connections (the kernel's backlog) and never reads or answers them.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            long started = System.nanoTime();
            CommandResult unanswered = runBatch(shim("http://127.0.0.1:" + silent.getLocalPort() + "/api/v1/circuit/adus"));
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertEquals(plain.exitCode(), unanswered.exitCode(), unanswered.stderr());
            assertEquals(plain.stdout(), unanswered.stdout(), "the same output with a controller that never answers");
            assertDropped(unanswered.stderr());
            // ADU_EXIT_MS (200 ms) bounds the last flush; a shim that waited for the answer would never end.
            assertTrue(took.compareTo(Duration.ofSeconds(8)) < 0, "the program was not held up: " + took);
            System.out.printf("LibAduIT: with a receiver that never answers the program took %d ms%n", took.toMillis());
        }
    }

    private static void assertDropped(String stderr) {
        Matcher counts = COUNTS.matcher(stderr);
        assertTrue(counts.find(), "ADU_DEBUG prints the counts at exit: " + stderr);
        assertEquals(0, Integer.parseInt(counts.group(1)), "nothing posted: " + stderr);
        assertTrue(Integer.parseInt(counts.group(3)) >= 1, "the batches were dropped and counted: " + stderr);
    }

    private static Map<String, String> shim(String url) {
        return Map.of("LD_PRELOAD", libadu.toString(), "ADU_URL", url, "ADU_DEBUG", "1", "ADU_EXIT_MS", "200");
    }

    private static CommandResult runBatch(Map<String, String> env) {
        return Command.of("python3", program.toString(), "batch", String.valueOf(sink.getLocalPort()),
                String.valueOf(udp.getLocalPort()), work.resolve("file").toString())
                .env(env).timeout(Duration.ofSeconds(30)).run();
    }

    private static FiveTuple flow(int srcPort) {
        return new FiveTuple("127.0.0.1", srcPort, "127.0.0.1", sink.getLocalPort(), 6);
    }

    /** Every batch posted so far, read as the controller reads it: the project's JSON, then AduReport. */
    private static List<List<AduReport>> batches() {
        List<List<AduReport>> batches = new ArrayList<>();
        for (Post post : posts) {
            batches.add(AduReport.fromJson(Json.parse(post.body())));
        }
        return batches;
    }

    private static List<AduReport> reports() {
        return batches().stream().flatMap(List::stream).toList();
    }

    private static long bytes(List<AduReport> reports, FiveTuple flow) {
        return reports.stream().filter(r -> r.flow().equals(flow)).mapToLong(AduReport::bytes).sum();
    }

    private static Set<FiveTuple> flows(List<AduReport> reports) {
        Set<FiveTuple> flows = new HashSet<>();
        reports.forEach(r -> flows.add(r.flow()));
        return flows;
    }

    private static void stop(Process p) {
        if (p.isAlive()) {
            p.destroyForcibly();
        }
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("pid " + p.pid() + " did not end");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
