package io.heliograph.solver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A linear program, or a mixed-integer one once a variable is integer: variables with bounds, linear
 * constraints {@code lower <= expression <= upper}, and an objective to minimise or maximise (none:
 * any feasible point). Plain data, built by one thread; {@link SolverService#solve(LinearModel, SolveOptions)}
 * solves it, and the same model may be solved again.
 */
public final class LinearModel {

    /** {@code lower <= expression <= upper}; either bound may be infinite. */
    public record Constraint(String name, double lower, LinearExpression expression, double upper) {
    }

    private final String name;
    private final List<Variable> variables = new ArrayList<>();
    private final List<Constraint> constraints = new ArrayList<>();
    private final Map<Variable, Double> hints = new LinkedHashMap<>();
    private LinearExpression objective = new LinearExpression();
    private boolean maximize;

    public LinearModel(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public String name() {
        return name;
    }

    public Variable continuous(String name, double lower, double upper) {
        return add(name, lower, upper, false);
    }

    public Variable integer(String name, double lower, double upper) {
        return add(name, lower, upper, true);
    }

    /** An integer variable in [0, 1]. */
    public Variable binary(String name) {
        return add(name, 0, 1, true);
    }

    /** {@code lower <= expression <= upper}. */
    public Constraint constrain(String name, double lower, LinearExpression expression, double upper) {
        if (Double.isNaN(lower) || Double.isNaN(upper) || lower > upper) {
            throw new IllegalArgumentException("constraint " + name + " of model " + this.name
                    + ": bounds [" + lower + ", " + upper + "] are not a range");
        }
        Constraint constraint = new Constraint(name, lower, checked(expression), upper);
        constraints.add(constraint);
        return constraint;
    }

    /** {@code expression <= upper}. */
    public Constraint atMost(String name, LinearExpression expression, double upper) {
        return constrain(name, Double.NEGATIVE_INFINITY, expression, upper);
    }

    /** {@code expression >= lower}. */
    public Constraint atLeast(String name, LinearExpression expression, double lower) {
        return constrain(name, lower, expression, Double.POSITIVE_INFINITY);
    }

    /** {@code expression == value}. */
    public Constraint equal(String name, LinearExpression expression, double value) {
        return constrain(name, value, expression, value);
    }

    public void minimize(LinearExpression expression) {
        objective = checked(expression);
        maximize = false;
    }

    public void maximize(LinearExpression expression) {
        objective = checked(expression);
        maximize = true;
    }

    /**
     * Hints that {@code variable} takes {@code value} (a second hint for it replaces the first): SCIP
     * starts from the hinted values, so a complete, feasible hint (a heuristic's solution) is a warm
     * start and a solve stopped by its time limit has at least it. GLOP ignores hints. A hint never
     * changes which solutions are feasible or optimal.
     */
    public void hint(Variable variable, double value) {
        checked(new LinearExpression().plus(1, variable));
        if (Double.isNaN(value) || value < variable.lower() || value > variable.upper()) {
            throw new IllegalArgumentException("hint " + value + " for variable " + variable + " of model " + name
                    + " is outside its bounds [" + variable.lower() + ", " + variable.upper() + "]");
        }
        hints.put(variable, value);
    }

    /** The hinted values, in the order first hinted. */
    public Map<Variable, Double> hints() {
        return Collections.unmodifiableMap(hints);
    }

    public List<Variable> variables() {
        return Collections.unmodifiableList(variables);
    }

    public List<Constraint> constraints() {
        return Collections.unmodifiableList(constraints);
    }

    /** The objective; empty (no term) until set: then any feasible point will do. */
    public LinearExpression objective() {
        return objective;
    }

    public boolean isMaximize() {
        return maximize;
    }

    /** Whether any variable is integer: a MIP rather than an LP. */
    public boolean hasIntegers() {
        return variables.stream().anyMatch(Variable::isInteger);
    }

    private Variable add(String name, double lower, double upper, boolean integer) {
        Objects.requireNonNull(name, "name");
        if (Double.isNaN(lower) || Double.isNaN(upper) || lower > upper) {
            throw new IllegalArgumentException("variable " + name + " of model " + this.name
                    + ": bounds [" + lower + ", " + upper + "] are not a range");
        }
        Variable variable = new Variable(this, variables.size(), name, lower, upper, integer);
        variables.add(variable);
        return variable;
    }

    /** A copy of {@code expression} (later changes to it leave the model alone), over this model's variables. */
    private LinearExpression checked(LinearExpression expression) {
        for (Variable variable : expression.terms().keySet()) {
            if (variable.model() != this) {
                throw new IllegalArgumentException("variable " + variable + " belongs to model "
                        + variable.model().name() + ", not to " + name);
            }
        }
        return expression.copy();
    }

    @Override
    public String toString() {
        return "LinearModel " + name + " (" + variables.size() + " variables, " + constraints.size() + " constraints)";
    }
}
