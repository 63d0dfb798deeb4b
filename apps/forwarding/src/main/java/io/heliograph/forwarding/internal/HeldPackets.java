package io.heliograph.forwarding.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The packets of one flow held at its ingress while the switches downstream confirm its path: the
 * first one, and any that arrive meanwhile (a burst reaches the controller before the ingress has an
 * entry). Released together, in arrival order, once. After that it remembers when, for a short grace:
 * a switch may still send a few packets of the flow up while its caches catch up with the new entry,
 * and those follow the same path rather than start a new one.
 *
 * @param <P> the held packet
 */
final class HeldPackets<P> {

    private final long pathId;
    private final List<P> packets = new ArrayList<>();
    private long releasedAtNanos;
    private boolean released;

    HeldPackets(long pathId, P first) {
        this.pathId = pathId;
        packets.add(first);
    }

    long pathId() {
        return pathId;
    }

    /** Holds {@code packet} with the others; false once they have been released (the caller forwards it itself). */
    synchronized boolean add(P packet) {
        if (released) {
            return false;
        }
        packets.add(packet);
        return true;
    }

    /** Every packet held, in arrival order; from now on {@link #add} refuses. */
    synchronized List<P> release(long nowNanos) {
        released = true;
        releasedAtNanos = nowNanos;
        List<P> all = List.copyOf(packets);
        packets.clear();
        return all;
    }

    synchronized boolean isReleased() {
        return released;
    }

    /** Released no longer than {@code graceNanos} before {@code nowNanos}. */
    synchronized boolean releasedWithin(long nowNanos, long graceNanos) {
        return released && nowNanos - releasedAtNanos <= graceNanos;
    }

    /** Released longer than {@code graceNanos} before {@code nowNanos}: nothing left to remember. */
    synchronized boolean expired(long nowNanos, long graceNanos) {
        return released && nowNanos - releasedAtNanos > graceNanos;
    }
}
