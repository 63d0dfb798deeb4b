package io.heliograph.sims.circuit;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code deploy/heliograph circuit-sim EXPERIMENT}: the reconfigurable-datacenter chapter's experiments
 * (spec §2.10) on the packet-level simulator, each table with the thesis's figures beside ours. Progress
 * goes to stderr.
 */
public final class CircuitSim {

    static final List<String> BUILT = List.of("buffers", "resize");
    /** Not a thesis experiment, and not in "all": the core's speed at full size and load. */
    static final String SPEED = "speed";
    static final List<String> NOT_BUILT = List.of("retcp", "one-ring", "two-ring", "dfsio");

    private final PrintStream out;
    private final Experiments experiments;
    private final Config base;
    private final long durationNs;

    CircuitSim(PrintStream out, Experiments experiments) {
        this(out, experiments, Config.etalon(), Experiments.SHORT_NS);
    }

    CircuitSim(PrintStream out, Experiments experiments, Config base, long durationNs) {
        this.out = out;
        this.experiments = experiments;
        this.base = base;
        this.durationNs = durationNs;
    }

    record Options(String experiment, long seed, int threads, long durationNs, long minRtoNs, boolean help) {
    }

    static Options parse(String... args) {
        String experiment = null;
        long seed = 1;
        int threads = Runtime.getRuntime().availableProcessors();
        long duration = Experiments.FULL_NS;
        long minRto = Config.etalon().minRtoNs();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    return new Options(null, seed, threads, duration, minRto, true);
                }
                case "--short" -> duration = Experiments.SHORT_NS;
                case "--seconds" -> {
                    String text = value(args, ++i, "--seconds");
                    try {
                        double seconds = Double.parseDouble(text);
                        if (!(seconds >= 0.01 && seconds <= 100)) {
                            throw new NumberFormatException();
                        }
                        duration = Math.round(seconds * 1e9);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seconds must be from 0.01 to 100 simulated seconds, not '"
                                + text + "'");
                    }
                }
                case "--seed" -> {
                    String text = value(args, ++i, "--seed");
                    try {
                        seed = Long.parseLong(text);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed must be a whole number, not '" + text + "'");
                    }
                }
                case "--threads" -> threads = positive(value(args, ++i, "--threads"), "--threads");
                case "--min-rto-us" -> minRto = positive(value(args, ++i, "--min-rto-us"), "--min-rto-us") * 1_000L;
                default -> {
                    if (experiment != null || args[i].startsWith("-")) {
                        throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                    }
                    experiment = args[i];
                }
            }
        }
        if (experiment == null) {
            throw new IllegalArgumentException("which experiment? one of " + String.join(", ", BUILT) + ", all");
        }
        if (NOT_BUILT.contains(experiment)) {
            throw new IllegalArgumentException("'" + experiment + "' is not built yet (built: "
                    + String.join(", ", BUILT) + "; sims/circuit/README.md says what is left)");
        }
        if (!experiment.equals("all") && !experiment.equals(SPEED) && !BUILT.contains(experiment)) {
            throw new IllegalArgumentException("no experiment '" + experiment + "': one of " + String.join(", ", BUILT)
                    + ", all (not built yet: " + String.join(", ", NOT_BUILT) + ")");
        }
        return new Options(experiment, seed, threads, duration, minRto, false);
    }

    public static void main(String[] args) {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("circuit-sim: " + e.getMessage());
            usage(System.err);
            System.exit(2);
            return;
        }
        if (options.help()) {
            usage(System.out);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(options.threads());
        try {
            Config base = Config.etalon().withSeed(options.seed()).withMinRto(options.minRtoNs());
            CircuitSim sim = new CircuitSim(System.out, new Experiments(pool, base, options.durationNs()), base,
                    options.durationNs());
            if (options.experiment().equals("all")) {
                System.err.println("circuit-sim: not built yet, left out: " + String.join(", ", NOT_BUILT));
            }
            for (String name : options.experiment().equals("all") ? BUILT : List.of(options.experiment())) {
                sim.print(name);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void usage(PrintStream to) {
        to.println("usage: circuit-sim EXPERIMENT [--short | --seconds S] [--seed N] [--threads T] [--min-rto-us U]");
        to.println("  EXPERIMENT: " + String.join(", ", BUILT) + ", or all (not built yet: "
                + String.join(", ", NOT_BUILT) + "); speed: the core's events/s at full load");
        to.println("  --seconds S     simulated seconds a run (default 2, the thesis's flows)");
        to.println("  --short         0.5 simulated seconds a run (the test suite's mode)");
        to.println("  --seed N        flow start jitter and schedules' randomness (default 1)");
        to.println("  --threads T     runs at once (default: the cores)");
        to.println("  --min-rto-us U  TCP's minimum retransmission timeout (default 10000)");
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return args[i];
    }

    private static int positive(String text, String flag) {
        try {
            int value = Integer.parseInt(text);
            if (value < 1) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a whole number from 1, not '" + text + "'");
        }
    }

    void print(String name) {
        switch (name) {
            case "buffers" -> printBuffers(experiments.buffers());
            case "resize" -> printResize(experiments.resize());
            case SPEED -> printSpeed(Experiments.speed(base, durationNs));
            default -> throw new IllegalArgumentException(name);
        }
    }

    void printBuffers(List<Experiments.Result> results) {
        out.println("== buffers: static VOQ sizes, strobe schedule, 16 TCP flows rack 1 -> rack 2 (spec 2.5, Fig 2.7a, 2.8a)");
        header();
        results.forEach(this::row);
        Experiments.Result r16 = Experiments.find(results, "static 16");
        Experiments.Result r64 = Experiments.find(results, "static 64");
        Experiments.Result r128 = Experiments.find(results, "static 128");
        out.println("  thesis: circuit utilisation rises with the buffer, maximal from 64 packets; packet-switch latency"
                + " grows sharply with it");
        out.printf(Locale.ROOT, "  ours:   utilisation 16 -> 64 -> 128: %.0f%% -> %.0f%% -> %.0f%%;"
                        + " median packet-switch latency 16 -> 128: %.1f -> %.1f us%n",
                100 * r16.circuitUtilisation(), 100 * r64.circuitUtilisation(), 100 * r128.circuitUtilisation(),
                r16.medianPacketMicros(), r128.medianPacketMicros());
        footer(results);
    }

    void printResize(List<Experiments.Result> results) {
        out.println("== resize: resize(16, 128, tau), strobe schedule, 16 TCP flows rack 1 -> rack 2 (spec 2.5, Fig 2.7b, 2.8b)");
        header();
        results.forEach(this::row);
        Experiments.Result tau1000 = Experiments.find(results, "tau 1000");
        Experiments.Result tau0 = Experiments.find(results, "tau 0");
        Experiments.Result s16 = Experiments.find(results, "static 16");
        Experiments.Result s64 = Experiments.find(results, "static 64");
        double maxFlat = results.stream().filter(r -> r.label().startsWith("tau ")
                && Long.parseLong(r.label().substring(4)) <= 1_000).mapToDouble(Experiments.Result::medianMicros).max().orElse(0);
        out.printf(Locale.ROOT, "  median latency, tau 1000 vs static 64:       thesis -36%%, ours %+.0f%% (utilisation %.0f%% vs %.0f%%)%n",
                100 * (tau1000.medianMicros() / s64.medianMicros() - 1), 100 * tau1000.circuitUtilisation(),
                100 * s64.circuitUtilisation());
        out.printf(Locale.ROOT, "  circuit utilisation, tau 1000 vs static 16:  thesis ~2x,  ours %.2fx (median %.1f vs %.1f us)%n",
                tau1000.circuitUtilisation() / s16.circuitUtilisation(), tau1000.medianMicros(), s16.medianMicros());
        Experiments.Result s128 = Experiments.find(results, "static 128");
        Experiments.Result tau1200 = Experiments.find(results, "tau 1200");
        out.printf(Locale.ROOT, "  near static 128's throughput, tau 1200:      goodput %.2f vs %.2f Gb/s, median %.1f vs %.1f us (%+.0f%%)%n",
                tau1200.goodputGbps(), s128.goodputGbps(), tau1200.medianMicros(), s128.medianMicros(),
                100 * (tau1200.medianMicros() / s128.medianMicros() - 1));
        out.printf(Locale.ROOT, "  median flat up to tau 1000:                  thesis yes,  ours %.1f us at tau 0, at most %.1f us to 1000,"
                + " %.1f us at 1400%n", tau0.medianMicros(), maxFlat, Experiments.find(results, "tau 1400").medianMicros());
        footer(results);
    }

    void printSpeed(Experiments.Speed s) {
        out.println("== speed: 128 hosts, each an endless TCP flow to a random host of another rack, Solstice every"
                + " 2 ms week on VOQ occupancy, 16-packet VOQs");
        out.printf(Locale.ROOT, "  %.3f simulated s: %.1f M events (%.1f M a simulated second) in %.2f s: %.1f M events/s;"
                        + " goodput %.1f Gb/s; Solstice %.2f ms a week over %d weeks%n%n",
                s.simulatedNs() / 1e9, s.events() / 1e6, s.events() / 1e6 / (s.simulatedNs() / 1e9), s.wallSeconds(),
                s.events() / 1e6 / s.wallSeconds(), s.goodputGbps(), s.solsticeMillisPerWeek(), s.weeks());
        out.flush();
    }

    private void header() {
        out.printf(Locale.ROOT, "  %-11s %9s %9s %9s %9s %9s %9s %8s %6s %5s%n", "run", "circuit", "goodput",
                "median", "med pkt", "med circ", "p99", "drops", "fast", "rto");
        out.printf(Locale.ROOT, "  %-11s %9s %9s %9s %9s %9s %9s %8s %6s %5s%n", "", "util %", "Gb/s", "us", "us", "us",
                "us", "data", "retx", "");
    }

    private void row(Experiments.Result r) {
        out.printf(Locale.ROOT, "  %-11s %9.1f %9.2f %9.1f %9.1f %9.1f %9.1f %8d %6d %5d%n", r.label(),
                100 * r.circuitUtilisation(), r.goodputGbps(), r.medianMicros(), r.medianPacketMicros(),
                r.medianCircuitMicros(), r.p99Micros(), r.dataDrops(), r.fastRetransmits(), r.timeouts());
    }

    private void footer(List<Experiments.Result> results) {
        long events = results.stream().mapToLong(Experiments.Result::events).sum();
        double wall = results.stream().mapToDouble(Experiments.Result::wallSeconds).sum();
        out.printf(Locale.ROOT, "  %d runs of %.2f simulated s each; %.1f M events in %.1f s of CPU: %.1f M events/s%n%n",
                results.size(), results.get(0).simulatedNs() / 1e9, events / 1e6, wall, events / 1e6 / wall);
        out.flush();
    }
}
