package io.heliograph.solver;

/** A variable of one {@link LinearModel}: continuous or integer, between its bounds (infinite allowed). */
public final class Variable {

    private final LinearModel model;
    private final int index;
    private final String name;
    private final double lower;
    private final double upper;
    private final boolean integer;

    Variable(LinearModel model, int index, String name, double lower, double upper, boolean integer) {
        this.model = model;
        this.index = index;
        this.name = name;
        this.lower = lower;
        this.upper = upper;
        this.integer = integer;
    }

    LinearModel model() {
        return model;
    }

    /** Its position in {@link LinearModel#variables()}, 0 first. */
    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    public double lower() {
        return lower;
    }

    public double upper() {
        return upper;
    }

    public boolean isInteger() {
        return integer;
    }

    @Override
    public String toString() {
        return name;
    }
}
