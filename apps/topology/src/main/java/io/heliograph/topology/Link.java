package io.heliograph.topology;

import java.util.Objects;

import io.heliograph.core.SwitchPort;

/** A directed link between two switch ports, as LLDP discovered it: frames leaving src arrive at dst. */
public record Link(SwitchPort src, SwitchPort dst) {

    public Link {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
    }

    /** The same cable seen from the other end. */
    public Link reverse() {
        return new Link(dst, src);
    }

    @Override
    public String toString() {
        return src + " -> " + dst;
    }
}
