package io.heliograph.openflow;

/**
 * What one switch may make the controller hold or handle, each a setting of
 * {@code io.heliograph.openflow}; what goes past a bound is refused or dropped and counted.
 *
 * @param maxPorts           ports kept per switch (from FEATURES on 1.0, the port description and
 *                           PORT_STATUS); a port beyond it is refused
 * @param maxPendingRequests requests an app may have awaiting answers from one switch; one beyond
 *                           it fails at once
 * @param packetInRate       packet-ins per second one switch may hand to the apps, on average
 *                           (a token bucket); 0 = unlimited
 * @param packetInBurst      packet-ins a switch may send at once above the rate (the bucket's size)
 */
public record SwitchLimits(int maxPorts, int maxPendingRequests, int packetInRate, int packetInBurst) {

    /** Room for the largest real switches (hardware tops out near 1,000 ports; OVS bridges with thousands of VM ports). */
    public static final int DEFAULT_MAX_PORTS = 4096;
    /** Far above what statistics polling and REST need per switch, small next to the heap. */
    public static final int DEFAULT_MAX_PENDING_REQUESTS = 1000;
    /** Well above a busy real switch's miss rate; one flooding switch gets no more than this. */
    public static final int DEFAULT_PACKET_IN_RATE = 100_000;
    public static final int DEFAULT_PACKET_IN_BURST = 10_000;

    public static final SwitchLimits DEFAULTS = new SwitchLimits(DEFAULT_MAX_PORTS, DEFAULT_MAX_PENDING_REQUESTS,
            DEFAULT_PACKET_IN_RATE, DEFAULT_PACKET_IN_BURST);

    public SwitchLimits {
        if (maxPorts < 1) {
            throw new IllegalArgumentException("maxPorts must be at least 1, was " + maxPorts);
        }
        if (maxPendingRequests < 1) {
            throw new IllegalArgumentException("maxPendingRequests must be at least 1, was " + maxPendingRequests);
        }
        if (packetInRate < 0) {
            throw new IllegalArgumentException("packetInRate must be 0 (unlimited) or more, was " + packetInRate);
        }
        if (packetInRate > 0 && packetInBurst < 1) {
            throw new IllegalArgumentException("packetInBurst must be at least 1 when packetInRate is set, was "
                    + packetInBurst);
        }
    }

    public SwitchLimits withMaxPorts(int max) {
        return new SwitchLimits(max, maxPendingRequests, packetInRate, packetInBurst);
    }

    public SwitchLimits withMaxPendingRequests(int max) {
        return new SwitchLimits(maxPorts, max, packetInRate, packetInBurst);
    }

    public SwitchLimits withPacketInRate(int rate, int burst) {
        return new SwitchLimits(maxPorts, maxPendingRequests, rate, burst);
    }
}
