package io.heliograph.circuit.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a circuit switch goes from one matching to the next when it cannot install a matching
 * atomically (below OpenFlow 1.4, which has no bundles): the flow entries to remove, add and modify,
 * one entry per input port, in phases such that at no moment do two inputs send to the same output.
 *
 * <p>A switch may apply the messages of one phase in any order (OpenFlow orders nothing without a
 * barrier), so a phase holds only steps that are safe in every order, and the executor sends a
 * barrier after each phase and waits for it before the next.
 *
 * <p>Which order is best: an input whose new output is held by an input that is itself moving must
 * wait for that output; inputs that wait on each other in a ring (a cycle: 1 takes 2's output, 2
 * takes 1's) cannot all move while keeping their circuits, and one of each ring must go dark first.
 * This ordering darkens exactly that: one input per ring (none in a chain), which is the fewest any
 * safe order can, and moves every other changing input with one modify as soon as its output is
 * free, so a ring of k inputs takes k + 1 phases and unrelated rings and chains progress together.
 * Inputs whose output does not change are never touched.
 *
 * <p>Matchings are given as {@code outputOf[input]}, -1 for an input without a circuit (a night,
 * or a partial matching); {@link Day#sourceOf()} is the inverse, see {@link #outputsOf(Day)}.
 */
public final class MatchingTransition {

    /** What happens to one input's flow entry. */
    public enum Kind {
        /** The input loses its circuit (its entry is deleted). */
        REMOVE,
        /** The input gets a circuit to {@code output} (a new entry). */
        ADD,
        /** The input's entry now sends to {@code output} instead of {@code previousOutput}, in one flow-mod. */
        MODIFY
    }

    /** One flow-mod: {@code output} and {@code previousOutput} are -1 where there is none. */
    public record Step(Kind kind, int input, int output, int previousOutput) {
        @Override
        public String toString() {
            return switch (kind) {
                case REMOVE -> "remove " + input + "->" + previousOutput;
                case ADD -> "add " + input + "->" + output;
                case MODIFY -> "modify " + input + "->" + output + " (was " + previousOutput + ")";
            };
        }
    }

    private final List<List<Step>> phases;
    private final int darkened;

    private MatchingTransition(List<List<Step>> phases, int darkened) {
        this.phases = phases;
        this.darkened = darkened;
    }

    /**
     * The phases that take a switch from {@code from} to {@code to} (both {@code outputOf[input]}, -1
     * for none, each output used by at most one input).
     *
     * @throws IllegalArgumentException when the two differ in size or either is not a matching
     */
    public static MatchingTransition between(int[] from, int[] to) {
        if (from.length != to.length) {
            throw new IllegalArgumentException("matchings of " + from.length + " and " + to.length + " ports");
        }
        int n = from.length;
        check(from, "from");
        check(to, "to");
        int[] holder = new int[n]; // output -> the input holding it now, or -1
        Arrays.fill(holder, -1);
        int[] state = from.clone();
        for (int i = 0; i < n; i++) {
            if (state[i] >= 0) {
                holder[state[i]] = i;
            }
        }
        List<List<Step>> phases = new ArrayList<>();
        List<Step> first = new ArrayList<>();
        // An input moving to an output held by another moving input waits for it; following the
        // waits from an input ends at a free output (a chain) or comes back (a ring).
        boolean[] pending = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (from[i] != to[i]) {
                if (to[i] < 0) {
                    first.add(new Step(Kind.REMOVE, i, -1, from[i]));
                } else {
                    pending[i] = true;
                }
            }
        }
        boolean[] seen = new boolean[n];
        int darkened = 0;
        for (int i = 0; i < n; i++) {
            if (!pending[i] || seen[i]) {
                continue;
            }
            // Walk the waits from i; a ring is found when the walk returns to i.
            int at = i;
            boolean ring = false;
            while (true) {
                seen[at] = true;
                int next = holder[to[at]];
                if (next < 0 || !pending[next]) {
                    break; // the output is free, or held by an input that leaves it in the first phase
                }
                if (next == i) {
                    ring = true;
                    break;
                }
                if (seen[next]) {
                    break; // joined a walk already done: no ring through i
                }
                at = next;
            }
            if (ring) {
                // The ring's smallest input goes dark, so the order does not depend on where the walk began.
                int dark = i;
                for (int k = holder[to[i]]; k != i; k = holder[to[k]]) {
                    dark = Math.min(dark, k);
                }
                first.add(new Step(Kind.REMOVE, dark, -1, from[dark]));
                darkened++;
            }
        }
        // The first phase: the removals, with the moves to outputs free from the start (any order of
        // them is safe: those outputs are free whatever is applied first).
        first.addAll(ready(pending, holder, state, to));
        List<Step> phase = first;
        while (!phase.isEmpty()) {
            phases.add(List.copyOf(phase));
            for (Step s : phase) {
                // Within a phase a move takes an output free at its start, never one another step frees.
                if (s.previousOutput() >= 0) {
                    holder[s.previousOutput()] = -1;
                }
                state[s.input()] = s.output();
                if (s.kind() != Kind.REMOVE) {
                    pending[s.input()] = false; // a ring's darkened input still waits, for its new output
                }
            }
            for (Step s : phase) {
                if (s.output() >= 0) {
                    holder[s.output()] = s.input();
                }
            }
            // Then whatever waits for an output freed by the phase before moves.
            phase = ready(pending, holder, state, to);
        }
        for (int i = 0; i < n; i++) {
            if (pending[i]) {
                throw new IllegalStateException("no order found from " + Arrays.toString(from) + " to "
                        + Arrays.toString(to) + ": input " + i + " still waits");
            }
        }
        return new MatchingTransition(List.copyOf(phases), darkened);
    }

    /** The moves of the inputs still to move whose new output is free now. */
    private static List<Step> ready(boolean[] pending, int[] holder, int[] state, int[] to) {
        List<Step> moves = new ArrayList<>();
        for (int i = 0; i < pending.length; i++) {
            if (pending[i] && holder[to[i]] < 0) {
                moves.add(new Step(state[i] < 0 ? Kind.ADD : Kind.MODIFY, i, to[i], state[i]));
            }
        }
        return moves;
    }

    private static void check(int[] outputOf, String which) {
        boolean[] used = new boolean[outputOf.length];
        for (int i = 0; i < outputOf.length; i++) {
            int o = outputOf[i];
            if (o < -1 || o >= outputOf.length) {
                throw new IllegalArgumentException(which + ": input " + i + " sends to output " + o + ", not one of the "
                        + outputOf.length + " ports");
            }
            if (o >= 0) {
                if (used[o]) {
                    throw new IllegalArgumentException(which + " is not a matching: two inputs send to output " + o
                            + " " + Arrays.toString(outputOf));
                }
                used[o] = true;
            }
        }
    }

    /** A day's matching as {@code outputOf[input]}: the inverse of its {@code sourceOf[output]}. */
    public static int[] outputsOf(Day day) {
        int[] sourceOf = day.sourceOf();
        int[] outputOf = new int[sourceOf.length];
        for (int j = 0; j < sourceOf.length; j++) {
            outputOf[sourceOf[j]] = j;
        }
        return outputOf;
    }

    /** The steps in order, a barrier due after each phase. */
    public List<List<Step>> phases() {
        return phases;
    }

    /** How many inputs lose their circuit for a while though they have one before and after: one per ring. */
    public int darkened() {
        return darkened;
    }

    /** Every step, phase after phase. */
    public List<Step> steps() {
        return phases.stream().flatMap(List::stream).toList();
    }

    @Override
    public String toString() {
        return phases.toString();
    }
}
