package io.heliograph.virtue.engine;

import java.util.concurrent.CancellationException;

/**
 * Where a long placement run has got to, for an operator watching it: a fraction from 0 to 1 that
 * only grows. The run calls it from its own threads at least every few percent; a caller that wants
 * the run to stop throws {@link CancellationException} from it, and the run ends with that exception.
 */
@FunctionalInterface
public interface Progress {

    /** Nothing is watching. */
    Progress NONE = fraction -> {
    };

    /** The run has done {@code fraction} of its work. */
    void reached(double fraction) throws CancellationException;
}
