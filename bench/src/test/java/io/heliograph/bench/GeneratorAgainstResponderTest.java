package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generator against the trivial responder over real sockets, as {@code heliograph bench}
 * runs them: the output reads like cbench's, in both modes and both versions.
 */
@Timeout(60)
class GeneratorAgainstResponderTest {

    /** The expression a script that parses cbench's output uses. */
    static final Pattern CBENCH_RESULT = Pattern.compile(
            "RESULT: (\\d+) switches (\\d+) tests min/max/avg/stdev = ([\\d.]+)/([\\d.]+)/([\\d.]+)/([\\d.]+) responses/s");
    /** cbench's per-test line: time, switches, each switch's count, the total per ms. */
    static final Pattern CBENCH_TEST_LINE = Pattern.compile(
            "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (\\d+) +switches: flows/sec:  ((?:\\d+  )+) total = ([\\d.]+) per ms ");

    /**
     * Responses a switch counts in a 200 ms test at the least, in either mode: in latency mode a
     * round trip on loopback takes well under a millisecond, and a packet-in whose answer the generator
     * did not recognise as such would stall its switch for the rest of the test (one or two).
     */
    static final int LATENCY_MODE_FLOOR = 10;

    private TrivialResponder responder;
    private Thread responderThread;

    @BeforeEach
    void startResponder() throws IOException {
        responder = TrivialResponder.listen(0, System.err);
        responderThread = new Thread(responder, "trivial-responder");
        responderThread.start();
    }

    @AfterEach
    void stopResponder() throws InterruptedException {
        responder.close();
        responderThread.join(10_000);
    }

    /** Latency mode with one switch spins on its socket, with several on the selector: both are run. */
    @ParameterizedTest(name = "{0} -V {1} -s {2}")
    @CsvSource({"latency, 1.0, 4", "throughput, 1.0, 4", "latency, 1.3, 4", "throughput, 1.3, 4", "latency, 1.0, 1",
        "latency, 1.3, 1"})
    void shortRunGivesNonzeroFiguresInCbenchsFormat(String mode, String version, int switches) throws IOException {
        List<String> args = new ArrayList<>(List.of("-p", Integer.toString(responder.port()), "-m", "200", "-l", "3",
                "-s", Integer.toString(switches), "-V", version));
        if (mode.equals("throughput")) {
            args.add("-t");
        }
        Run run = run(args.toArray(String[]::new));
        assertEquals(0, run.status, run.toString());

        List<String> lines = run.stdout.lines().toList();
        assertEquals(4, lines.size(), "three test lines and RESULT\n" + run);
        for (String line : lines.subList(0, 3)) {
            Matcher test = CBENCH_TEST_LINE.matcher(line);
            assertTrue(test.matches(), "a cbench test line: '" + line + "'");
            assertEquals(Integer.toString(switches), test.group(1));
            String[] counts = test.group(2).trim().split(" +");
            assertEquals(switches, counts.length, line);
        }
        // After the warmup every switch gets answers.
        Matcher lastTest = CBENCH_TEST_LINE.matcher(lines.get(2));
        assertTrue(lastTest.matches());
        for (String count : lastTest.group(2).trim().split(" +")) {
            assertTrue(Long.parseLong(count) >= LATENCY_MODE_FLOOR, "every switch counted responses; in latency mode"
                    + " each answer releases the next packet-in, so many in 200 ms: " + lines.get(2));
        }

        Matcher result = CBENCH_RESULT.matcher(lines.get(3));
        assertTrue(result.matches(), "cbench's RESULT expression reads '" + lines.get(3) + "'");
        assertEquals(switches, Integer.parseInt(result.group(1)));
        assertEquals(2, Integer.parseInt(result.group(2)), "3 loops minus 1 warmup");
        double min = Double.parseDouble(result.group(3));
        double max = Double.parseDouble(result.group(4));
        double avg = Double.parseDouble(result.group(5));
        assertTrue(min > 0, "nonzero figures: " + lines.get(3));
        assertTrue(min <= avg && avg <= max, lines.get(3));
        System.out.println(mode + " -V " + version + " -s " + switches + " against the trivial responder: " + lines.get(3));

        assertTrue(run.stderr.contains("running in mode '" + mode + "'"), run.stderr);
        assertTrue(run.stderr.contains("speaking OpenFlow " + version), run.stderr);
        assertTrue(Pattern.compile("generator: event loop busy \\d+% of the test time").matcher(run.stderr).find(),
                "the generator says how busy it was\n" + run.stderr);
    }

    @Test
    void badFlagIsRefusedByName() {
        Run run = run("-s", "four");
        assertEquals(2, run.status);
        assertTrue(run.stderr.contains("-s needs a number of switches (1-65535), got 'four'"), run.stderr);
        assertEquals("", run.stdout);
    }

    @Test
    void noControllerIsAClearFailure() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        Run run = run("-p", Integer.toString(closedPort), "-s", "1", "-l", "2", "-m", "50");
        assertEquals(1, run.status, run.toString());
        assertTrue(run.stderr.contains("switch 1 cannot connect to the controller at localhost:" + closedPort),
                run.stderr);
    }

    @Test
    void responderFlags() throws Exception {
        assertEquals(6653, Main.responderPort(new String[0]));
        assertEquals(7000, Main.responderPort(new String[] {"-p", "7000"}));
        BenchOptions.UsageException e = org.junit.jupiter.api.Assertions.assertThrows(
                BenchOptions.UsageException.class, () -> Main.responderPort(new String[] {"-s", "3"}));
        assertEquals("unknown flag '-s' (the responder takes only -p PORT)", e.getMessage());
    }

    /** Runs the generator in this JVM, as {@code heliograph bench} does. */
    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    record Run(int status, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }
}
