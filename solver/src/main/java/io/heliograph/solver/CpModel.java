package io.heliograph.solver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A constraint program over bounded integer variables, for CP-SAT: linear constraints
 * {@code lower <= expression <= upper}, all-different constraints, and an objective to minimise or
 * maximise (none: any feasible assignment), and optionally a hint: values to try first (a warm start,
 * e.g. a heuristic's solution), which the solver may use or ignore. Plain data, built by one thread;
 * {@link SolverService#solve(CpModel, SolveOptions)} solves it, and the same model may be solved again.
 */
public final class CpModel {

    /** {@code lower <= expression <= upper}. */
    public record Linear(String name, long lower, IntExpression expression, long upper) {
    }

    /** The variables take pairwise different values. */
    public record AllDifferent(String name, List<IntVar> variables) {
    }

    private final String name;
    private final List<IntVar> variables = new ArrayList<>();
    private final List<Linear> linears = new ArrayList<>();
    private final List<AllDifferent> allDifferents = new ArrayList<>();
    private final Map<IntVar, Long> hints = new LinkedHashMap<>();
    private IntExpression objective = new IntExpression();
    private boolean maximize;

    public CpModel(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public String name() {
        return name;
    }

    public IntVar intVar(String name, long lower, long upper) {
        Objects.requireNonNull(name, "name");
        if (lower > upper) {
            throw new IllegalArgumentException("variable " + name + " of model " + this.name
                    + ": bounds [" + lower + ", " + upper + "] are not a range");
        }
        IntVar variable = new IntVar(this, variables.size(), name, lower, upper);
        variables.add(variable);
        return variable;
    }

    /** An integer variable in [0, 1]. */
    public IntVar boolVar(String name) {
        return intVar(name, 0, 1);
    }

    /** {@code lower <= expression <= upper}. */
    public Linear constrain(String name, long lower, IntExpression expression, long upper) {
        if (lower > upper) {
            throw new IllegalArgumentException("constraint " + name + " of model " + this.name
                    + ": bounds [" + lower + ", " + upper + "] are not a range");
        }
        Linear linear = new Linear(name, lower, checked(expression), upper);
        linears.add(linear);
        return linear;
    }

    /** {@code expression <= upper}. */
    public Linear atMost(String name, IntExpression expression, long upper) {
        return constrain(name, Long.MIN_VALUE, expression, upper);
    }

    /** {@code expression >= lower}. */
    public Linear atLeast(String name, IntExpression expression, long lower) {
        return constrain(name, lower, expression, Long.MAX_VALUE);
    }

    /** {@code expression == value}. */
    public Linear equal(String name, IntExpression expression, long value) {
        return constrain(name, value, expression, value);
    }

    public AllDifferent allDifferent(String name, List<IntVar> variables) {
        for (IntVar variable : variables) {
            checked(new IntExpression().plus(1, variable));
        }
        AllDifferent constraint = new AllDifferent(name, List.copyOf(variables));
        allDifferents.add(constraint);
        return constraint;
    }

    public void minimize(IntExpression expression) {
        objective = checked(expression);
        maximize = false;
    }

    public void maximize(IntExpression expression) {
        objective = checked(expression);
        maximize = true;
    }

    /**
     * Hints that {@code variable} takes {@code value} (a second hint for it replaces the first): the
     * solver tries the hinted values first. A complete, feasible hint is a warm start: CP-SAT usually
     * takes it as its first solution, so a solve stopped by its time limit still has one. A hint never
     * changes which solutions are feasible or optimal.
     */
    public void hint(IntVar variable, long value) {
        checked(new IntExpression().plus(1, variable));
        if (value < variable.lower() || value > variable.upper()) {
            throw new IllegalArgumentException("hint " + value + " for variable " + variable + " of model " + name
                    + " is outside its bounds [" + variable.lower() + ", " + variable.upper() + "]");
        }
        hints.put(variable, value);
    }

    /** The hinted values, in the order first hinted. */
    public Map<IntVar, Long> hints() {
        return Collections.unmodifiableMap(hints);
    }

    public List<IntVar> variables() {
        return Collections.unmodifiableList(variables);
    }

    public List<Linear> linears() {
        return Collections.unmodifiableList(linears);
    }

    public List<AllDifferent> allDifferents() {
        return Collections.unmodifiableList(allDifferents);
    }

    /** The objective; empty (no term) until set: then any feasible assignment will do. */
    public IntExpression objective() {
        return objective;
    }

    public boolean isMaximize() {
        return maximize;
    }

    /** A copy of {@code expression} (later changes to it leave the model alone), over this model's variables. */
    private IntExpression checked(IntExpression expression) {
        for (IntVar variable : expression.terms().keySet()) {
            if (variable.model() != this) {
                throw new IllegalArgumentException("variable " + variable + " belongs to model "
                        + variable.model().name() + ", not to " + name);
            }
        }
        return expression.copy();
    }

    @Override
    public String toString() {
        return "CpModel " + name + " (" + variables.size() + " variables, "
                + (linears.size() + allDifferents.size()) + " constraints)";
    }
}
