package io.heliograph.virtue.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Several independent chains of one SA variant with different seeds, keeping the best (spec §3.6,
 * L1209: SA has no straightforward parallelism, so the thesis suggests independent instances). The
 * chains' seeds come from the given seed, and the best is chosen by energy and then by chain number, so
 * the result is the same whatever the executor and however its threads interleave.
 */
public final class ParallelAnnealing implements PlacementAlgorithm {

    private final SimulatedAnnealing chain;
    private final int chains;
    private final Executor executor;

    /** {@code chains} chains of {@code annealing}, run on {@code executor} (the caller's threads). */
    public ParallelAnnealing(SimulatedAnnealing annealing, int chains, Executor executor) {
        if (chains < 1) {
            throw new IllegalArgumentException("at least one chain, not " + chains);
        }
        this.chain = annealing;
        this.chains = chains;
        this.executor = executor;
    }

    @Override
    public String name() {
        return chain.name();
    }

    @Override
    public Energy energy() {
        return chain.energy();
    }

    public int chains() {
        return chains;
    }

    /** The seed of each chain, drawn from the request's seed. */
    static long[] seeds(long seed, int chains) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] seeds = new long[chains];
        for (int i = 0; i < chains; i++) {
            seeds[i] = random.nextLong();
        }
        return seeds;
    }

    @Override
    public PlacementResult place(PlacementProblem problem, long seed) {
        return place(problem, seed, Progress.NONE);
    }

    /** Progress is the chains' mean. */
    @Override
    public PlacementResult place(PlacementProblem problem, long seed, Progress progress) {
        List<CompletableFuture<SimulatedAnnealing.Chain>> runs = new ArrayList<>();
        double[] fractions = new double[chains];
        long[] seeds = seeds(seed, chains);
        for (int i = 0; i < chains; i++) {
            int slot = i;
            Progress chainProgress = fraction -> {
                double mean;
                synchronized (fractions) {
                    fractions[slot] = fraction;
                    mean = java.util.Arrays.stream(fractions).average().orElse(1);
                }
                progress.reached(mean);
            };
            runs.add(CompletableFuture.supplyAsync(() -> chain.run(problem, seeds[slot], chainProgress), executor));
        }
        SimulatedAnnealing.Chain best = null;
        for (CompletableFuture<SimulatedAnnealing.Chain> run : runs) {
            SimulatedAnnealing.Chain result = join(run);
            if (result.best() != null && (best == null || result.bestEnergy() < best.bestEnergy())) {
                best = result;
            }
        }
        if (best == null) {
            return PlacementResult.infeasible(this, "no chain saw a placement that keeps every PM within its "
                    + "CPU capacity (the start does not)");
        }
        progress.reached(1);
        return PlacementResult.placed(this, problem, best.best());
    }

    /** A chain's end; a chain that failed (or was cancelled through its progress) fails the run with its own exception. */
    private static SimulatedAnnealing.Chain join(CompletableFuture<SimulatedAnnealing.Chain> run) {
        try {
            return run.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    @Override
    public String toString() {
        return chain.name() + " x" + chains;
    }
}
