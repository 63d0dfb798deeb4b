package io.heliograph.topology.internal.rest;

import java.time.Instant;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.internal.LinkStatus;

/**
 * A directed link: frames leaving {@code src} arrive at {@code dst}; {@code bidirectional} when the
 * reverse direction is discovered too; first and last confirmed by LLDP (ISO-8601, UTC); in a
 * cluster, the instance that discovered it (the master of its destination switch), else null.
 */
public record LinkView(End src, End dst, boolean bidirectional, String firstSeen, String lastSeen,
        String discoveredBy) {

    /** One end of a link: the switch's datapath id (colon form) and the port number. */
    public record End(String dpid, int port) {

        static End of(SwitchPort port) {
            return new End(port.dpid().toString(), port.port().getPortNumber());
        }
    }

    /** The discovery clock counts monotonic milliseconds; {@code nowMs} on it is {@code now} on the wall. */
    static LinkView of(LinkStatus status, long nowMs, Instant now) {
        return new LinkView(End.of(status.link().src()), End.of(status.link().dst()), status.bidirectional(),
                now.minusMillis(nowMs - status.firstSeenMs()).toString(),
                now.minusMillis(nowMs - status.lastSeenMs()).toString(), status.discoveredBy());
    }
}
