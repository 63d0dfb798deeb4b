package io.heliograph.solver;

/** An integer variable of one {@link CpModel}, between its (finite) bounds. */
public final class IntVar {

    private final CpModel model;
    private final int index;
    private final String name;
    private final long lower;
    private final long upper;

    IntVar(CpModel model, int index, String name, long lower, long upper) {
        this.model = model;
        this.index = index;
        this.name = name;
        this.lower = lower;
        this.upper = upper;
    }

    CpModel model() {
        return model;
    }

    /** Its position in {@link CpModel#variables()}, 0 first. */
    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    public long lower() {
        return lower;
    }

    public long upper() {
        return upper;
    }

    @Override
    public String toString() {
        return name;
    }
}
