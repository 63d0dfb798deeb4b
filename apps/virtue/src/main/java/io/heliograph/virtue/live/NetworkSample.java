package io.heliograph.virtue.live;

import java.util.List;

/**
 * One sampling round of an experiment's network: every EDF link's rate and utilisation, the traffic
 * matrix of its routed VM pairs, and each VM's sent and received rates. Rates are bits per second; a
 * figure the statistics app does not have yet (a switch not polled twice, a flow entry not seen yet, a
 * rate older than the round allows) is null, never 0.
 */
public record NetworkSample(List<LinkRate> links, List<PairRate> traffic, List<VmRate> vms) {

    public NetworkSample {
        links = List.copyOf(links);
        traffic = List.copyOf(traffic);
        vms = List.copyOf(vms);
    }

    /**
     * One direction of an EDF link.
     *
     * @param capacity    bits per second, by the EDF's rule ({@code Edf.linkBitsPerSecond})
     * @param utilisation bitsPerSecond / capacity, null when the rate is
     */
    public record LinkRate(String id, String source, int sourcePort, String destination, int destinationPort,
            Double bitsPerSecond, double capacity, Double utilisation) {
    }

    /** One entry of the traffic matrix: what the pair's source entry counted. */
    public record PairRate(String source, String destination, Double bitsPerSecond) {
    }

    /**
     * One VM's rates.
     *
     * @param nicSent         what its link up carried (the switch port's receive rate)
     * @param nicReceived     what its link down carried (the switch port's transmit rate)
     * @param trafficSent     the sum of its row of the traffic matrix: 0 when it sends to no VM by a
     *                        route, null when any of those pairs' rates is missing
     * @param trafficReceived the sum of its column, likewise
     */
    public record VmRate(String id, String pm, Double nicSent, Double nicReceived, Double trafficSent,
            Double trafficReceived) {
    }
}
