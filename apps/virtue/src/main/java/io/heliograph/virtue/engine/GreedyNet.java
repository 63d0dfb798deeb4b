package io.heliograph.virtue.engine;

import java.util.concurrent.Executor;

import io.heliograph.virtue.engine.PmRanges.Candidate;

/**
 * Greedy Net (Algorithm 5, spec §3.7, L976-1011): from the current placement, find the most utilised
 * link; rank the VMs whose flows cross it by the rate they put on it; move the first of them for which
 * some PM lowers the maximum link utilisation, to the PM that lowers it most (the first from the left
 * among equals); repeat until no single move lowers it. It uses the traffic matrix and the topology but
 * no CPU figures (Table 4.1), so only the slot limit binds it, and it tends to pack communicating VMs.
 * Every accepted move strictly lowers the maximum, so it ends.
 *
 * <p>A candidate move is evaluated as the VM taken off its PM and placed on the other (placing only adds
 * load, so the new maximum is the larger of the old one and the figures the VM touches, with a rack's
 * shared figures summed once, {@link LoadState#bestIfPlaced}): the same figures as moving it there and
 * back, so the same result, without updating the loads for every PM tried.
 */
public final class GreedyNet implements PlacementAlgorithm {

    private final PmRanges ranges;

    /** Greedy Net on the calling thread. */
    public GreedyNet() {
        this(Runnable::run, 1);
    }

    /**
     * Greedy Net evaluating each candidate VM's PMs in {@code parts} ranges at once on {@code executor}
     * (the thesis's parallel version, L1209). The result is the
     * same as on one thread: the lowest utilisation wins, and among equals the PM furthest left.
     */
    public GreedyNet(Executor executor, int parts) {
        this.ranges = new PmRanges(executor, parts);
    }

    @Override
    public String name() {
        return "greedyNet";
    }

    @Override
    public Energy energy() {
        return Energy.NETWORK;
    }

    @Override
    public PlacementResult place(PlacementProblem problem, long seed) {
        return place(problem, seed, Progress.NONE);
    }

    /**
     * How many rounds it takes is not known until no move helps, so progress stays at 0 until the end;
     * each round reports it, which lets a caller stop the run between rounds.
     */
    @Override
    public PlacementResult place(PlacementProblem problem, long seed, Progress progress) {
        int n = problem.vmCount();
        int m = problem.pmCount();
        LoadState state = new LoadState(problem, Energy.NETWORK, problem.start);
        LoadState.Scratch[] scratch = new LoadState.Scratch[ranges.count(m)];
        for (int i = 0; i < scratch.length; i++) {
            scratch[i] = new LoadState.Scratch(problem);
        }
        long[] candidateRate = new long[n];
        FlowsOnLink onLink = new FlowsOnLink(problem);
        boolean moved;
        do {
            progress.reached(0);
            moved = false;
            int hottest = state.hottest();
            if (!state.isLink(hottest)) {
                break; // no links at all
            }
            int link = state.linkOf(hottest);
            double curUtil = state.energy();
            onLink.rates(link, state.assignment(), candidateRate);
            // in order of rate on the link, the lowest index first among equals; seldom more than a few are tried
            Candidates candidates = new Candidates(candidateRate);
            double minUtil = curUtil;
            while (!candidates.isEmpty()) {
                int vm = candidates.next();
                double bound = minUtil;
                int origin = state.pmOf(vm);
                // the maximum after moving vm to a PM is the maximum with vm off its PM and then placed there
                state.unplace(vm);
                Candidate best = ranges.best(m, new Candidate(-1, bound),
                        (range, from, to) -> state.bestIfPlaced(vm, from, to, bound, origin, scratch[range]));
                state.place(vm, origin);
                minUtil = best.util();
                if (minUtil < curUtil) {
                    state.move(vm, best.pm());
                    moved = true;
                    break; // find the hottest link again
                }
            }
        } while (moved);
        progress.reached(1);
        return PlacementResult.placed(this, problem, state.assignment());
    }

    /**
     * The VMs with a rate on the hottest link, taken highest rate first and the lowest index first among
     * equals: a binary heap, since a round usually ends after a few of thousands.
     */
    private static final class Candidates {

        private final long[] rate;
        private final int[] heap;
        private int size;

        Candidates(long[] rate) {
            this.rate = rate;
            heap = new int[rate.length];
            for (int v = 0; v < rate.length; v++) {
                if (rate[v] > 0) {
                    heap[size++] = v;
                }
            }
            for (int i = size / 2 - 1; i >= 0; i--) {
                down(i);
            }
        }

        boolean isEmpty() {
            return size == 0;
        }

        int next() {
            int first = heap[0];
            heap[0] = heap[--size];
            down(0);
            return first;
        }

        private boolean before(int a, int b) {
            return rate[a] > rate[b] || rate[a] == rate[b] && a < b;
        }

        private void down(int i) {
            while (true) {
                int best = i;
                int left = 2 * i + 1;
                if (left < size && before(heap[left], heap[best])) {
                    best = left;
                }
                if (left + 1 < size && before(heap[left + 1], heap[best])) {
                    best = left + 1;
                }
                if (best == i) {
                    return;
                }
                int swap = heap[i];
                heap[i] = heap[best];
                heap[best] = swap;
                i = best;
            }
        }
    }
}
