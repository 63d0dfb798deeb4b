package io.heliograph.sims.circuit;

import static io.heliograph.sims.kit.Flags.positive;
import static io.heliograph.sims.kit.Flags.value;

import io.heliograph.sims.kit.Flags;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code deploy/heliograph circuit-sim EXPERIMENT}: the reconfigurable-datacenter chapter's experiments
 * (spec §2.10) on the packet-level simulator, each table with the thesis's figures beside ours. Progress
 * goes to stderr.
 */
public final class CircuitSim {

    static final List<String> BUILT = List.of("buffers", "resize", "retcp", "one-ring", "two-ring", "dfsio");
    /** Not a thesis experiment, and not in "all": the core's speed at full size and load. */
    static final String SPEED = "speed";

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

    record Options(String experiment, long seed, int threads, long durationNs, long minRtoNs, boolean directAcks,
                   boolean help) {
    }

    static Options parse(String... args) {
        String experiment = null;
        long seed = 1;
        int threads = Runtime.getRuntime().availableProcessors();
        long duration = Experiments.FULL_NS;
        long minRto = Config.etalon().minRtoNs();
        boolean directAcks = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    return new Options(null, seed, threads, duration, minRto, directAcks, true);
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
                case "--seed" -> seed = Flags.whole(value(args, ++i, "--seed"), "--seed");
                case "--threads" -> threads = positive(value(args, ++i, "--threads"), "--threads");
                case "--min-rto-us" -> minRto = positive(value(args, ++i, "--min-rto-us"), "--min-rto-us") * 1_000L;
                case "--acks" -> {
                    String path = value(args, ++i, "--acks");
                    if (!path.equals("packet") && !path.equals("direct")) {
                        throw new IllegalArgumentException("--acks is packet or direct, not '" + path + "'");
                    }
                    directAcks = path.equals("direct");
                }
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
        if (!experiment.equals("all") && !experiment.equals(SPEED) && !BUILT.contains(experiment)) {
            throw new IllegalArgumentException("no experiment '" + experiment + "': one of " + String.join(", ", BUILT)
                    + ", all, " + SPEED);
        }
        return new Options(experiment, seed, threads, duration, minRto, directAcks, false);
    }

    public static void main(String[] args) {
        Optional<Options> read = Flags.read("circuit-sim", args, CircuitSim::parse, Options::help, CircuitSim::usage);
        if (read.isEmpty()) {
            return;
        }
        Options options = read.get();
        ExecutorService pool = Executors.newFixedThreadPool(options.threads());
        try {
            Config base = Config.etalon().withSeed(options.seed()).withMinRto(options.minRtoNs())
                    .withDirectAcks(options.directAcks());
            if (options.directAcks()) {
                System.out.println("(ACKs between racks on an uncongested path of their own: --acks direct)");
            }
            CircuitSim sim = new CircuitSim(System.out, new Experiments(pool, base, options.durationNs()), base,
                    options.durationNs());
            for (String name : options.experiment().equals("all") ? BUILT : List.of(options.experiment())) {
                sim.print(name);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void usage(PrintStream to) {
        to.println("usage: circuit-sim EXPERIMENT [--short | --seconds S] [--seed N] [--threads T] [--min-rto-us U]"
                + " [--acks packet|direct]");
        to.println("  EXPERIMENT: " + String.join(", ", BUILT) + ", or all (every one of them);"
                + " speed: the core's events/s at full load");
        to.println("  --seconds S     simulated seconds a run (default 2, the thesis's flows)");
        to.println("  --short         0.5 simulated seconds a run (the test suite's mode)");
        to.println("  --seed N        flow start jitter and schedules' randomness (default 1)");
        to.println("  --threads T     runs at once (default: the cores)");
        to.println("  --min-rto-us U  TCP's minimum retransmission timeout (default 10000)");
        to.println("  --acks A        packet: ACKs share the VOQs and the packet switch with data (default);"
                + " direct: an uncongested path of their own");
    }



    void print(String name) {
        switch (name) {
            case "buffers" -> printBuffers(experiments.buffers());
            case "resize" -> printResize(experiments.resize());
            case "retcp" -> printRetcp(experiments.retcp());
            case "one-ring" -> printRing(experiments.oneRing(), 1);
            case "two-ring" -> printRing(experiments.twoRing(), 2);
            case "dfsio" -> printDfsio(experiments.dfsio());
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

    void printRetcp(List<Experiments.Result> results) {
        out.println("== retcp: Reno and reTCP (ECE on the ACKs while the circuit is up, cwnd x2 at its start, x0.5 at its"
                + " end), strobe schedule, 16 TCP flows rack 1 -> rack 2 (spec 2.6, Fig 2.9, 2.10)");
        header();
        results.forEach(this::row);
        Experiments.Result reno16 = Experiments.find(results, "reno 16");
        Experiments.Result retcp16 = Experiments.find(results, "retcp 16");
        Experiments.Result reno64 = Experiments.find(results, "reno 64");
        out.printf(Locale.ROOT, "  reTCP alone (static 16) vs Reno static 16:    thesis: does not help (no backlog at circuit"
                        + " start); ours: utilisation %.0f%% vs %.0f%%, median %.1f vs %.1f us%n",
                100 * retcp16.circuitUtilisation(), 100 * reno16.circuitUtilisation(), retcp16.medianMicros(),
                reno16.medianMicros());
        for (long tau : new long[] {600, 1_000}) {
            Experiments.Result reno = Experiments.find(results, "reno t" + tau);
            Experiments.Result retcp = Experiments.find(results, "retcp t" + tau);
            out.printf(Locale.ROOT, "  reTCP + resize vs resize, tau %4d:           thesis: slightly more utilisation, p99 mostly"
                            + " worse; ours: utilisation %.0f%% vs %.0f%%, median %.1f vs %.1f us, p99 %.1f vs %.1f us%n",
                    tau, 100 * retcp.circuitUtilisation(), 100 * reno.circuitUtilisation(), retcp.medianMicros(),
                    reno.medianMicros(), retcp.p99Micros(), reno.p99Micros());
        }
        out.printf(Locale.ROOT, "  (reference: Reno static 64, utilisation %.0f%%, median %.1f us)%n",
                100 * reno64.circuitUtilisation(), reno64.medianMicros());
        footer(results);
    }

    /** Table 2.2 of the thesis (two-ring), FCT in ms: median small, 99th small, median big, 99th big. */
    static final java.util.Map<String, double[]> TABLE_2_2 = java.util.Map.ofEntries(
            java.util.Map.entry("ToR VOQ", new double[] {1.52, 56.39, 1162.04, 1988.84}),
            java.util.Map.entry("VOQ+Resize", new double[] {1.57, 76.54, 737.64, 1917.55}),
            java.util.Map.entry("VOQ+reTCP", new double[] {1.60, 69.86, 660.19, 1869.50}),
            java.util.Map.entry("ADU", new double[] {1.51, 65.71, 644.01, 1815.74}),
            java.util.Map.entry("ADU+Resize", new double[] {1.58, 79.07, 110.61, 432.50}),
            java.util.Map.entry("ADU+reTCP", new double[] {1.59, 77.80, 102.11, 406.44}),
            java.util.Map.entry("Fixed", new double[] {1.49, 64.99, 724.08, 1860.53}),
            java.util.Map.entry("Packet 10G", new double[] {2.19, 36.34, 1680.35, 1998.27}),
            java.util.Map.entry("Packet 20G", new double[] {1.05, 22.25, 1025.92, 1944.73}),
            java.util.Map.entry("Packet 40G", new double[] {0.71, 14.50, 46.95, 134.29}),
            java.util.Map.entry("Packet 80G", new double[] {0.65, 5.20, 45.30, 114.77}));

    void printRing(List<Experiments.FctResult> results, int rings) {
        Experiments.FctResult first = results.get(0);
        out.printf(Locale.ROOT, "== %s: big flows (1,000-10,000 packets) on %s, 1/3 of circuit bandwidth; small flows"
                        + " (10-100) to the other racks, 1/3 of packet bandwidth; Solstice each 2 ms week (spec 2.7, %s)%n",
                rings == 1 ? "one-ring" : "two-ring", rings == 1 ? "one ring" : "two rings",
                rings == 1 ? "Fig 2.13-2.16" : "Table 2.2");
        out.printf(Locale.ROOT, "  %d small and %d big flows in %.2f simulated s; unfinished flows are killed at the end and"
                + " count with the time they ran; FCT in ms%n", first.small(), first.big(), first.simulatedNs() / 1e9);
        boolean thesis = rings == 2;
        out.printf(Locale.ROOT, "  %-11s %8s %8s %8s %8s %7s %7s %6s %6s %6s%s%n", "run", "med sm", "p99 sm", "med big",
                "p99 big", "unfin", "unfin", "circ", "circ", "Gb/s", thesis ? "   | thesis: med sm  p99 sm  med big  p99 big" : "");
        out.printf(Locale.ROOT, "  %-11s %8s %8s %8s %8s %7s %7s %6s %6s %6s%n", "", "ms", "ms", "ms", "ms", "small",
                "big", "util%", "share%", "");
        for (Experiments.FctResult r : results) {
            String theirs = "";
            if (thesis && TABLE_2_2.containsKey(r.label())) {
                double[] t = TABLE_2_2.get(r.label());
                theirs = String.format(Locale.ROOT, "   | %14.2f %7.2f %8.2f %8.2f", t[0], t[1], t[2], t[3]);
            }
            out.printf(Locale.ROOT, "  %-11s %8.2f %8.2f %8.1f %8.1f %7d %7d %6.1f %6.1f %6.1f%s%n", r.label(),
                    r.medianSmallMs(), r.p99SmallMs(), r.medianBigMs(), r.p99BigMs(), r.unfinishedSmall(), r.unfinishedBig(),
                    100 * r.circuitUtilisation(), 100 * r.circuitShare(), r.goodputGbps(), theirs);
        }
        Experiments.FctResult voq = Experiments.findFct(results, "ToR VOQ");
        Experiments.FctResult adu = Experiments.findFct(results, "ADU");
        if (rings == 1) {
            out.printf(Locale.ROOT, "  big flows, VOQ / ADU:   median thesis ~8x, ours %.2fx; 99th thesis ~11x, ours %.2fx%n",
                    voq.medianBigMs() / adu.medianBigMs(), voq.p99BigMs() / adu.p99BigMs());
            out.printf(Locale.ROOT, "  small flows, VOQ / ADU: 99th thesis ~2x, ours %.2fx%n", voq.p99SmallMs() / adu.p99SmallMs());
            Experiments.FctResult fixed = Experiments.findFct(results, "Fixed");
            out.printf(Locale.ROOT, "  ADU vs Fixed, median big: thesis ADU hugs Fixed; ours %.1f vs %.1f ms%n",
                    adu.medianBigMs(), fixed.medianBigMs());
        } else {
            for (String label : List.of("VOQ+Resize", "VOQ+reTCP", "ADU", "ADU+Resize", "ADU+reTCP", "Fixed")) {
                Experiments.FctResult r = Experiments.findFct(results, label);
                double[] t = TABLE_2_2.get(label);
                out.printf(Locale.ROOT, "  median big, ToR VOQ / %-11s thesis %5.1fx, ours %5.2fx%n", label + ":",
                        TABLE_2_2.get("ToR VOQ")[2] / t[2], voq.medianBigMs() / r.medianBigMs());
            }
        }
        long events = results.stream().mapToLong(Experiments.FctResult::events).sum();
        double wall = results.stream().mapToDouble(Experiments.FctResult::wallSeconds).sum();
        out.printf(Locale.ROOT, "  %d runs of %.2f simulated s each; %.1f M events in %.1f s of CPU: %.1f M events/s%n%n",
                results.size(), first.simulatedNs() / 1e9, events / 1e6, wall, events / 1e6 / wall);
        out.flush();
    }

    void printDfsio(List<Experiments.DfsioResult> results) {
        Experiments.DfsioResult first = results.get(0);
        out.printf(Locale.ROOT, "== dfsio: %d writers each write a %.0f MB file, 3 replicas pipelined (writer, then two hosts"
                        + " of the replica rack), random (HDFS) vs ring (reHDFS) replica racks; Solstice on VOQs (spec 2.8, Fig 2.20)%n",
                Experiments.WRITERS, first.fileBytes() / (double) (1L << 20));
        out.printf(Locale.ROOT, "  %-14s %9s %9s %9s %6s %7s %7s %9s%n", "run", "median s", "p99 s", "max s", "unfin",
                "circ %", "share %", "sim s");
        for (Experiments.DfsioResult r : results) {
            out.printf(Locale.ROOT, "  %-14s %9.3f %9.3f %9.3f %6d %7.1f %7.1f %9.3f%n", r.label(), r.medianSeconds(),
                    r.p99Seconds(), r.maxSeconds(), r.unfinished(), 100 * r.circuitUtilisation(), 100 * r.circuitShare(),
                    r.simulatedNs() / 1e9);
        }
        Experiments.DfsioResult hdfs = Experiments.findDfsio(results, "HDFS");
        Experiments.DfsioResult rehdfs = Experiments.findDfsio(results, "reHDFS");
        Experiments.DfsioResult resized = Experiments.findDfsio(results, "HDFS+Resize");
        out.printf(Locale.ROOT, "  write time, HDFS / reHDFS:   median thesis ~4.7x, ours %.2fx; 99th thesis ~7.6x, ours %.2fx;"
                        + " max thesis ~9x, ours %.2fx%n", hdfs.medianSeconds() / rehdfs.medianSeconds(),
                hdfs.p99Seconds() / rehdfs.p99Seconds(), hdfs.maxSeconds() / rehdfs.maxSeconds());
        out.printf(Locale.ROOT, "  99th write time, HDFS+Resize vs HDFS: thesis -20%%, ours %+.0f%%; reHDFS vs HDFS+Resize:"
                        + " thesis -84%%, ours %+.0f%%%n", 100 * (resized.p99Seconds() / hdfs.p99Seconds() - 1),
                100 * (rehdfs.p99Seconds() / resized.p99Seconds() - 1));
        long events = results.stream().mapToLong(Experiments.DfsioResult::events).sum();
        double wall = results.stream().mapToDouble(Experiments.DfsioResult::wallSeconds).sum();
        out.printf(Locale.ROOT, "  %d runs, each until its last file is written; %.1f M events in %.1f s of CPU: %.1f M events/s%n%n",
                results.size(), events / 1e6, wall, events / 1e6 / wall);
        out.flush();
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
