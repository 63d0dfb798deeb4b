package io.heliograph.circuit.engine;

import java.util.Arrays;

/**
 * One circuit configuration of a week: for {@code micros}, output port j of the circuit switch takes
 * from rack {@code sourceOf[j]}, a perfect matching (every rack sends to one rack and receives from one).
 * {@code micros} includes the night that follows the day, so a week's days sum to the week; the circuit
 * is up for {@code micros - night}. A port marked {@code dummy} only fills the matching (Solstice's
 * stuffing): no demand was scheduled there.
 */
public record Day(long micros, int[] sourceOf, boolean[] dummy) {

    public Day {
        if (sourceOf.length != dummy.length) {
            throw new IllegalArgumentException("a dummy mark per port");
        }
        boolean[] seen = new boolean[sourceOf.length];
        for (int j = 0; j < sourceOf.length; j++) {
            int i = sourceOf[j];
            if (i < 0 || i >= sourceOf.length || seen[i]) {
                throw new IllegalArgumentException("not a perfect matching: " + Arrays.toString(sourceOf));
            }
            seen[i] = true;
        }
        if (micros < 1) {
            throw new IllegalArgumentException("a day of " + micros + " us");
        }
        sourceOf = sourceOf.clone();
        dummy = dummy.clone();
    }

    @Override
    public int[] sourceOf() {
        return sourceOf.clone();
    }

    @Override
    public boolean[] dummy() {
        return dummy.clone();
    }

    /** The source rack of output port j. */
    public int source(int j) {
        return sourceOf[j];
    }

    public boolean dummy(int j) {
        return dummy[j];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Day that && that.micros == micros && Arrays.equals(that.sourceOf, sourceOf)
                && Arrays.equals(that.dummy, dummy);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(micros) + Arrays.hashCode(sourceOf);
    }

    @Override
    public String toString() {
        return micros + " us " + Arrays.toString(sourceOf);
    }
}
