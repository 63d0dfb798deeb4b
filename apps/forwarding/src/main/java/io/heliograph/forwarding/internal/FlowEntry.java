package io.heliograph.forwarding.internal;

import java.util.Objects;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/**
 * One flow entry of an installed path, as we wrote it: enough to delete exactly it later. Its match
 * is built when it is first written and kept, so a path written again (its flow's packets reaching us
 * before its entries reached the switch) builds none. Equal when the six values are.
 */
final class FlowEntry {

    private final DatapathId dpid;
    private final OFPort inPort;
    private final FlowHeaders headers;
    private final int priority;
    private final U64 cookie;
    private final OFPort out;
    /**
     * The match as the entry's switch writes it; built on first use, by whichever I/O thread writes
     * it. Not volatile: a thread that does not see another's match builds its own, and Loxi's matches
     * are immutable, their fields final, so one seen is seen whole.
     */
    private Match match;

    /**
     * @param headers the headers as this switch's version matches them (see {@link FlowHeaders#supportedBy})
     * @param out     the port the entry sends its packets out of
     */
    FlowEntry(DatapathId dpid, OFPort inPort, FlowHeaders headers, int priority, U64 cookie, OFPort out) {
        this.dpid = Objects.requireNonNull(dpid, "dpid");
        this.inPort = Objects.requireNonNull(inPort, "inPort");
        this.headers = Objects.requireNonNull(headers, "headers");
        this.priority = priority;
        this.cookie = Objects.requireNonNull(cookie, "cookie");
        this.out = Objects.requireNonNull(out, "out");
    }

    DatapathId dpid() {
        return dpid;
    }

    OFPort inPort() {
        return inPort;
    }

    FlowHeaders headers() {
        return headers;
    }

    int priority() {
        return priority;
    }

    U64 cookie() {
        return cookie;
    }

    OFPort out() {
        return out;
    }

    /** The entry's match, in the version of {@code factory}: the entry's switch's. */
    Match match(OFFactory factory) {
        Match built = match;
        if (built == null || built.getVersion() != factory.getVersion()) {
            built = headers.toMatch(factory, inPort);
            match = built;
        }
        return built;
    }

    /** What identifies the entry in the switch's table: a later add with the same key replaces it. */
    TableKey tableKey() {
        return new TableKey(dpid, inPort, headers, priority);
    }

    /** Whether {@code other} is this entry but for its cookie: the same place, sending to the same port. */
    boolean sameFlowAs(FlowEntry other) {
        return dpid.equals(other.dpid) && inPort.equals(other.inPort) && headers.equals(other.headers)
                && priority == other.priority && out.equals(other.out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlowEntry other && sameFlowAs(other) && cookie.equals(other.cookie);
    }

    @Override
    public int hashCode() {
        int h = dpid.hashCode();
        h = 31 * h + inPort.hashCode();
        h = 31 * h + headers.hashCode();
        h = 31 * h + priority;
        h = 31 * h + cookie.hashCode();
        return 31 * h + out.hashCode();
    }

    @Override
    public String toString() {
        return "FlowEntry[dpid=" + dpid + ", inPort=" + inPort + ", headers=" + headers + ", priority=" + priority
                + ", cookie=" + cookie + ", out=" + out + "]";
    }

    record TableKey(DatapathId dpid, OFPort inPort, FlowHeaders headers, int priority) {
    }
}
