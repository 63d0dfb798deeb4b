package io.heliograph.forwarding.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The packets of one flow held at its ingress while the switches downstream confirm its path: the
 * first one, and any that arrive meanwhile (a burst reaches the controller before the ingress has an
 * entry). Released together, in arrival order, once; after that it takes no more.
 *
 * @param <P> the held packet
 */
final class HeldPackets<P> {

    private final List<P> packets = new ArrayList<>();
    private boolean released;

    HeldPackets(P first) {
        packets.add(first);
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
    synchronized List<P> release() {
        released = true;
        return List.copyOf(packets);
    }
}
