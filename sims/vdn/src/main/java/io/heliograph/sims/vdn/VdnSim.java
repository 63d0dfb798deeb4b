package io.heliograph.sims.vdn;

import static io.heliograph.sims.kit.Flags.positive;
import static io.heliograph.sims.kit.Flags.value;

import io.heliograph.sims.kit.Flags;
import io.heliograph.sims.kit.Solvers;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TreeOptimiser;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code deploy/heliograph vdn-sim EXPERIMENT}: VDN's trace-driven evaluation (spec §4.7) on the
 * simulator, each table with the thesis's figures beside ours. Progress goes to stderr, tables to stdout.
 */
public final class VdnSim {

    static final List<String> EXPERIMENTS = List.of("average-day", "large-event", "heavy-tail", "scale-videos",
            "scale-edges", "topology", "knobs");
    /** The one row of Tables 4.3-4.5 that survived: cost per satisfied request, VDN = 1. */
    static final Map<String, Map<String, String>> THESIS_COST = Map.of(
            "Average Day", Map.of("EE", "174", "OM", "1.1", "CDN", "1.54", "VDN", "1"),
            "Large Event", Map.of("EE", "167K", "OM", "1.1", "CDN", "2.0", "VDN", "1"),
            "Heavy-Tail", Map.of("EE", "7.7", "OM", "4.1", "CDN", "1.2", "VDN", "1"));
    static final Map<String, String> THESIS_PROSE = Map.of(
            "Average Day", "VDN, CDN and OM serve all requests at their bitrate; VDN's cost 1.5-2x lower than CDN's; OM matches VDN",
            "Large Event", "VDN, CDN and OM serve all requests at their bitrate; VDN's cost 1.5-2x lower than CDN's; nearly every edge needs the 4 games",
            "Heavy-Tail", "VDN 1.7x CDN's mean bitrate and 24% more clients at their bitrate; OM 44% fewer satisfied requests at 4x the cost");
    static final int[] SCALE_VIDEOS = {1_000, 2_000, 4_000, 6_000, 8_000, 10_000};
    static final int[] SCALE_VIDEOS_SHORT = {1_000, 3_000};
    static final int[] SCALE_EDGES = {100, 500, 1_000, 2_000};
    static final int[] SCALE_EDGES_SHORT = {50, 200};
    static final double[] COST_WEIGHTS = {1, 0.75, 0.5, 0.25, 0};
    static final String PENDING = "not measured: no solver (the distribution's solver bundle did not load)";

    private final PrintStream out;
    private final Experiments experiments;

    VdnSim(PrintStream out, Experiments experiments) {
        this.out = out;
        this.experiments = experiments;
    }

    record Options(String experiment, boolean quick, int windows, long seed, int timeLimitSeconds, boolean vdn,
            boolean help) {
    }

    static Options parse(String... args) {
        String experiment = null;
        boolean quick = false;
        int windows = Experiments.DEFAULT_WINDOWS;
        long seed = 1;
        int timeLimit = (int) VdnOptimisers.THESIS_TIME_LIMIT.toSeconds();
        boolean vdn = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    return new Options(null, quick, windows, seed, timeLimit, vdn, true);
                }
                case "--short" -> quick = true;
                case "--windows" -> windows = positive(value(args, ++i, "--windows"), "--windows");
                case "--all-windows" -> windows = 0;
                case "--seed" -> seed = Flags.whole(value(args, ++i, "--seed"), "--seed");
                case "--time-limit" -> timeLimit = positive(value(args, ++i, "--time-limit"), "--time-limit");
                case "--no-vdn" -> vdn = false;
                default -> {
                    if (experiment != null || args[i].startsWith("-")) {
                        throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                    }
                    experiment = args[i];
                }
            }
        }
        Flags.oneOrAll("experiment", experiment, EXPERIMENTS);
        return new Options(experiment, quick, windows, seed, timeLimit, vdn, false);
    }

    public static void main(String[] args) {
        Optional<Options> read = Flags.read("vdn-sim", args, VdnSim::parse, Options::help, VdnSim::usage);
        if (read.isEmpty()) {
            return;
        }
        Options options = read.get();
        Optional<TreeOptimiser> vdn = Optional.empty();
        if (options.vdn()) {
            try {
                vdn = Optional.of(VdnOptimisers.central(Solvers.find(), Duration.ofSeconds(options.timeLimitSeconds())));
            } catch (IOException | RuntimeException | LinkageError e) {
                System.err.println("vdn-sim: VDN and OM are left out, their optimiser would not start: " + e.getMessage());
            }
        }
        Experiments.Scale scale = options.quick() ? Experiments.Scale.quick(options.seed())
                : Experiments.Scale.full(options.windows(), options.seed());
        VdnSim sim = new VdnSim(System.out, new Experiments(scale, vdn, line -> System.err.println("  " + line)));
        for (String name : options.experiment().equals("all") ? EXPERIMENTS : List.of(options.experiment())) {
            sim.print(name);
        }
    }

    private static void usage(PrintStream to) {
        to.println("usage: vdn-sim EXPERIMENT [--short] [--windows N | --all-windows] [--seed S] [--time-limit S] [--no-vdn]");
        to.println("  EXPERIMENT: " + String.join(", ", EXPERIMENTS) + ", or all (every one of them)");
        to.println("  --windows N     the first N 1-minute windows of each trace (default " + Experiments.DEFAULT_WINDOWS + ")");
        to.println("  --all-windows   all 60 windows of the hour");
        to.println("  --short         a tenth of each trace, " + Experiments.SHORT_WINDOWS + " windows (the test suite's mode)");
        to.println("  --seed S        the traces' and topologies' seed (default 1); the same seed, the same tables");
        to.println("  --time-limit S  VDN's optimiser's time limit a decision (default 60, the thesis's)");
        to.println("  --no-vdn        the baselines alone (EE, CDN, CDN-1)");
    }

    void print(String name) {
        switch (name) {
            case "average-day" -> printTrace(Traces.averageDay());
            case "large-event" -> printTrace(Traces.largeEvent());
            case "heavy-tail" -> printTrace(Traces.heavyTail());
            case "scale-videos" -> printScaleVideos();
            case "scale-edges" -> printScaleEdges();
            case "topology" -> printTopology();
            case "knobs" -> printKnobs();
            default -> throw new IllegalArgumentException("no experiment " + name);
        }
        out.flush();
    }

    private String windows(Trace trace) {
        int all = trace.windows().size();
        int run = experiments.scale().windows() == 0 ? all : Math.min(all, experiments.scale().windows());
        return run + " of " + all + " windows" + (experiments.scale().reduced() ? ", short mode: "
                + Math.round(100 * experiments.scale().factor()) + "% of the trace" : "");
    }

    /** One of the three traces on the thesis's topology: the systems side by side (Tables 4.3-4.5). */
    List<Simulator.Metrics> printTrace(Traces.Spec spec) {
        Trace trace = experiments.trace(spec);
        Topology topology = experiments.topology(trace, HoseTopology.Shape.thesis());
        List<Simulator.Metrics> results = experiments.compare(trace, topology);
        out.printf(Locale.ROOT, "%n== %s: %d requests, %d videos, %d client groups; %s; %s ==%n", spec.name(),
                trace.requests(), trace.videos(), trace.groups().size(), topology, windows(trace));
        out.println("Thesis: " + THESIS_PROSE.get(spec.name()));
        printBound(results);
        out.println();
        out.println("| system | mean bitrate, kbit/s | clients at requested bitrate | cost / sat. req. | x VDN | thesis x VDN | decision, s (mean / max) | gap |");
        out.println("|--------|---------------------:|-----------------------------:|-----------------:|------:|-------------:|-------------------------:|----:|");
        Optional<Simulator.Metrics> vdn = find(results, "VDN");
        for (String name : List.of("EE", "OM", "CDN", "CDN-1", "VDN")) {
            String thesis = THESIS_COST.get(spec.name()).getOrDefault(name, "not given");
            Optional<Simulator.Metrics> found = find(results, name);
            if (found.isEmpty()) {
                out.printf(Locale.ROOT, "| %-6s | %s | | | | %s | | |%n", name, PENDING, thesis);
                continue;
            }
            Simulator.Metrics m = found.get();
            String ratio = vdn.map(v -> ratio(m.costPerSatisfied(), v.costPerSatisfied())).orElse("-");
            out.printf(Locale.ROOT, "| %-6s | %20.0f | %27.1f%% | %16s | %5s | %12s | %24s | %s |%n", name, m.averageKbps(),
                    100 * m.atRequested(), number(m.costPerSatisfied()), ratio, thesis, seconds(m), gap(m));
        }
        return results;
    }

    private void printBound(List<Simulator.Metrics> results) {
        if (!results.isEmpty()) {
            Simulator.Metrics any = results.get(0);
            out.printf(Locale.ROOT, "Requested: mean %.0f kbit/s; naive upper bound on the clients at their requested bitrate (each tier's capacity): %.1f%%%n",
                    any.requestedKbps(), 100 * any.bound());
        }
    }

    private void printScaleVideos() {
        int[] sizes = experiments.scale().reduced() ? SCALE_VIDEOS_SHORT : SCALE_VIDEOS;
        out.printf(Locale.ROOT, "%n== scale-videos: Heavy-Tail scaled, the same requests per video, thesis topology (Fig 4.11) ==%n");
        out.println("Thesis: the gap grows with load, up to 1.6x quality over CDN and OM; CDN-1 marginally better than CDN;"
                + " OM satisfies fewer than CDN; VDN decides in under 60 s up to 6,000 videos, ~190 s at 10,000 (gap ~1% at a 60 s limit)");
        out.println();
        out.println("| videos | requests | system | mean bitrate, kbit/s | clients at requested | cost / sat. req. | decision, s (mean / max) | gap |");
        out.println("|-------:|---------:|--------|---------------------:|---------------------:|-----------------:|-------------------------:|----:|");
        for (int videos : sizes) {
            Trace trace = experiments.trace(Traces.heavyTail().scaled(videos / 10_000.0, false));
            List<Simulator.Metrics> results = experiments.compare(trace, experiments.topology(trace, HoseTopology.Shape.thesis()));
            printRows(trace.videos() + " | " + trace.requests(), results, List.of("OM", "CDN", "CDN-1", "VDN"));
        }
    }

    private void printScaleEdges() {
        int[] edges = experiments.scale().reduced() ? SCALE_EDGES_SHORT : SCALE_EDGES;
        out.printf(Locale.ROOT, "%n== scale-edges: Average Day expanded to 10,000 videos, edges varied (Fig 4.12) ==%n");
        out.println("Thesis: VDN keeps ~90% of clients at their requested bitrate, about the naive upper bound, deciding within 60 s");
        out.println("(each reflector-edge link stays 100 Mbit/s; each edge has 3 reflectors)");
        out.println();
        out.println("| edges | naive bound | system | mean bitrate, kbit/s | clients at requested | cost / sat. req. | decision, s (mean / max) | gap |");
        out.println("|------:|--------------:|--------|---------------------:|---------------------:|-----------------:|-------------------------:|----:|");
        Trace trace = experiments.trace(Traces.averageDay().scaled(10_000 / 4_144.0, false));
        for (int count : edges) {
            List<Simulator.Metrics> results = experiments.compare(trace,
                    experiments.topology(trace, HoseTopology.Shape.thesis().withEdges(count)));
            String bound = results.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * results.get(0).bound());
            printRows(count + " | " + bound, results, List.of("CDN", "CDN-1", "VDN"));
        }
    }

    private void printTopology() {
        Trace trace = experiments.trace(Traces.heavyTail());
        out.printf(Locale.ROOT, "%n== topology: Heavy-Tail; connectivity (Fig 4.13) and bottleneck placement (Fig 4.14); %s ==%n",
                windows(trace));
        out.println("Thesis: CDN improves with connectivity, VDN is insensitive, OM does not benefit;"
                + " VDN improves mean bitrate under every bottleneck, most when source-constrained");
        out.println("(x, y, z): reflectors to x sources, edges to y reflectors, groups to z edges; each tier's aggregate capacity held");
        out.println();
        out.println("| topology | system | mean bitrate, kbit/s | clients at requested | cost / sat. req. | decision, s (mean / max) | gap |");
        out.println("|----------|--------|---------------------:|---------------------:|-----------------:|-------------------------:|----:|");
        List<HoseTopology.Shape> shapes = new ArrayList<>(HoseTopology.connectivities());
        shapes.addAll(HoseTopology.bottlenecks().subList(1, 3));
        for (HoseTopology.Shape shape : shapes) {
            printRows(shape.name(), experiments.compare(trace, experiments.topology(trace, shape)),
                    List.of("OM", "CDN", "CDN-1", "VDN"));
        }
    }

    private void printKnobs() {
        Trace trace = experiments.trace(Traces.heavyTail());
        Topology topology = experiments.topology(trace, HoseTopology.Shape.thesis());
        out.printf(Locale.ROOT, "%n== knobs: Heavy-Tail; VDN's cost weight swept 1 to 0 (Fig 4.15a), priority schemes (Fig 4.15b); %s ==%n",
                windows(trace));
        out.println("Thesis: VDN ~1.7x CDN's bitrate at the same cost and 1.5x OM's and CDN-1's, or -60% cost at similar quality;"
                + " quality (priority = bitrate) favours 4K, quantity (1 / bitrate) maximises streams");
        out.println();
        out.println("| knob | system | mean bitrate, kbit/s | clients at requested | cost / sat. req. | decision, s (mean / max) | gap |");
        out.println("|------|--------|---------------------:|---------------------:|-----------------:|-------------------------:|----:|");
        List<Strategy> references = experiments.strategies().stream().filter(s -> !s.name().equals("VDN")
                && !s.name().equals("EE")).toList();
        printRows("reference", experiments.compare(trace, topology, references, Priorities.BALANCED, 1),
                List.of("OM", "CDN", "CDN-1"));
        Optional<Strategy> vdn = experiments.vdnStrategy();
        for (double weight : COST_WEIGHTS) {
            printRows(String.format(Locale.ROOT, "cost weight %.2f", weight), vdn.map(s -> experiments.compare(trace,
                    topology, List.of(s), Priorities.BALANCED, weight)).orElse(List.of()), List.of("VDN"));
        }
        for (Priorities priorities : Priorities.values()) {
            printRows(priorities.name().toLowerCase(Locale.ROOT), vdn.map(s -> experiments.compare(trace, topology,
                    List.of(s), priorities, 1)).orElse(List.of()), List.of("VDN"));
        }
    }

    /** One row per named system, its figures or the placeholder where it did not run. */
    private void printRows(String label, List<Simulator.Metrics> results, List<String> names) {
        for (String name : names) {
            Optional<Simulator.Metrics> found = find(results, name);
            if (found.isEmpty()) {
                out.printf(Locale.ROOT, "| %s | %s | %s | | | | |%n", label, name, PENDING);
                continue;
            }
            Simulator.Metrics m = found.get();
            out.printf(Locale.ROOT, "| %s | %s | %.0f | %.1f%% | %s | %s | %s |%n", label, name, m.averageKbps(),
                    100 * m.atRequested(), number(m.costPerSatisfied()), seconds(m), gap(m));
        }
    }

    static Optional<Simulator.Metrics> find(List<Simulator.Metrics> results, String name) {
        return results.stream().filter(m -> m.strategy().equals(name)).findFirst();
    }

    private static String ratio(double value, double vdn) {
        return Double.isFinite(value) && vdn > 0 && Double.isFinite(vdn)
                ? String.format(Locale.ROOT, "%.2f", value / vdn) : "-";
    }

    private static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.4g", value) : "none served";
    }

    private static String seconds(Simulator.Metrics m) {
        return String.format(Locale.ROOT, "%.3f / %.3f", m.decisionSeconds(), m.maxDecisionSeconds());
    }

    private static String gap(Simulator.Metrics m) {
        return Double.isNaN(m.gap()) ? "-" : String.format(Locale.ROOT, "%.2f%%", 100 * m.gap());
    }
}
