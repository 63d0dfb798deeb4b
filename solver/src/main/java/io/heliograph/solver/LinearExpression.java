package io.heliograph.solver;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A sum of coefficient x variable terms plus a constant, over the variables of one {@link LinearModel},
 * built with {@link #plus}: {@code new LinearExpression().plus(3, x).plus(2, y)}. A variable added
 * twice has its coefficients summed.
 */
public final class LinearExpression {

    private final Map<Variable, Double> terms = new LinkedHashMap<>();
    private double constant;

    /** Adds {@code coefficient * variable}. */
    public LinearExpression plus(double coefficient, Variable variable) {
        if (!Double.isFinite(coefficient)) {
            throw new IllegalArgumentException("coefficient of " + variable + " must be finite, was " + coefficient);
        }
        terms.merge(variable, coefficient, Double::sum);
        return this;
    }

    /** Adds {@code constant}. */
    public LinearExpression plus(double constant) {
        if (!Double.isFinite(constant)) {
            throw new IllegalArgumentException("constant must be finite, was " + constant);
        }
        this.constant += constant;
        return this;
    }

    /** Each variable with its coefficient, in the order first added. */
    public Map<Variable, Double> terms() {
        return Collections.unmodifiableMap(terms);
    }

    public double constant() {
        return constant;
    }

    LinearExpression copy() {
        LinearExpression copy = new LinearExpression();
        copy.terms.putAll(terms);
        copy.constant = constant;
        return copy;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        terms.forEach((v, c) -> text.append(text.length() == 0 ? "" : " + ").append(c).append('*').append(v));
        return text.append(" + ").append(constant).toString();
    }
}
