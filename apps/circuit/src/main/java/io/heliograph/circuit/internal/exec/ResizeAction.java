package io.heliograph.circuit.internal.exec;

/**
 * Dynamic buffer resizing (spec §2.5, {@code resize(s, b, tau)}), as the executor emits it: VOQ
 * {@code pair} should hold {@code packets} from {@code atEpochNanos} on. The executor calls it on its
 * own thread, at that time or just after (never before), with the time the schedule gave, so a
 * listener can tell how late it is; an implementation that does anything slow hands it to a thread of
 * its own. When a week starts (or replaces another) every pair is told its size at that moment.
 */
@FunctionalInterface
public interface ResizeAction {

    void resize(RackPair pair, int packets, long atEpochNanos);

    /** Resizes nothing. */
    ResizeAction NONE = (pair, packets, at) -> { };
}
