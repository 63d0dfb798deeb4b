package io.heliograph.circuit.internal.exec;

/** Traffic from rack {@code src} to rack {@code dst}: one VOQ of the source ToR, one circuit of a day. */
public record RackPair(int src, int dst) implements Comparable<RackPair> {

    public RackPair {
        if (src < 0 || dst < 0 || src == dst) {
            throw new IllegalArgumentException("a rack pair is two different racks, not " + src + " -> " + dst);
        }
    }

    @Override
    public int compareTo(RackPair other) {
        return src != other.src ? Integer.compare(src, other.src) : Integer.compare(dst, other.dst);
    }

    @Override
    public String toString() {
        return src + "->" + dst;
    }
}
