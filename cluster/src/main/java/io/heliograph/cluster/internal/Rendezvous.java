package io.heliograph.cluster.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Rendezvous (highest random weight) hashing: every instance ranks the candidates of a switch the
 * same way with no communication, and the loss of one instance moves only its own switches, spread
 * evenly over the rest. The hash uses only String.hashCode (specified by the language) and a fixed
 * mixer, so the order is the same in every JVM.
 */
final class Rendezvous {

    private Rendezvous() {
    }

    /** The instances in the order they should take the switch over, best first. */
    static List<String> order(String switchKey, Collection<String> instances) {
        List<String> ordered = new ArrayList<>(instances);
        ordered.sort(Comparator.comparingLong((String i) -> score(switchKey, i)).reversed().thenComparing(i -> i));
        return ordered;
    }

    static long score(String switchKey, String instance) {
        long h = ((long) switchKey.hashCode() << 32) ^ (instance.hashCode() & 0xffffffffL);
        // SplitMix64's finalizer: every input bit affects every output bit.
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }
}
