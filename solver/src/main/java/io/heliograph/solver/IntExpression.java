package io.heliograph.solver;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A sum of integer coefficient x variable terms plus a constant, over the variables of one
 * {@link CpModel}: {@code new IntExpression().plus(3, x).plus(2, y)}. A variable added twice has its
 * coefficients summed.
 */
public final class IntExpression {

    private final Map<IntVar, Long> terms = new LinkedHashMap<>();
    private long constant;

    /** Adds {@code coefficient * variable}. */
    public IntExpression plus(long coefficient, IntVar variable) {
        terms.merge(variable, coefficient, Math::addExact);
        return this;
    }

    /** Adds {@code constant}. */
    public IntExpression plus(long constant) {
        this.constant = Math.addExact(this.constant, constant);
        return this;
    }

    /** Each variable with its coefficient, in the order first added. */
    public Map<IntVar, Long> terms() {
        return Collections.unmodifiableMap(terms);
    }

    public long constant() {
        return constant;
    }

    IntExpression copy() {
        IntExpression copy = new IntExpression();
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
