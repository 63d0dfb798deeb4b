package io.heliograph.stats;

import java.time.Instant;
import java.util.Map;

import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;

/**
 * The host-to-host traffic matrix, in bits per second, derived from flow statistics: one view by MAC
 * pair (flows matching eth_src and eth_dst exactly) and one by IPv4 pair (flows matching ipv4_src and
 * ipv4_dst exactly). A flow matching both counts in both views; each view counts every packet once.
 * Pairs without a measured rate are absent (read them as 0).
 */
public record TrafficMatrix(Instant at, Map<HostPair<MacAddress>, Double> byMac,
        Map<HostPair<IPv4Address>, Double> byIpv4) {

    public static final TrafficMatrix EMPTY = new TrafficMatrix(Instant.EPOCH, Map.of(), Map.of());

    public TrafficMatrix {
        byMac = Map.copyOf(byMac);
        byIpv4 = Map.copyOf(byIpv4);
    }

    /** Bits per second from src to dst by MAC, 0 when none was measured. */
    public double bitsPerSecond(MacAddress src, MacAddress dst) {
        return byMac.getOrDefault(new HostPair<>(src, dst), 0.0);
    }

    /** Bits per second from src to dst by IPv4 address, 0 when none was measured. */
    public double bitsPerSecond(IPv4Address src, IPv4Address dst) {
        return byIpv4.getOrDefault(new HostPair<>(src, dst), 0.0);
    }
}
