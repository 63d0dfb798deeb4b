package io.heliograph.sims.virtue;

import static io.heliograph.sims.kit.Flags.positive;
import static io.heliograph.sims.kit.Flags.value;

import io.heliograph.sims.kit.Flags;
import io.heliograph.sims.kit.Solvers;
import io.heliograph.virtue.engine.Algorithms;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.Energy;
import io.heliograph.virtue.engine.GreedyFill;
import io.heliograph.virtue.engine.Model;
import io.heliograph.virtue.engine.PlacementAlgorithm;
import io.heliograph.virtue.engine.SimulatedAnnealing;
import io.heliograph.virtue.engine.ThreeTierTree;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code deploy/heliograph virtue-sim SCENARIO}: the thesis's experiments (spec §4.4) on the simulator,
 * one table per scenario, our median beside the thesis's figure. Progress goes to stderr.
 */
public final class VirtueSim {

    static final List<String> SCENARIOS = List.of("web20", "web120", "hadoop20", "hadoop120", "multitenant",
            "table52", "iterative");

    /** Table 5.2's edge rates (Mb/s) and oversubscriptions (ToR x aggregation). */
    static final int[] EDGE_MBPS = {100, 250, 500, 750};
    static final String[] OVERSUBSCRIPTION = {"16:1", "4:1", "FBB"};
    private static final int[][] RATIOS = {{4, 4}, {2, 2}, {1, 1}};
    /** Greedy Fill over Random, Table 5.2 (L1217-1233); null where the testbed could not run it. */
    static final String[][] TABLE_5_2 = {
        {"+129%", "+69%", "+58%"},
        {"+70%", "+38%", "+41%"},
        {"+57%", "+33%", null},
        {"+37%", "+34%", null},
    };
    static final int ROUNDS = 4;
    static final int DEFAULT_MODEL_SECONDS = 10;
    /** The most VMs a scenario may have for the Model to run on it. */
    static final int MODEL_MAX_VMS = 20;
    /**
     * Table 5.2 was measured after the testbed's CPU upgrade (its footnote, L1231): 2 dual-core AMD
     * Opteron 8214 HE at 2,210 MHz a PM, where the other experiments had 2 Xeon cores at 2.8 GHz (L722).
     */
    static final String HW2_CORES = "4";
    static final String HW2_CORE_SPEED = "2.21E9";

    private final PrintStream out;
    private final Experiment experiment;
    private final long seed;
    private final int placements;
    /** The Model, where its solver started: run at 20 VMs, as in the thesis ("no Model at this scale", L1155). */
    private final Optional<Model> model;

    VirtueSim(PrintStream out, Experiment experiment, long seed, int placements, Optional<Model> model) {
        this.out = out;
        this.experiment = experiment;
        this.seed = seed;
        this.placements = placements;
        this.model = model;
    }

    /** The command line: a scenario (or "all"), and the protocol's options. */
    record Options(String scenario, long seed, int placements, int threads, int modelSeconds, boolean help) {
    }

    /** Reads the command line; {@link IllegalArgumentException} names what is wrong. */
    static Options parse(String... args) {
        String scenario = null;
        long seed = 1;
        int placements = 0;
        int threads = Runtime.getRuntime().availableProcessors();
        int modelSeconds = DEFAULT_MODEL_SECONDS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    return new Options(null, seed, placements, threads, modelSeconds, true);
                }
                case "--seed" -> seed = Flags.whole(value(args, ++i, "--seed"), "--seed");
                case "--placements" -> placements = positive(value(args, ++i, "--placements"), "--placements");
                case "--threads" -> threads = positive(value(args, ++i, "--threads"), "--threads");
                case "--model-seconds" -> modelSeconds = positive(value(args, ++i, "--model-seconds"), "--model-seconds");
                case "--no-model" -> modelSeconds = 0;
                default -> {
                    if (scenario != null || args[i].startsWith("-")) {
                        throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
                    }
                    scenario = args[i];
                }
            }
        }
        Flags.oneOrAll("scenario", scenario, SCENARIOS);
        return new Options(scenario, seed, placements, threads, modelSeconds, false);
    }

    public static void main(String[] args) {
        Optional<Options> read = Flags.read("virtue-sim", args, VirtueSim::parse, Options::help, VirtueSim::usage);
        if (read.isEmpty()) {
            return;
        }
        Options options = read.get();
        Optional<Model> model = Optional.empty();
        if (options.modelSeconds() > 0) {
            try {
                model = Optional.of(new Model(Solvers.find(), Duration.ofSeconds(options.modelSeconds()),
                        Model.MAX_WORKERS));
            } catch (IOException | RuntimeException | LinkageError e) {
                System.err.println("virtue-sim: the Model is left out, its solver would not start: " + e.getMessage());
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(options.threads());
        try {
            VirtueSim sim = new VirtueSim(System.out, new Experiment(pool, line -> System.err.println("  " + line)),
                    options.seed(), options.placements(), model);
            for (String name : options.scenario().equals("all") ? SCENARIOS : List.of(options.scenario())) {
                sim.print(name);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void usage(PrintStream to) {
        to.println("usage: virtue-sim SCENARIO [--placements N] [--seed S] [--threads T] [--model-seconds S | --no-model]");
        to.println("  SCENARIO: " + String.join(", ", SCENARIOS) + ", or all");
        to.println("  --placements N  random placements per scenario (default: the thesis's, 25 or 50)");
        to.println("  --seed S        the first random placement's seed (default 1); the same seed, the same tables");
        to.println("  --threads T     placements run at once (default: the cores)");
        to.println("  --model-seconds S  the Model's time limit, on 2 workers, at 20 VMs (default " + DEFAULT_MODEL_SECONDS + ")");
        to.println("  --no-model      leave the Model out");
    }



    void print(String name) {
        switch (name) {
            case "table52" -> printTable52();
            case "iterative" -> printIterative();
            default -> printScenario(sized(Scenario.named(name)));
        }
    }

    private Scenario sized(Scenario scenario) {
        return placements > 0 ? scenario.withPlacements(placements) : scenario;
    }

    /** Every algorithm on the scenario's placements. */
    List<Experiment.Summary> compare(Scenario scenario) {
        return summarise(trials(scenario));
    }

    private List<Experiment.Trial> trials(Scenario scenario) {
        List<PlacementAlgorithm> algorithms = new ArrayList<>(Algorithms.all());
        if (scenario.workload().vmCount() <= MODEL_MAX_VMS) {
            model.ifPresent(algorithms::add);
        }
        return experiment.run(scenario, algorithms, seed);
    }

    /** Each algorithm's summary, the algorithms in the order each trial ran them. */
    private static List<Experiment.Summary> summarise(List<Experiment.Trial> trials) {
        List<String> names = trials.isEmpty() ? List.of() : List.copyOf(trials.get(0).optimised().keySet());
        return Experiment.summarise(trials, names);
    }

    private void printScenario(Scenario scenario) {
        List<Experiment.Trial> trials = trials(scenario);
        List<Experiment.Summary> summaries = summarise(trials);
        out.printf(Locale.ROOT, "%n== %s: %s, %d random placements ==%n", scenario.name(), scenario.title(),
                scenario.placements());
        if (scenario.web()) {
            out.printf(Locale.ROOT, "Random placements: Web median %.0f requests/s (%.0f to %.0f), response %.1f ms%n",
                    Experiment.median(Experiment.values(trials, Simulator.Outcome::requestsPerSecond)),
                    min(Experiment.values(trials, Simulator.Outcome::requestsPerSecond)),
                    max(Experiment.values(trials, Simulator.Outcome::requestsPerSecond)),
                    1000 * Experiment.median(Experiment.values(trials, Simulator.Outcome::responseSeconds)));
        }
        if (scenario.hadoop()) {
            out.printf(Locale.ROOT, "Random placements: Hadoop median %.1f s (%.1f to %.1f)%n",
                    Experiment.median(Experiment.values(trials, Simulator.Outcome::hadoopSeconds)),
                    min(Experiment.values(trials, Simulator.Outcome::hadoopSeconds)),
                    max(Experiment.values(trials, Simulator.Outcome::hadoopSeconds)));
        }
        out.println("Thesis: " + scenario.thesisMetric());
        String web = scenario.web() ? "| Web req/s, median change | improved " : "";
        String hadoop = scenario.hadoop() ? "| Hadoop, median speed-up | improved " : "";
        out.printf(Locale.ROOT, "Minimax (SA All's estimate from the random run's measurements) of the random placements: median %.2f%n",
                Experiment.median(trials.stream().map(Experiment.Trial::startMinimax).toList()));
        out.println();
        out.printf(Locale.ROOT, "| %-10s %s%s| predicted Minimax, median | above start | infeasible | thesis |%n",
                "algorithm", web, hadoop);
        out.printf(Locale.ROOT, "|------------%s%s|--------------------------:|------------:|-----------:|--------|%n",
                scenario.web() ? "|------------------------:|---------:" : "",
                scenario.hadoop() ? "|------------------------:|---------:" : "");
        for (Experiment.Summary summary : summaries) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %-10s ", summary.algorithm()));
            int runs = summary.placements() - summary.infeasible();
            if (scenario.web()) {
                row.append(String.format(Locale.ROOT, "| %23s | %8s ", percent(summary.webMedian()),
                        summary.webImproved() + "/" + runs));
            }
            if (scenario.hadoop()) {
                row.append(String.format(Locale.ROOT, "| %23s | %8s ", percent(summary.hadoopMedian()),
                        summary.hadoopImproved() + "/" + runs));
            }
            String thesis = summary.algorithm().equals("random") ? "(another random draw)"
                    : scenario.thesis().getOrDefault(summary.algorithm(), "not given");
            row.append(String.format(Locale.ROOT, "| %25.2f | %11s | %10d | %s |", summary.minimaxMedian(),
                    summary.minimaxAboveStart() + "/" + runs, summary.infeasible(), thesis));
            out.println(row);
        }
        out.flush();
    }

    /** Greedy Fill's median Web gain over Random on the multi-tenant mix, per edge rate and oversubscription. */
    double[][] table52() {
        double[][] gains = new double[EDGE_MBPS.length][OVERSUBSCRIPTION.length];
        for (int e = 0; e < EDGE_MBPS.length; e++) {
            for (int o = 0; o < OVERSUBSCRIPTION.length; o++) {
                gains[e][o] = table52(e, o);
            }
        }
        return gains;
    }

    /** One cell of Table 5.2: edge rate {@code EDGE_MBPS[e]}, oversubscription {@code OVERSUBSCRIPTION[o]}. */
    double table52(int e, int o) {
        double edge = EDGE_MBPS[e] * 1e6;
        double torUplink = 20 * edge / RATIOS[o][0];
        ThreeTierTree tree = new ThreeTierTree(2, 2, 20, edge, torUplink, 2 * torUplink / RATIOS[o][1])
                .parameter(Edf.CPU_COUNT, HW2_CORES).parameter(Edf.CPU_SPEED, HW2_CORE_SPEED);
        Scenario scenario = Scenario.multitenant("table52 " + EDGE_MBPS[e] + " Mb/s " + OVERSUBSCRIPTION[o], "",
                tree, placements > 0 ? placements : 25);
        List<Experiment.Trial> trials = experiment.run(scenario, List.of(new GreedyFill()), seed);
        return summarise(trials).get(0).webMedian();
    }

    private void printTable52() {
        double[][] gains = table52();
        out.printf(Locale.ROOT, "%n== table52: Greedy Fill over Random, multi-tenant Web throughput, median, %d placements a cell ==%n",
                placements > 0 ? placements : 25);
        out.println("(ours, then the thesis's Table 5.2; both with its upgraded PMs, 4 cores at 2.21 GHz; n/a: its testbed could not run it)");
        out.println();
        out.print("| edge      ");
        for (String o : OVERSUBSCRIPTION) {
            out.printf(Locale.ROOT, "| %-18s ", o);
        }
        out.println("|");
        out.println("|-----------|-------------------:|-------------------:|-------------------:|");
        for (int e = 0; e < EDGE_MBPS.length; e++) {
            out.printf(Locale.ROOT, "| %4d Mb/s ", EDGE_MBPS[e]);
            for (int o = 0; o < OVERSUBSCRIPTION.length; o++) {
                String thesis = TABLE_5_2[e][o] == null ? "n/a" : TABLE_5_2[e][o];
                out.printf(Locale.ROOT, "| %18s ", percent(gains[e][o]) + " (" + thesis + ")");
            }
            out.println("|");
        }
        out.flush();
    }

    /** Per round 1 to 4 of {@code algorithm} from a random run's measurements, the median Web gain over that random run. */
    double[] iterative(PlacementAlgorithm algorithm) {
        Scenario scenario = sized(Scenario.web20());
        List<List<Simulator.Outcome>> runs = experiment.iterate(scenario, algorithm, ROUNDS, seed);
        double[] medians = new double[ROUNDS];
        for (int round = 1; round <= ROUNDS; round++) {
            List<Double> ratios = new ArrayList<>();
            for (List<Simulator.Outcome> run : runs) {
                if (run.size() > round) {
                    ratios.add(run.get(round).requestsPerSecond() / run.get(0).requestsPerSecond());
                }
            }
            medians[round - 1] = Experiment.median(ratios);
        }
        return medians;
    }

    private void printIterative() {
        List<PlacementAlgorithm> algorithms = new ArrayList<>(List.of(new SimulatedAnnealing(Energy.ALL)));
        model.ifPresent(algorithms::add);
        List<double[]> medians = algorithms.stream().map(this::iterative).toList();
        out.printf(Locale.ROOT, "%n== iterative: %d rounds, each from the last round's measurements, Web 20 VMs on 40 PMs, %d placements ==%n",
                ROUNDS, placements > 0 ? placements : 50);
        out.println("Thesis (Fig. 5.4): SA All improves every round, +10% median from the 1st to the 4th; the Model +5% from the 1st to the 2nd, then little");
        out.println();
        StringBuilder header = new StringBuilder("| round ");
        StringBuilder rule = new StringBuilder("|------:");
        for (PlacementAlgorithm algorithm : algorithms) {
            header.append(String.format(Locale.ROOT, "| %-10s over Random | over round 1 ", algorithm.name()));
            rule.append("|-----------------------:|-------------:");
        }
        out.println(header + "|");
        out.println(rule + "|");
        for (int round = 0; round < ROUNDS; round++) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %5d ", round + 1));
            for (double[] figures : medians) {
                row.append(String.format(Locale.ROOT, "| %22s | %12s ", percent(figures[round]),
                        percent(figures[round] / figures[0])));
            }
            out.println(row + "|");
        }
        out.flush();
    }

    private static String percent(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%+.1f%%", 100 * (ratio - 1));
    }

    private static double min(double[] values) {
        return java.util.Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(double[] values) {
        return java.util.Arrays.stream(values).max().orElse(Double.NaN);
    }
}
