package io.heliograph.virtue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

/** The parallel forms give the placements of their one-thread forms, whatever runs them. */
class ParallelPlacementTest {

    @Test
    void theBestOfSeveralChainsIsTheSameOnOneThreadOrMany() throws Exception {
        PlacementProblem problem = LoadStateTest.randomProblem(10, 40, 5, 21);
        SimulatedAnnealing saAll = new SimulatedAnnealing(Energy.ALL, 1000);
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            PlacementResult parallel = new ParallelAnnealing(saAll, 4, two).place(problem, 9);
            PlacementResult serial = new ParallelAnnealing(saAll, 4, Runnable::run).place(problem, 9);
            assertEquals(serial.placement(), parallel.placement());
            // the best of four chains is at least as good as each of them alone
            double best = parallel.predicted().orElseThrow().energy();
            for (long chainSeed : ParallelAnnealing.seeds(9, 4)) {
                double alone = saAll.place(problem, chainSeed).predicted().orElseThrow().energy();
                assertTrue(best <= alone, best + " > " + alone);
            }
        } finally {
            two.shutdownNow();
        }
    }

    @Test
    void theGreedyAlgorithmsPlaceTheSameWithTheirCandidatesEvaluatedInParallel() {
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (long seed = 1; seed <= 3; seed++) {
                PlacementProblem problem = LoadStateTest.randomProblem(10, 40, 5, seed);
                assertEquals(new GreedyFill().place(problem, 0).placement(),
                        new GreedyFill(two, 3).place(problem, 0).placement());
                assertEquals(new GreedyNet().place(problem, 0).placement(),
                        new GreedyNet(two, 3).place(problem, 0).placement());
            }
        } finally {
            two.shutdownNow();
        }
    }
}
