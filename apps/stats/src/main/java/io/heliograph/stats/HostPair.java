package io.heliograph.stats;

import java.util.Objects;

/** A direction of traffic between two hosts, named by an address type A (MAC or IPv4). */
public record HostPair<A>(A src, A dst) {

    public HostPair {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
    }

    @Override
    public String toString() {
        return src + " -> " + dst;
    }
}
