package io.heliograph.virtue.engine;

import java.util.SplittableRandom;

/**
 * The thesis's simulated annealing (spec §3.6, L935-974, Algorithm 4), in its four variants by energy:
 * SA C ({@link Energy#CPU}), SA CN ({@link Energy#CPU_NIC}), SA CNTM ({@link Energy#CPU_NIC_TRAFFIC})
 * and SA All ({@link Energy#ALL}).
 *
 * <p>It starts from the EDF's placement. The temperature T is the number of iterations (1000 for the
 * thesis's small experiments, 5000 for its large ones); each iteration proposes, with equal chance, a
 * swap of two VMs on different PMs or a move of one VM to another PM with a free slot (each falls back
 * to the other when impossible), and takes it with probability 1 when its energy e' is below the
 * current e, else exp(-4.6 (e'/e)^2 (T - t)/T). It returns the best placement seen that keeps every PM
 * within CPU capacity, so it never ends worse than a start that is within capacity; if it never sees
 * such a placement, the request is infeasible.
 */
public final class SimulatedAnnealing implements PlacementAlgorithm {

    /** The thesis's temperature for its 20-VM experiments. */
    public static final int SMALL_TEMPERATURE = 1000;
    /** The thesis's temperature for its 120-VM experiments. */
    public static final int LARGE_TEMPERATURE = 5000;
    /** Tries at drawing a swap of VMs on different PMs, or a move to a PM with room, before falling back. */
    private static final int DRAWS = 8;

    private final Energy energy;
    private final int temperature;

    /**
     * A variant with a fixed temperature, or with {@code temperature} 0 the thesis's choice by size:
     * {@link #SMALL_TEMPERATURE} up to 20 VMs, else {@link #LARGE_TEMPERATURE}.
     */
    public SimulatedAnnealing(Energy energy, int temperature) {
        if (!energy.usesCpu()) {
            throw new IllegalArgumentException("the thesis's SA variants all use CPU; not " + energy);
        }
        if (temperature < 0) {
            throw new IllegalArgumentException("temperature must be 0 (by size) or positive, not " + temperature);
        }
        this.energy = energy;
        this.temperature = temperature;
    }

    public SimulatedAnnealing(Energy energy) {
        this(energy, 0);
    }

    @Override
    public String name() {
        return switch (energy) {
            case CPU -> "saC";
            case CPU_NIC -> "saCN";
            case CPU_NIC_TRAFFIC -> "saCNTM";
            default -> "saAll";
        };
    }

    @Override
    public Energy energy() {
        return energy;
    }

    /** The temperature used for a problem. */
    public int temperature(PlacementProblem problem) {
        return temperature > 0 ? temperature : problem.vmCount() <= 20 ? SMALL_TEMPERATURE : LARGE_TEMPERATURE;
    }

    @Override
    public PlacementResult place(PlacementProblem problem, long seed) {
        return place(problem, seed, Progress.NONE);
    }

    @Override
    public PlacementResult place(PlacementProblem problem, long seed, Progress progress) {
        Chain chain = run(problem, seed, progress);
        progress.reached(1);
        if (chain.best == null) {
            return PlacementResult.infeasible(this, "no placement seen keeps every PM within its CPU capacity "
                    + "(the start does not)");
        }
        return PlacementResult.placed(this, problem, chain.best);
    }

    /** One annealing chain: the best placement within CPU capacity it saw (null if none) and its energy. */
    record Chain(int[] best, double bestEnergy) {
    }

    Chain run(PlacementProblem problem, long seed, Progress progress) {
        SplittableRandom random = new SplittableRandom(seed);
        LoadState state = new LoadState(problem, energy, problem.start);
        int n = problem.vmCount();
        int m = problem.pmCount();
        int total = temperature(problem);
        double e = state.energy();
        int[] best = state.withinCpu() ? state.assignment() : null;
        double bestEnergy = best != null ? e : Double.POSITIVE_INFINITY;
        if (n == 0 || m < 2) {
            return new Chain(best, bestEnergy);
        }
        int report = Math.max(1, total / 100);
        for (int t = total; t > 0; t--) {
            if ((total - t) % report == 0) {
                progress.reached((double) (total - t) / total);
            }
            boolean swap = random.nextBoolean();
            long pair = swap ? drawSwap(state, random, n) : -1;
            int a;
            int b;
            int from = -1;
            if (pair < 0) {
                a = random.nextInt(n);
                from = state.pmOf(a);
                b = drawTarget(state, random, problem, a, m);
                if (b < 0 && !swap) {
                    pair = drawSwap(state, random, n);
                }
                swap = b < 0;
                if (swap && pair < 0) {
                    continue; // neither a swap nor a move found: nothing proposed this step
                }
            } else {
                a = -1;
                b = -1;
            }
            if (swap) {
                a = (int) (pair >>> 32);
                b = (int) pair;
                state.swap(a, b);
            } else {
                state.move(a, b);
            }
            double next = state.energy();
            if (accept(e, next, t, total, random)) {
                e = next;
                if (e < bestEnergy && state.withinCpu()) {
                    bestEnergy = e;
                    best = state.assignment();
                }
            } else if (swap) {
                state.swap(a, b);
            } else {
                state.move(a, from);
            }
        }
        return new Chain(best, bestEnergy);
    }

    /** Two VMs on different PMs, packed (first << 32 | second), or -1 when the draws found none. */
    private static long drawSwap(LoadState state, SplittableRandom random, int n) {
        for (int i = 0; i < DRAWS; i++) {
            int a = random.nextInt(n);
            int b = random.nextInt(n);
            if (state.pmOf(a) != state.pmOf(b)) {
                return (long) a << 32 | b;
            }
        }
        return -1;
    }

    private static int drawTarget(LoadState state, SplittableRandom random, PlacementProblem problem, int vm, int m) {
        int from = state.pmOf(vm);
        for (int i = 0; i < DRAWS; i++) {
            int p = random.nextInt(m - 1);
            p = p >= from ? p + 1 : p; // any PM but its own
            if (state.vmsOn(p) < problem.maxVmsPerPm()) {
                return p;
            }
        }
        return -1;
    }

    /** Algorithm 4's acceptance, drawn: always downhill; uphill or level with exp(-4.6 (e'/e)^2 (T-t)/T). */
    static boolean accept(double e, double next, int t, int total, SplittableRandom random) {
        if (next < e) {
            return true;
        }
        return random.nextDouble() < probability(e, next, t, total);
    }

    /** Algorithm 4: P(e, e', t, T), with e = 0 guarded (any e' is then as good or worse: ratio 1 or infinite). */
    static double probability(double e, double next, int t, int total) {
        if (next < e) {
            return 1.0;
        }
        double progress = (double) (total - t) / total;
        if (progress == 0) {
            return 1.0;
        }
        double ratio = e > 0 ? next / e : next == 0 ? 1 : Double.POSITIVE_INFINITY;
        return Math.exp(-4.6 * ratio * ratio * progress);
    }
}
