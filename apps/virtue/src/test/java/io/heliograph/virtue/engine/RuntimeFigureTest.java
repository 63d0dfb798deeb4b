package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A first runtime figure at the thesis's large scale, printed, not asserted (performance is measured,
 * not timed in tests): each algorithm on 120 VMs over 80 PMs of the 16:1 three-tier tree, on a Web-like
 * traffic matrix (36 clients each on one of 36 Web VMs, every Web VM to every one of 48 Memcached VMs).
 * The thesis took 37-39 s (SA C, CN, CNTM) and 103-119 s (SA All, Greedy Net, Greedy Fill) on one
 * thread (L1207). The runtime figures are the JMH benchmark's (benchmarks/, VirtueBenchmark); this also
 * prints what each algorithm reaches (energy, minimax) on the same instances. It takes seconds, so
 * it runs only when asked, with {@code -Dvirtue.runtime=true}.
 */
class RuntimeFigureTest {

    @Test
    @EnabledIfSystemProperty(named = "virtue.runtime", matches = "true")
    void printsEachAlgorithmsRuntimeAt120VmsOn80Pms() {
        PlacementProblem problem = WebWorkload.web120(1);
        double start = Utilisations.estimate(problem.start(), problem, Energy.ALL).minimax();
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                "Virtue engine, 120 VMs on 80 PMs (16:1 tree), %d flows, one thread unless said; start minimax %.3f%n"
                        + "%-26s %10s %10s %10s%n", problem.flowCount(), start, "algorithm", "median ms", "energy",
                "minimax"));
        ExecutorService two = Executors.newFixedThreadPool(2);
        Map<String, PlacementAlgorithm> algorithms = new LinkedHashMap<>();
        for (PlacementAlgorithm algorithm : Algorithms.all()) {
            algorithms.put(algorithm.name(), algorithm);
        }
        algorithms.put("greedyFill, 2 threads", new GreedyFill(two, 2));
        algorithms.put("greedyNet, 2 threads", new GreedyNet(two, 2));
        algorithms.put("saAll, 2 chains, 2 threads", new ParallelAnnealing(new SimulatedAnnealing(Energy.ALL), 2, two));
        for (Map.Entry<String, PlacementAlgorithm> entry : algorithms.entrySet()) {
            PlacementAlgorithm algorithm = entry.getValue();
            long[] nanos = new long[3];
            PlacementResult result = null;
            for (int run = 0; run < nanos.length; run++) {
                long began = System.nanoTime();
                result = algorithm.place(problem, run + 1);
                nanos[run] = System.nanoTime() - began;
            }
            Arrays.sort(nanos);
            assertTrue(result.feasible(), result.toString());
            Utilisations predicted = result.predicted().orElseThrow();
            table.append(String.format(Locale.ROOT, "%-26s %10.1f %10.3f %10.3f%n", entry.getKey(),
                    nanos[1] / 1e6, predicted.energy(), predicted.minimax()));
        }
        two.shutdownNow();
        System.out.print(table);
    }

    @Test
    @EnabledIfSystemProperty(named = "virtue.runtime", matches = "true")
    void printsRuntimeAt1000VmsOn500Pms() {
        PlacementProblem problem = WebWorkload.web1000(1);
        double start = Utilisations.estimate(problem.start(), problem, Energy.ALL).minimax();
        ExecutorService two = Executors.newFixedThreadPool(2);
        Map<String, PlacementAlgorithm> algorithms = new LinkedHashMap<>();
        algorithms.put("random", new RandomPlacement());
        algorithms.put("saAll (T 5000)", new SimulatedAnnealing(Energy.ALL));
        algorithms.put("saAll, 2 chains, 2 threads", new ParallelAnnealing(new SimulatedAnnealing(Energy.ALL), 2, two));
        algorithms.put("greedyFill", new GreedyFill());
        algorithms.put("greedyFill, 2 threads", new GreedyFill(two, 2));
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                "Virtue engine, 1000 VMs on 500 PMs, %d flows, one run each; start minimax %.3f%n"
                        + "%-26s %10s %10s%n", problem.flowCount(), start, "algorithm", "ms", "minimax"));
        for (Map.Entry<String, PlacementAlgorithm> entry : algorithms.entrySet()) {
            long began = System.nanoTime();
            PlacementResult result = entry.getValue().place(problem, 1);
            long nanos = System.nanoTime() - began;
            assertTrue(result.feasible(), result.toString());
            table.append(String.format(Locale.ROOT, "%-26s %10.1f %10.3f%n", entry.getKey(), nanos / 1e6,
                    result.predicted().orElseThrow().minimax()));
        }
        two.shutdownNow();
        System.out.print(table);
    }
}
