package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.heliograph.circuit.engine.MatchingTransition.Kind;
import io.heliograph.circuit.engine.MatchingTransition.Step;

/**
 * Every transition between every pair of matchings of 4 and 5 ports, simulated: a switch may apply
 * a phase's flow-mods in any order, so every subset of each phase is applied to the state before
 * it, and no such state may have two inputs on one output.
 */
class MatchingTransitionTest {

    @Test
    void everyPairOfPermutationsOfFourAndFivePortsIsSafeInEveryOrderAndDarkensOneInputPerRing() {
        for (int n : new int[] {4, 5}) {
            List<int[]> perms = permutations(n);
            int pairs = 0;
            for (int[] a : perms) {
                for (int[] b : perms) {
                    MatchingTransition t = MatchingTransition.between(a, b);
                    simulate(a, b, t);
                    assertEquals(rings(a, b), t.darkened(), () -> "darkened " + Arrays.toString(a) + " -> "
                            + Arrays.toString(b) + ": " + t);
                    pairs++;
                }
            }
            assertEquals(perms.size() * perms.size(), pairs);
        }
    }

    @Test
    void everyPairOfPartialMatchingsOfFourPortsIsSafeInEveryOrder() {
        List<int[]> partial = partialMatchings(4);
        assertEquals(209, partial.size()); // sum over k of C(4,k)^2 k!
        for (int[] a : partial) {
            for (int[] b : partial) {
                simulate(a, b, MatchingTransition.between(a, b));
            }
        }
    }

    @Test
    void aSwapDarkensOneInputForThreePhasesAndLeavesTheRestAlone() {
        MatchingTransition t = MatchingTransition.between(new int[] {0, 1, 2}, new int[] {1, 0, 2});
        assertEquals(List.of(
                List.of(new Step(Kind.REMOVE, 0, -1, 0)),
                List.of(new Step(Kind.MODIFY, 1, 0, 1)),
                List.of(new Step(Kind.ADD, 0, 1, -1))), t.phases());
        assertEquals(1, t.darkened());
        // A night, then a day: one phase of adds; the day withdrawn: one phase of removals.
        assertEquals(1, MatchingTransition.between(new int[] {-1, -1, -1}, new int[] {2, 0, 1}).phases().size());
        assertEquals(1, MatchingTransition.between(new int[] {2, 0, 1}, new int[] {-1, -1, -1}).phases().size());
        assertTrue(MatchingTransition.between(new int[] {2, 0, 1}, new int[] {2, 0, 1}).phases().isEmpty());
    }

    @Test
    void aDaysMatchingIsTheInverseOfItsSources() {
        Day day = new Day(100, new int[] {2, 0, 1}, new boolean[3]); // output 0 takes from input 2...
        assertArrayEquals(new int[] {1, 2, 0}, MatchingTransition.outputsOf(day));
    }

    @Test
    void whatIsNotAMatchingIsRefused() {
        IllegalArgumentException shared = assertThrows(IllegalArgumentException.class,
                () -> MatchingTransition.between(new int[] {0, 1}, new int[] {1, 1}));
        assertTrue(shared.getMessage().contains("two inputs send to output 1"), shared.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MatchingTransition.between(new int[] {0, 1}, new int[] {0}));
        assertThrows(IllegalArgumentException.class, () -> MatchingTransition.between(new int[] {0, 2}, new int[] {0, 1}));
    }

    /** Applies the transition phase by phase, checking every order a switch may choose within a phase. */
    private static void simulate(int[] from, int[] to, MatchingTransition t) {
        String what = Arrays.toString(from) + " -> " + Arrays.toString(to) + ": " + t;
        int[] state = from.clone();
        int changed = 0;
        for (int i = 0; i < from.length; i++) {
            if (from[i] != to[i]) {
                changed++;
            }
        }
        Set<Integer> touched = new HashSet<>();
        for (List<Step> phase : t.phases()) {
            Set<Integer> inputs = new HashSet<>();
            for (Step s : phase) {
                if (!inputs.add(s.input())) {
                    fail("input " + s.input() + " twice in one phase: " + what);
                }
                touched.add(s.input());
                assertEquals(state[s.input()], s.previousOutput(), () -> s + " does not start from the state: " + what);
                switch (s.kind()) {
                    case REMOVE -> assertTrue(s.output() == -1 && s.previousOutput() >= 0, what);
                    case ADD -> assertTrue(s.output() >= 0 && s.previousOutput() == -1, what);
                    case MODIFY -> assertTrue(s.output() >= 0 && s.previousOutput() >= 0, what);
                }
            }
            for (int subset = 0; subset < 1 << phase.size(); subset++) {
                int[] between = state.clone();
                for (int k = 0; k < phase.size(); k++) {
                    if ((subset & 1 << k) != 0) {
                        between[phase.get(k).input()] = phase.get(k).output();
                    }
                }
                assertMatching(between, what);
            }
            for (Step s : phase) {
                state[s.input()] = s.output();
            }
        }
        assertArrayEquals(to, state, what);
        for (int i : touched) {
            assertTrue(from[i] != to[i], () -> "input " + i + " does not change, yet is touched: " + what);
        }
        assertEquals(changed + t.darkened(), t.steps().size(), () -> "one step per changing input, two per darkened: "
                + what);
    }

    private static void assertMatching(int[] outputOf, String what) {
        boolean[] used = new boolean[outputOf.length];
        for (int o : outputOf) {
            if (o >= 0) {
                if (used[o]) {
                    fail("two inputs on output " + o + " in " + Arrays.toString(outputOf) + " during " + what);
                }
                used[o] = true;
            }
        }
    }

    /**
     * Rings among the changing inputs of two permutations: i waits for the input holding its new
     * output, k = from^-1(to(i)); each cycle of that map longer than one needs one input darkened.
     */
    private static int rings(int[] from, int[] to) {
        int n = from.length;
        int[] inverse = new int[n];
        for (int i = 0; i < n; i++) {
            inverse[from[i]] = i;
        }
        boolean[] seen = new boolean[n];
        int rings = 0;
        for (int i = 0; i < n; i++) {
            if (seen[i] || from[i] == to[i]) {
                continue;
            }
            for (int k = i; !seen[k]; k = inverse[to[k]]) {
                seen[k] = true;
            }
            rings++;
        }
        return rings;
    }

    private static List<int[]> permutations(int n) {
        List<int[]> out = new ArrayList<>();
        permute(new int[n], new boolean[n], 0, out);
        return out;
    }

    private static void permute(int[] prefix, boolean[] used, int at, List<int[]> out) {
        if (at == prefix.length) {
            out.add(prefix.clone());
            return;
        }
        for (int o = 0; o < prefix.length; o++) {
            if (!used[o]) {
                used[o] = true;
                prefix[at] = o;
                permute(prefix, used, at + 1, out);
                used[o] = false;
            }
        }
    }

    /** Every matching of n inputs to n outputs, an input with no output as -1. */
    private static List<int[]> partialMatchings(int n) {
        List<int[]> out = new ArrayList<>();
        partial(new int[n], new boolean[n], 0, out);
        return out;
    }

    private static void partial(int[] prefix, boolean[] used, int at, List<int[]> out) {
        if (at == prefix.length) {
            out.add(prefix.clone());
            return;
        }
        prefix[at] = -1;
        partial(prefix, used, at + 1, out);
        for (int o = 0; o < prefix.length; o++) {
            if (!used[o]) {
                used[o] = true;
                prefix[at] = o;
                partial(prefix, used, at + 1, out);
                used[o] = false;
            }
        }
    }
}
