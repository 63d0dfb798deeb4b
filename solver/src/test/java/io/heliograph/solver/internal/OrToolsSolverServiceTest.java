package io.heliograph.solver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.solver.CpModel;
import io.heliograph.solver.IntExpression;
import io.heliograph.solver.IntVar;
import io.heliograph.solver.LinearExpression;
import io.heliograph.solver.LinearModel;
import io.heliograph.solver.Solution;
import io.heliograph.solver.SolveOptions;
import io.heliograph.solver.SolveStatus;
import io.heliograph.solver.Variable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Small models with known answers, solved by OR-Tools through the service, natives loaded in this JVM. */
class OrToolsSolverServiceTest {

    private static final double EPSILON = 1e-6;
    private static final SolveOptions QUICK = SolveOptions.of(Duration.ofSeconds(10));

    private static OrToolsSolverService solver;

    @BeforeAll
    static void loadNatives() throws IOException {
        TestNatives.load();
        assertEquals(0, NativeLibraries.load(TestNatives.jar()), "the natives were loaded a second time");
        solver = new OrToolsSolverService();
    }

    @Test
    void versionIsTheEmbeddedOrTools() {
        assertEquals("9.12.4544", solver.version());
    }

    @Test
    void mipsSolvedOneAfterAnotherWithTwoWorkersAskedDoNotCrashTheJvm() {
        // SCIP asked for two threads crashed the JVM (SIGSEGV in MPSolver.solve) by the third solve
        for (int round = 0; round < 12; round++) {
            LinearModel model = new LinearModel("round" + round);
            Variable x = model.binary("x");
            Variable y = model.binary("y");
            model.atMost("one", new LinearExpression().plus(1, x).plus(1, y), 1);
            model.maximize(new LinearExpression().plus(2, x).plus(3 + round, y));
            Solution solution = solver.solve(model, new SolveOptions(Duration.ofSeconds(5), 2));
            assertEquals(3 + round, solution.objective(), EPSILON);
        }
    }

    @Test
    void knapsackMipFindsTheKnownOptimum() {
        // values 1, 6, 18, 22, 28 and weights 1, 2, 5, 6, 7 in 11: the items of weight 5 and 6, value 40
        long[] values = {1, 6, 18, 22, 28};
        long[] weights = {1, 2, 5, 6, 7};
        LinearModel model = new LinearModel("knapsack");
        LinearExpression weight = new LinearExpression();
        LinearExpression value = new LinearExpression();
        List<Variable> take = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            Variable x = model.binary("take" + i);
            take.add(x);
            weight.plus(weights[i], x);
            value.plus(values[i], x);
        }
        model.atMost("capacity", weight, 11);
        model.maximize(value);

        Solution solution = solver.solve(model, QUICK);
        assertEquals(SolveStatus.OPTIMAL, solution.status(), solution.toString());
        assertEquals(40, solution.objective(), EPSILON);
        assertTrue(solution.bestBound() >= 40 - EPSILON, "bound below the optimum: " + solution);
        assertTrue(solution.relativeGap() <= 1e-4, solution.toString());
        double[] expected = {0, 0, 1, 1, 0};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], solution.value(take.get(i)), EPSILON, "item " + i);
        }
    }

    @Test
    void linearProgramWithAConstantInAConstraint() {
        // max 3x + 2y, x + y <= 4, x + 3y <= 6, (x + 1) <= 4: x = 3, y = 1, objective 11 (+ 0.5 offset)
        LinearModel model = new LinearModel("lp");
        Variable x = model.continuous("x", 0, Double.POSITIVE_INFINITY);
        Variable y = model.continuous("y", 0, Double.POSITIVE_INFINITY);
        model.atMost("sum", new LinearExpression().plus(1, x).plus(1, y), 4);
        model.atMost("skew", new LinearExpression().plus(1, x).plus(3, y), 6);
        model.atMost("shifted", new LinearExpression().plus(1, x).plus(1), 4);
        model.maximize(new LinearExpression().plus(3, x).plus(2, y).plus(0.5));

        Solution solution = solver.solve(model, QUICK);
        assertEquals(SolveStatus.OPTIMAL, solution.status(), solution.toString());
        assertEquals(11.5, solution.objective(), EPSILON);
        assertEquals(3, solution.value(x), EPSILON);
        assertEquals(1, solution.value(y), EPSILON);
        assertEquals(0, solution.relativeGap(), EPSILON);
    }

    @Test
    void infeasibleMipSaysSoAndHasNoValues() {
        LinearModel model = new LinearModel("infeasible");
        Variable a = model.binary("a");
        Variable b = model.binary("b");
        model.atLeast("three", new LinearExpression().plus(1, a).plus(1, b), 3);
        model.minimize(new LinearExpression().plus(1, a));

        Solution solution = solver.solve(model, QUICK);
        assertEquals(SolveStatus.INFEASIBLE, solution.status(), solution.toString());
        assertTrue(Double.isNaN(solution.objective()));
        assertTrue(Double.isNaN(solution.relativeGap()));
        IllegalStateException noValue = assertThrows(IllegalStateException.class, () -> solution.value(a));
        assertTrue(noValue.getMessage().contains("INFEASIBLE"), noValue.getMessage());
    }

    @Test
    void unboundedLinearProgram() {
        LinearModel model = new LinearModel("unbounded");
        Variable x = model.continuous("x", 0, Double.POSITIVE_INFINITY);
        model.maximize(new LinearExpression().plus(1, x));
        SolveStatus status = solver.solve(model, QUICK).status();
        // GLOP may report a primal-unbounded LP as dual-infeasible, never as solved
        assertTrue(status == SolveStatus.UNBOUNDED || status == SolveStatus.INFEASIBLE, status.toString());
    }

    @Test
    void cpSatAllDifferentFindsTheKnownOptimum() {
        // x, y, z all different in 1..3, minimise x + 2y + 3z: z = 1, y = 2, x = 3, objective 10
        CpModel model = new CpModel("assignment");
        IntVar x = model.intVar("x", 1, 3);
        IntVar y = model.intVar("y", 1, 3);
        IntVar z = model.intVar("z", 1, 3);
        model.allDifferent("distinct", List.of(x, y, z));
        model.minimize(new IntExpression().plus(1, x).plus(2, y).plus(3, z));

        Solution solution = solver.solve(model, new SolveOptions(Duration.ofSeconds(10), 2));
        assertEquals(SolveStatus.OPTIMAL, solution.status(), solution.toString());
        assertEquals(10, solution.objective(), EPSILON);
        assertEquals(10, solution.bestBound(), EPSILON);
        assertEquals(0, solution.relativeGap(), EPSILON);
        assertEquals(3, solution.value(x));
        assertEquals(2, solution.value(y));
        assertEquals(1, solution.value(z));
    }

    @Test
    void cpSatLinearConstraintWithAConstant() {
        // (a + b + 5) == 12, a <= 3: maximise a * 10 + b -> a = 3, b = 4
        CpModel model = new CpModel("linear");
        IntVar a = model.intVar("a", 0, 10);
        IntVar b = model.intVar("b", 0, 10);
        model.equal("sum", new IntExpression().plus(1, a).plus(1, b).plus(5), 12);
        model.atMost("a", new IntExpression().plus(1, a), 3);
        model.maximize(new IntExpression().plus(10, a).plus(1, b));
        Solution solution = solver.solve(model, QUICK);
        assertEquals(SolveStatus.OPTIMAL, solution.status(), solution.toString());
        assertEquals(3, solution.value(a));
        assertEquals(4, solution.value(b));
        assertEquals(34, solution.objective(), EPSILON);
    }

    @Test
    void cpSatStartsFromACompleteFeasibleHint() {
        // the hard knapsack below: a solution found in a second on two workers, hinted, is where a solve
        // of half a second on one starts, so it ends no worse (unhinted, such a solve ended below it here)
        HardKnapsack instance = HardKnapsack.generate(300, 10);
        List<IntVar> take = new ArrayList<>();
        CpModel model = instance.cpModel(take);
        Solution first = solver.solve(model, new SolveOptions(Duration.ofSeconds(1), 2));
        assertTrue(first.status().hasSolution(), first.toString());
        for (IntVar x : take) {
            model.hint(x, first.value(x));
        }
        assertEquals(take.size(), model.hints().size());
        Solution warm = solver.solve(model, new SolveOptions(Duration.ofMillis(500), 1));
        assertTrue(warm.status().hasSolution(), warm.toString());
        assertTrue(warm.objective() >= first.objective(), warm + " is worse than its hint " + first);
    }

    @Test
    void cpSatHintWithAnObjectiveLeavesTheOptimumAlone() {
        // the hint x = 3, y = 2, z = 1 is feasible but not optimal: the optimum is still found
        CpModel model = new CpModel("assignment");
        IntVar x = model.intVar("x", 1, 3);
        IntVar y = model.intVar("y", 1, 3);
        IntVar z = model.intVar("z", 1, 3);
        model.allDifferent("distinct", List.of(x, y, z));
        model.minimize(new IntExpression().plus(1, x).plus(2, y).plus(3, z));
        model.hint(x, 1);
        model.hint(y, 2);
        model.hint(z, 3);
        Solution solution = solver.solve(model, QUICK);
        assertEquals(SolveStatus.OPTIMAL, solution.status(), solution.toString());
        assertEquals(10, solution.objective(), EPSILON);
    }

    @Test
    void aHintOutsideItsVariablesBoundsOrOfAnotherModelIsRefused() {
        CpModel model = new CpModel("one");
        IntVar x = model.intVar("x", 0, 4);
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class, () -> model.hint(x, 5));
        assertTrue(outside.getMessage().contains("x") && outside.getMessage().contains("[0, 4]"), outside.getMessage());
        IntVar other = new CpModel("two").boolVar("w");
        IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class, () -> model.hint(other, 1));
        assertTrue(foreign.getMessage().contains("two"), foreign.getMessage());
        assertTrue(model.hints().isEmpty());
    }

    @Test
    void cpSatInfeasible() {
        CpModel model = new CpModel("pigeons");
        List<IntVar> pigeons = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            pigeons.add(model.intVar("p" + i, 1, 2));
        }
        model.allDifferent("one per hole", pigeons);
        Solution solution = solver.solve(model, QUICK);
        assertEquals(SolveStatus.INFEASIBLE, solution.status(), solution.toString());
        assertThrows(IllegalStateException.class, () -> solution.value(pigeons.get(0)));
    }

    /**
     * A multidimensional knapsack of 300 items in 10 dimensions, values correlated with weights as in the
     * OR-Library's hard instances, stopped after 100 ms: the solve returns at its limit with a solution
     * and a positive gap (its bound above the objective), or with none; never a claimed optimum.
     */
    @Test
    void timeLimitStopsAHardMipWithItsGap() {
        LinearModel model = HardKnapsack.generate(300, 10).linearModel(new ArrayList<>());
        assertStoppedByTheLimit(solver.solve(model, new SolveOptions(Duration.ofMillis(100), 2)));
    }

    @Test
    void scipStartsFromACompleteFeasibleHint() {
        // the hard knapsack: a solution SCIP found in a second, hinted, is where a solve of 200 ms starts,
        // so it ends with a solution no worse
        List<Variable> take = new ArrayList<>();
        LinearModel model = HardKnapsack.generate(300, 10).linearModel(take);
        Solution first = solver.solve(model, new SolveOptions(Duration.ofSeconds(1), 1));
        assertTrue(first.status().hasSolution(), first.toString());
        for (Variable x : take) {
            model.hint(x, Math.rint(first.value(x)));
        }
        assertEquals(take.size(), model.hints().size());
        Solution warm = solver.solve(model, new SolveOptions(Duration.ofMillis(200), 1));
        assertTrue(warm.status().hasSolution(), warm.toString());
        assertTrue(warm.objective() >= first.objective() - EPSILON, warm + " is worse than its hint " + first);
    }

    @Test
    void aLinearHintOutsideItsVariablesBoundsIsRefused() {
        LinearModel model = new LinearModel("one");
        Variable x = model.integer("x", 0, 4);
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class, () -> model.hint(x, 5));
        assertTrue(outside.getMessage().contains("x") && outside.getMessage().contains("[0.0, 4.0]"),
                outside.getMessage());
        Variable other = new LinearModel("two").binary("w");
        assertThrows(IllegalArgumentException.class, () -> model.hint(other, 1));
        assertTrue(model.hints().isEmpty());
    }

    /** The same instance for CP-SAT, on two workers. */
    @Test
    void timeLimitStopsAHardCpSatModelWithItsGap() {
        CpModel model = HardKnapsack.generate(300, 10).cpModel(new ArrayList<>());
        assertStoppedByTheLimit(solver.solve(model, new SolveOptions(Duration.ofMillis(100), 2)));
    }

    private static void assertStoppedByTheLimit(Solution solution) {
        assertTrue(solution.status() == SolveStatus.FEASIBLE || solution.status() == SolveStatus.NOT_SOLVED,
                solution.toString());
        if (solution.status() == SolveStatus.FEASIBLE) {
            assertTrue(solution.bestBound() > solution.objective(), solution.toString());
            assertTrue(solution.relativeGap() > 0, solution.toString());
        } else {
            assertTrue(Double.isNaN(solution.relativeGap()), solution.toString());
        }
    }

    /** A seeded multidimensional knapsack: each capacity half its dimension's total weight. */
    private record HardKnapsack(long[] values, long[][] weights, long[] capacities) {

        static HardKnapsack generate(int items, int dimensions) {
            Random random = new Random(19);
            long[] values = new long[items];
            long[][] weights = new long[dimensions][items];
            long[] capacities = new long[dimensions];
            for (int i = 0; i < items; i++) {
                long sum = 0;
                for (int d = 0; d < dimensions; d++) {
                    weights[d][i] = 1 + random.nextInt(1000);
                    sum += weights[d][i];
                    capacities[d] += weights[d][i];
                }
                values[i] = sum / dimensions + random.nextInt(500);
            }
            for (int d = 0; d < dimensions; d++) {
                capacities[d] /= 2;
            }
            return new HardKnapsack(values, weights, capacities);
        }

        /** The instance as a MIP (SCIP) maximising the value taken; its binaries added to {@code take}. */
        LinearModel linearModel(List<Variable> take) {
            LinearModel model = new LinearModel("mkp");
            for (int i = 0; i < values.length; i++) {
                take.add(model.binary("x" + i));
            }
            for (int d = 0; d < weights.length; d++) {
                LinearExpression load = new LinearExpression();
                for (int i = 0; i < take.size(); i++) {
                    load.plus(weights[d][i], take.get(i));
                }
                model.atMost("dimension" + d, load, capacities[d]);
            }
            LinearExpression value = new LinearExpression();
            for (int i = 0; i < take.size(); i++) {
                value.plus(values[i], take.get(i));
            }
            model.maximize(value);
            return model;
        }

        /** The instance as a CP-SAT model maximising the value taken; its binaries added to {@code take}. */
        CpModel cpModel(List<IntVar> take) {
            CpModel model = new CpModel("mkp");
            for (int i = 0; i < values.length; i++) {
                take.add(model.boolVar("x" + i));
            }
            for (int d = 0; d < weights.length; d++) {
                IntExpression load = new IntExpression();
                for (int i = 0; i < take.size(); i++) {
                    load.plus(weights[d][i], take.get(i));
                }
                model.atMost("dimension" + d, load, capacities[d]);
            }
            IntExpression value = new IntExpression();
            for (int i = 0; i < take.size(); i++) {
                value.plus(values[i], take.get(i));
            }
            model.maximize(value);
            return model;
        }
    }

    @Test
    void aVariableOfAnotherModelIsRefusedByName() {
        LinearModel one = new LinearModel("one");
        Variable x = new LinearModel("two").binary("x");
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> one.maximize(new LinearExpression().plus(1, x)));
        assertTrue(wrong.getMessage().contains("x") && wrong.getMessage().contains("two"), wrong.getMessage());
    }

    @Test
    void optionsOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SolveOptions(Duration.ZERO, 1));
        assertThrows(IllegalArgumentException.class, () -> new SolveOptions(Duration.ofSeconds(1), 0));
        assertThrows(IllegalArgumentException.class, () -> new SolveOptions(Duration.ofSeconds(1), 65));
    }
}
