package io.heliograph.testbed;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the distribution's load generator ({@code tools/heliograph-bench.jar}, what
 * {@code heliograph bench} runs) and what it printed, read: cbench's per-test lines and RESULT, and
 * the lines the generator adds on stderr about the controller's requests and, in latency mode, the
 * packet-ins' waits for an answer.
 */
public record BenchRun(CommandResult command) {

    /** cbench's per-test line: time, switches, each switch's count, the total per ms. */
    private static final Pattern TEST_LINE = Pattern.compile(
            "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (\\d+) +switches: flows/sec:  ((?:\\d+  )+) total = ([\\d.]+) per ms ");
    private static final Pattern RESULT = Pattern.compile(
            "RESULT: (\\d+) switches (\\d+) tests min/max/avg/stdev = ([\\d.]+)/([\\d.]+)/([\\d.]+)/([\\d.]+) responses/s");
    /** "statistics 48 (0 ignored, 48 answered late, 0 refused with an error)", the same for "role". */
    private static final Pattern REQUESTS = Pattern.compile(
            "(statistics|role) (\\d+) \\((\\d+) ignored, (\\d+) answered late, (\\d+) refused with an error\\)");
    private static final Pattern WAITS = Pattern.compile(
            "packet-ins: the longest wait for an answer was ([\\d.]+) ms; (\\d+) waited \\d+ ms or more \\(unanswered\\)");

    /** Runs the generator of the distribution at {@code home} with {@code args}, to its end or {@code timeout}. */
    public static BenchRun run(Path home, Duration timeout, List<String> args) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", home.resolve("tools/heliograph-bench.jar").toString()));
        argv.addAll(args);
        return new BenchRun(Command.of(argv).timeout(timeout).run());
    }

    public boolean succeeded() {
        return command.succeeded();
    }

    /** Each test's per-switch response counts, in order (the warmup included). */
    public List<long[]> tests() {
        List<long[]> tests = new ArrayList<>();
        for (String line : command.stdout().lines().toList()) {
            Matcher m = TEST_LINE.matcher(line);
            if (m.matches()) {
                tests.add(Arrays.stream(m.group(2).trim().split(" +")).mapToLong(Long::parseLong).toArray());
            }
        }
        return tests;
    }

    /** The RESULT line's responses per second: min, max, avg, stdev over the counted tests. */
    public double[] result() {
        Matcher m = find(RESULT, command.stdout(), "cbench's RESULT line");
        return new double[] {Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)),
            Double.parseDouble(m.group(5)), Double.parseDouble(m.group(6))};
    }

    /** The RESULT line as printed. */
    public String resultLine() {
        return find(RESULT, command.stdout(), "cbench's RESULT line").group();
    }

    /** The statistics requests the controller sent the switches, and what they did with them. */
    public Requests statistics() {
        return requests("statistics");
    }

    /** The role requests the controller sent the switches, and what they did with them. */
    public Requests roles() {
        return requests("role");
    }

    /** Latency mode: the longest any packet-in waited for its answer, in ms. */
    public double longestWaitMs() {
        return Double.parseDouble(find(WAITS, command.stderr(), "the packet-ins' waits").group(1));
    }

    /** Latency mode: packet-ins that waited a second or more for an answer (or never had one). */
    public long unanswered() {
        return Long.parseLong(find(WAITS, command.stderr(), "the packet-ins' waits").group(2));
    }

    private Requests requests(String kind) {
        Matcher m = REQUESTS.matcher(command.stderr());
        while (m.find()) {
            if (m.group(1).equals(kind)) {
                return new Requests(Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4)),
                        Long.parseLong(m.group(5)));
            }
        }
        throw new AssertionError("the generator did not say what became of the " + kind + " requests\n" + this);
    }

    private Matcher find(Pattern pattern, String text, String what) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            throw new AssertionError("the generator did not print " + what + "\n" + this);
        }
        return m;
    }

    @Override
    public String toString() {
        return String.join(" ", command.argv()) + "\nexit " + command.exitCode() + "\n--- stdout\n" + command.stdout()
                + "--- stderr\n" + command.stderr();
    }

    /** Requests of one kind the switches received, and how many they ignored, answered late and refused. */
    public record Requests(long received, long ignored, long late, long refused) {
    }
}
