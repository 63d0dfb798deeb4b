package io.heliograph.sims.virtue;

import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.Energy;
import io.heliograph.virtue.engine.Measurements;
import io.heliograph.virtue.engine.PlacementAlgorithm;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.PlacementResult;
import io.heliograph.virtue.engine.RandomPlacement;
import io.heliograph.virtue.engine.Utilisations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The thesis's protocol (spec §4.1): random placements, each run; each algorithm given that run's
 * measurements (the achieved rates, not the demand) and its placement run; each compared with the
 * random placement it started from. Placements run in parallel; the results do not depend on how.
 */
final class Experiment {

    /**
     * One random placement's run, and each algorithm's placement's run (absent: it found none feasible);
     * the Minimax (spec §3.1, SA All's estimate) of the random placement and of each algorithm's
     * placement, predicted from the random run's measurements.
     */
    record Trial(Simulator.Outcome random, Map<String, Simulator.Outcome> optimised, double startMinimax,
                 Map<String, Double> predictedMinimax) {
    }

    /** How an algorithm did over a scenario's placements. */
    record Summary(String algorithm, int placements, int infeasible, double webMedian, int webImproved,
                   double hadoopMedian, int hadoopImproved, double minimaxMedian, int minimaxAboveStart) {
    }

    private final ExecutorService pool;
    private final Consumer<String> progress;

    Experiment(ExecutorService pool, Consumer<String> progress) {
        this.pool = pool;
        this.progress = progress;
    }

    /** Runs {@code scenario}'s placements, the i-th random placement drawn with seed {@code seed + i}. */
    List<Trial> run(Scenario scenario, List<PlacementAlgorithm> algorithms, long seed) {
        List<Future<Trial>> trials = new ArrayList<>();
        for (int i = 0; i < scenario.placements(); i++) {
            long placementSeed = seed + i;
            trials.add(pool.submit(() -> trial(scenario, algorithms, placementSeed)));
        }
        return collect(trials, scenario.name());
    }

    /**
     * Optimises each random placement {@code rounds} times in a row, each round from the measurements of
     * the placement the last one made (Fig. 5.4); per placement, the run of each round.
     */
    List<List<Simulator.Outcome>> iterate(Scenario scenario, PlacementAlgorithm algorithm, int rounds, long seed) {
        List<Future<List<Simulator.Outcome>>> runs = new ArrayList<>();
        for (int i = 0; i < scenario.placements(); i++) {
            long placementSeed = seed + i;
            runs.add(pool.submit(() -> {
                Start start = start(scenario, placementSeed);
                List<Simulator.Outcome> outcomes = new ArrayList<>(List.of(start.outcome));
                Edf edf = start.edf;
                Simulator.Outcome last = start.outcome;
                for (int round = 1; round <= rounds; round++) {
                    PlacementProblem problem = PlacementProblem.of(edf, last.measured());
                    PlacementResult result = algorithm.place(problem, placementSeed * 31 + round);
                    if (!result.feasible()) {
                        break;
                    }
                    last = start.simulator.run(result.placement().orElseThrow().asMap());
                    edf = problem.edfOf(result.placement().orElseThrow(), Map.of());
                    outcomes.add(last);
                }
                return outcomes;
            }));
        }
        return collect(runs, scenario.name() + ", iterated");
    }

    private record Start(Edf edf, Simulator simulator, Simulator.Outcome outcome) {
    }

    private static Start start(Scenario scenario, long seed) {
        int[] pmOf = RandomPlacement.assignment(scenario.workload().vmCount(), scenario.tree().pmCount(),
                4, seed);
        Edf edf = scenario.tree().edf(pmOf, List.of());
        PlacementProblem network = PlacementProblem.of(edf, Measurements.builder().build());
        Simulator simulator = new Simulator(scenario.workload(), network);
        return new Start(edf, simulator, simulator.run(network.start().asMap()));
    }

    private static Trial trial(Scenario scenario, List<PlacementAlgorithm> algorithms, long seed) {
        Start start = start(scenario, seed);
        PlacementProblem measured = PlacementProblem.of(start.edf, start.outcome.measured());
        Map<String, Simulator.Outcome> optimised = new LinkedHashMap<>();
        Map<String, Double> minimax = new LinkedHashMap<>();
        for (int a = 0; a < algorithms.size(); a++) {
            PlacementAlgorithm algorithm = algorithms.get(a);
            PlacementResult result = algorithm.place(measured, seed * 31 + a);
            optimised.put(algorithm.name(), result.placement()
                    .map(placement -> start.simulator.run(placement.asMap())).orElse(null));
            result.placement().ifPresent(placement -> minimax.put(algorithm.name(),
                    Utilisations.estimate(placement, measured, Energy.ALL).minimax()));
        }
        return new Trial(start.outcome, optimised,
                Utilisations.estimate(measured.start(), measured, Energy.ALL).minimax(), minimax);
    }

    private <T> List<T> collect(List<Future<T>> futures, String what) {
        List<T> done = new ArrayList<>();
        for (Future<T> future : futures) {
            try {
                done.add(future.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(what + ": " + e.getCause().getMessage(), e.getCause());
            }
            progress.accept(what + ": " + done.size() + "/" + futures.size() + " placements");
        }
        return done;
    }

    /** Each algorithm's medians over the trials: Web throughput after/before, Hadoop time before/after. */
    static List<Summary> summarise(List<Trial> trials, List<String> algorithms) {
        List<Summary> summaries = new ArrayList<>();
        for (String algorithm : algorithms) {
            List<Double> web = new ArrayList<>();
            List<Double> hadoop = new ArrayList<>();
            List<Double> minimax = new ArrayList<>();
            int infeasible = 0;
            int aboveStart = 0;
            for (Trial trial : trials) {
                Simulator.Outcome after = trial.optimised().get(algorithm);
                if (after == null) {
                    infeasible++;
                    continue;
                }
                if (trial.random().requestsPerSecond() > 0) {
                    web.add(after.requestsPerSecond() / trial.random().requestsPerSecond());
                }
                if (!Double.isNaN(trial.random().hadoopSeconds())) {
                    hadoop.add(trial.random().hadoopSeconds() / after.hadoopSeconds());
                }
                double predicted = trial.predictedMinimax().get(algorithm);
                minimax.add(predicted);
                aboveStart += predicted > trial.startMinimax() * 1.001 ? 1 : 0;
            }
            summaries.add(new Summary(algorithm, trials.size(), infeasible, median(web), improved(web),
                    median(hadoop), improved(hadoop), median(minimax), aboveStart));
        }
        return summaries;
    }

    /** The median, NaN for none. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** How many ratios are improvements (more than 0.1% better). */
    private static int improved(List<Double> ratios) {
        return (int) ratios.stream().filter(ratio -> ratio > 1.001).count();
    }

    static double[] values(List<Trial> trials, java.util.function.ToDoubleFunction<Simulator.Outcome> metric) {
        return trials.stream().mapToDouble(trial -> metric.applyAsDouble(trial.random())).toArray();
    }

    static double median(double[] values) {
        return median(Arrays.stream(values).boxed().toList());
    }
}
